"""Claims only the operator can vouch for (urgency and scarcity texts, marketing figures,
testimonials, client logos): content read from `config/claims.toml` (the specs' wording) and
the operator's `claims_file` over it, with one switch (`urgency_claims`) for every urgency claim.

How a claim reaches a prerendered page (the web UI's features/content/claims.tsx):
- its text is rendered as a token `__AGENCY_CLAIM_<KEY>__`, replaced here with the configured
  text;
- the element that holds it carries `data-claim="<key>"` and is cut from the HTML when the
  claim is off; an element with `data-claim-off="<key>"` (what shows instead) is cut when it is
  on. The client renders the same from the `claims` of `<meta name="agency-site">`, so the page
  hydrates without a change and leaves no empty box.
"""

from __future__ import annotations

import html
import re
import tomllib
from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agency.core.errors import ValidationFailed
from agency.core.paths import config_dir

KEY = re.compile(r"^[a-z][a-z0-9_]{0,47}$")
TOKEN = re.compile(r"__AGENCY_CLAIM_([A-Z0-9_]+)__")
SECTION_ON = "on"
LAUNCH_PRICING = "launch_pricing"
LAUNCH_PRICING_UNTIL = "launch_pricing_until"
TEXT_MAX = 300


QUOTE_MAX = 600
IMAGE = re.compile(r"^(/[A-Za-z0-9._~/-]*|https://[A-Za-z0-9._~:/?#@!$&'()*+,;=%-]+)$")


class Testimonial(BaseModel):
    """One testimonial; a field left out keeps the bundled value."""

    model_config = ConfigDict(extra="forbid")

    on: bool = True
    quote: str = ""
    name: str = ""
    position: str = ""
    result: str = ""
    rating: int = Field(default=5, ge=0, le=5)
    avatar: str = ""


class Logo(BaseModel):
    """One client logo of the logo strip."""

    model_config = ConfigDict(extra="forbid")

    on: bool = True
    name: str = ""
    image: str = ""


_Entry = TypeVar("_Entry", Testimonial, Logo)


class ClaimsFile(BaseModel):
    """A claims file: `[urgency]` and `[figures]` texts, `[sections]` switches, the
    `[testimonials.<page>.<person>]` and the `[logos.<key>]`."""

    model_config = ConfigDict(extra="forbid")

    urgency: dict[str, str] = {}
    figures: dict[str, str] = {}
    sections: dict[str, bool] = {}
    testimonials: dict[str, dict[str, Testimonial]] = {}
    logos: dict[str, Logo] = {}


def default_file() -> Path:
    return config_dir() / "claims.toml"


def read_file(path: Path) -> ClaimsFile:
    """Parse a claims file; a readable error names the file and the entry."""
    try:
        data = ClaimsFile.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValidationFailed(f"{path}: cannot be read ({exc})") from exc
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise ValidationFailed(f"{path}: {exc}") from exc
    for group in (data.urgency, data.figures, data.sections):
        for key, value in group.items():
            if not KEY.match(key):
                raise ValidationFailed(f"{path}: {key!r} is not a claim key (a-z, 0-9, _)")
            if isinstance(value, str) and (len(value) > TEXT_MAX or "\n" in value):
                raise ValidationFailed(f"{path}: {key} must be one line of at most {TEXT_MAX}")
    for page, people in data.testimonials.items():
        for person, item in people.items():
            _check_entry(path, f"testimonials.{page}.{person}", (page, person), item)
    for key, logo in data.logos.items():
        _check_entry(path, f"logos.{key}", (key,), logo)
    return data


def _check_entry(path: Path, where: str, keys: tuple[str, ...], entry: Testimonial | Logo) -> None:
    for key in keys:
        if not KEY.match(key) or len(key) > 24:
            message = f"{where}: {key!r} is not a key (a-z, 0-9, _; 24 at most)"
            raise ValidationFailed(f"{path}: {message}")
    for field, value in entry.model_dump().items():
        if not isinstance(value, str):
            continue
        limit = QUOTE_MAX if field == "quote" else TEXT_MAX
        if len(value) > limit or "\n" in value:
            raise ValidationFailed(f"{path}: {where}.{field} must be one line of at most {limit}")
        if field in ("avatar", "image") and value and not IMAGE.match(value):
            message = f"{where}.{field}: {value!r} is not a path here or an https:// address"
            raise ValidationFailed(f"{path}: {message}")


def merged(custom: ClaimsFile | None, defaults: ClaimsFile) -> ClaimsFile:
    """The operator's file over the defaults; a key the defaults do not have is refused."""
    if custom is None:
        return defaults
    for name in ("urgency", "figures", "sections"):
        unknown = sorted(set(getattr(custom, name)) - set(getattr(defaults, name)))
        if unknown:
            known = ", ".join(sorted(getattr(defaults, name)))
            raise ValidationFailed(
                f"[{name}]: unknown claim(s) {', '.join(unknown)}; the claims are {known}"
            )
    testimonials = {page: dict(people) for page, people in defaults.testimonials.items()}
    for page, people in custom.testimonials.items():
        if page not in testimonials:
            known = ", ".join(testimonials)
            raise ValidationFailed(f"[testimonials.{page}]: unknown page; the pages are {known}")
        for person, item in people.items():
            if person not in testimonials[page]:
                known = ", ".join(testimonials[page])
                message = f"[testimonials.{page}.{person}]: unknown testimonial; {page} has {known}"
                raise ValidationFailed(message)
            testimonials[page][person] = _over(testimonials[page][person], item)
    logos = dict(defaults.logos)
    for key, logo in custom.logos.items():
        if key not in logos:
            raise ValidationFailed(f"[logos.{key}]: unknown logo; the logos are {', '.join(logos)}")
        logos[key] = _over(logos[key], logo)
    return ClaimsFile(
        urgency={**defaults.urgency, **custom.urgency},
        figures={**defaults.figures, **custom.figures},
        sections={**defaults.sections, **custom.sections},
        testimonials=testimonials,
        logos=logos,
    )


def _over(default: _Entry, custom: _Entry) -> _Entry:
    """The default entry with the fields the operator's file sets."""
    return default.model_copy(update=custom.model_dump(exclude_unset=True))


def initials(name: str) -> str:
    """The avatar's letters: the first of each word, two at most."""
    return "".join(part[0] for part in name.split())[:2].upper()


def _testimonial_claims(data: ClaimsFile) -> dict[str, str]:
    """Per page: `testimonials_<page>` while one shows, and the testimonials that show in
    numbered slots `t_<page>_<n>` (n from 1, the bundled order) with their fields, so a
    testimonial switched off leaves no gap and the carousel counts what shows."""
    shown: dict[str, str] = {}
    if not data.sections.get("testimonials", False):
        return shown
    for page, people in data.testimonials.items():
        items = [item for item in people.values() if item.on and item.quote.strip()]
        if not items:
            continue
        shown[f"testimonials_{page}"] = SECTION_ON
        shown[f"t_{page}_count"] = str(len(items))
        for number, item in enumerate(items, start=1):
            slot = f"t_{page}_{number}"
            shown[slot] = SECTION_ON
            fields = {
                "quote": item.quote,
                "name": item.name,
                "position": item.position,
                "initials": initials(item.name),
                "result": item.result,
                "avatar": item.avatar,
            }
            if item.rating:
                fields["rating"] = f"Rated {item.rating} out of 5"
                fields["stars"] = "★" * item.rating
            shown.update({f"{slot}_{key}": text for key, text in fields.items() if text.strip()})
    return shown


def _logo_claims(data: ClaimsFile) -> dict[str, str]:
    """`client_logos` while one logo shows, and those that show in slots `logo_<n>`."""
    shown: dict[str, str] = {}
    logos = [logo for logo in data.logos.values() if logo.on and logo.name.strip()]
    if not data.sections.get("client_logos", False) or not logos:
        return shown
    shown["client_logos"] = SECTION_ON
    for number, logo in enumerate(logos, start=1):
        shown[f"logo_{number}"] = logo.name
        shown[f"logo_{number}_image"] = logo.image
    return shown


def _launch_pricing(text: str, until: str, today: date) -> str:
    """The launch-pricing note: a time limit only with a real end date, gone after it."""
    if not text:
        return ""
    if not until:
        rest = re.sub(r"^limited[- ]time\s+", "", text, flags=re.IGNORECASE)
        return rest[:1].upper() + rest[1:]
    try:
        end = date.fromisoformat(until)
    except ValueError as exc:
        message = f"{LAUNCH_PRICING_UNTIL}: {until!r} is not a date YYYY-MM-DD"
        raise ValidationFailed(message) from exc
    if end < today:
        return ""
    return f"{text} until {end.day} {end.strftime('%B %Y')}"


def enabled(data: ClaimsFile, *, urgency: bool, today: date) -> dict[str, str]:
    """Every claim that shows, key -> text (a section: "on"); a claim left out is off."""
    shown: dict[str, str] = {}
    if urgency:
        texts = dict(data.urgency)
        until = texts.pop(LAUNCH_PRICING_UNTIL, "")
        if LAUNCH_PRICING in texts:
            texts[LAUNCH_PRICING] = _launch_pricing(texts[LAUNCH_PRICING], until, today)
        shown.update({key: text for key, text in texts.items() if text.strip()})
    shown.update({key: text for key, text in data.figures.items() if text.strip()})
    shown.update({key: SECTION_ON for key, on in data.sections.items() if on})
    shown.pop("client_logos", None)
    shown.update(_testimonial_claims(data))
    shown.update(_logo_claims(data))
    return shown


def load(claims_file: Path | None, *, urgency: bool, today: date | None = None) -> dict[str, str]:
    """The claims that show, from the bundled file and the operator's `claims_file`."""
    defaults = read_file(default_file())
    custom = read_file(claims_file) if claims_file is not None else None
    return enabled(merged(custom, defaults), urgency=urgency, today=today or date.today())


def all_keys() -> set[str]:
    defaults = read_file(default_file())
    shown = enabled(defaults, urgency=True, today=date.min)
    return set(defaults.urgency) | set(defaults.figures) | set(defaults.sections) | set(shown)


def token(key: str) -> str:
    return f"__AGENCY_CLAIM_{key.upper()}__"


# ---- Filling a prerendered page ------------------------------------------------------------

_VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip


class _Cuts(HTMLParser):
    """Finds the (start, end) offsets of every element to cut: `data-claim` of a claim that is
    off, `data-claim-off` of one that is on (with everything inside it)."""

    def __init__(self, text: str, shown: dict[str, str]) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.shown = shown
        self.cuts: list[tuple[int, int]] = []
        self._lines = [0]
        for line in text.splitlines(keepends=True):
            self._lines.append(self._lines[-1] + len(line))
        self._open: tuple[str, int, int] | None = None  # tag, depth, start offset

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def _cut(self, attrs: list[tuple[str, str | None]]) -> bool:
        values = dict(attrs)
        off_key = values.get("data-claim")
        if off_key is not None and off_key not in self.shown:
            return True
        on_key = values.get("data-claim-off")
        return on_key is not None and on_key in self.shown

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        if self._open is not None:
            name, depth, begin = self._open
            if tag == name and tag not in _VOID:
                self._open = (name, depth + 1, begin)
            return
        if not self._cut(attrs):
            return
        if tag in _VOID:
            self.cuts.append((start, start + len(self.get_starttag_text() or "")))
            return
        self._open = (tag, 1, start)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._open is None and self._cut(attrs):
            start = self._offset()
            self.cuts.append((start, start + len(self.get_starttag_text() or "")))

    def handle_endtag(self, tag: str) -> None:
        if self._open is None or tag != self._open[0]:
            return
        name, depth, begin = self._open
        if depth > 1:
            self._open = (name, depth - 1, begin)
            return
        end = self.text.index(">", self._offset()) + 1
        self.cuts.append((begin, end))
        self._open = None


def cut_elements(text: str, shown: dict[str, str]) -> str:
    """The page without the elements of claims that are off (and the stand-ins of those on)."""
    if "data-claim" not in text:
        return text
    finder = _Cuts(text, shown)
    finder.feed(text)
    finder.close()
    parts: list[str] = []
    position = 0
    for start, end in finder.cuts:
        parts.append(text[position:start])
        position = end
    parts.append(text[position:])
    return "".join(parts)


def fill(text: str, shown: dict[str, str]) -> str:
    """A prerendered page with its claims as configured: elements cut, tokens filled."""
    text = cut_elements(text, shown)
    return TOKEN.sub(lambda m: html.escape(shown.get(m.group(1).lower(), ""), quote=True), text)
