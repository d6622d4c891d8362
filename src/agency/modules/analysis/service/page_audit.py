"""The page audit: the facts an analysis is grounded in, read from the page's HTML.

Pure and tolerant: `audit_html` never raises on any text (broken markup is read as far as it
goes) and every result is bounded (lists capped, strings cleaned of control characters and
trimmed to `ITEM_MAX`), so what it returns can be stored and shown as it is.

What counts as what (kept simple on purpose):
- calls to action: buttons (`<button>`, `<input type=submit|button>`, `role=button`) except
  page controls such as 'Menu' or 'Close', and links named as actions (book, get started,
  contact, buy, call, schedule, sign up, free, order, quote, demo, ... and a few German and
  French words) or styled as buttons (a class or id with btn, button or cta); at most 10,
  repeated labels once.
- forms: `<form>` elements; form fields: every `input`, `select` and `textarea` that a
  visitor fills in (not hidden, submit, button, reset or image).
- phone: a `tel:` link or a number in the text that starts with +, ( or 0 or reads as
  ###-###-####, with 8 to 15 digits; e-mail: a `mailto:` link or an address in the text.
- structured data: the `@type`s of JSON-LD blocks (with `@graph`) and microdata `itemtype`s.
- images without alt: `<img>` without an alt attribute (`alt=""` marks a decorative image).
- scripts: executable `<script>` elements (JSON-LD and templates are not); script_kb is the
  inline code's size (external files' sizes are unknown from the HTML).
- booking, chat and analytics: known providers recognised by the hosts of scripts, frames and
  links on the page and by their snippets' globals in inline code (`_SERVICES`).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Literal
from urllib.parse import urlsplit

from agency.modules.analysis.schemas import ITEM_MAX, PageFactsOut
from agency.modules.speedtest.api import URL_MAX

LIST_MAX = 10  # h1 texts, calls to action
TYPES_MAX = 20  # structured-data types
LABEL_MAX = 120  # a call to action's label
LANG_MAX = 35  # a language tag (BCP 47's longest practical form)
_CAPTURE_MAX = 2000  # text kept per open element (a title, a heading, a button)
_INLINE_SCAN_MAX = 200_000  # inline code searched for snippets, per page
_JSONLD_MAX = 500_000  # JSON-LD text parsed, per page
_TEXT_MAX = 1_000_000  # visible text searched for a phone number or an e-mail address
EVENTS_MAX = 200_000  # tags and text pieces read; a page with more is read that far
PARSE_CPU_SECONDS = 3.0  # CPU time of the parse, the same bound against crafted markup

Kind = Literal["booking", "chat", "analytics"]


@dataclass(frozen=True)
class _Service:
    kind: Kind
    name: str
    hosts: tuple[str, ...] = ()  # a host or its subdomains; "host/path" also needs the path
    snippets: tuple[str, ...] = ()  # case-sensitive text in inline code


_SERVICES: tuple[_Service, ...] = (
    # Booking
    _Service("booking", "Calendly", ("calendly.com",), ("Calendly.init",)),
    _Service("booking", "Acuity Scheduling", ("acuityscheduling.com", "as.me")),
    _Service("booking", "SimplyBook.me", ("simplybook.me", "simplybook.it", "simplybook.asia")),
    _Service("booking", "Setmore", ("setmore.com",)),
    _Service("booking", "Cal.com", ("cal.com",)),
    _Service("booking", "Doctolib", ("doctolib.de", "doctolib.fr", "doctolib.it")),
    _Service("booking", "Jameda", ("jameda.de",)),
    _Service("booking", "Timify", ("timify.com",)),
    _Service("booking", "HubSpot Meetings", ("meetings.hubspot.com", "meetings-eu1.hubspot.com")),
    _Service("booking", "YouCanBookMe", ("youcanbook.me",)),
    _Service("booking", "Square Appointments", ("squareup.com/appointments", "book.squareup.com")),
    _Service("booking", "Booksy", ("booksy.com",)),
    _Service("booking", "Fresha", ("fresha.com",)),
    _Service("booking", "TidyCal", ("tidycal.com",)),
    _Service("booking", "SavvyCal", ("savvycal.com",)),
    _Service("booking", "OpenTable", ("opentable.com", "opentable.de")),
    _Service("booking", "Microsoft Bookings", ("outlook.office365.com/owa/calendar",)),
    _Service("booking", "Google Calendar appointments", ("calendar.app.google",)),
    # Chat
    _Service(
        "chat",
        "Intercom",
        ("widget.intercom.io", "js.intercomcdn.com"),
        ("window.Intercom", "intercomSettings"),
    ),
    _Service("chat", "Drift", ("js.driftt.com", "drift.com"), ("drift.load(",)),
    _Service("chat", "Tawk.to", ("tawk.to",), ("Tawk_API",)),
    _Service("chat", "Crisp", ("crisp.chat",), ("$crisp",)),
    _Service("chat", "Zendesk", ("static.zdassets.com", "zopim.com"), ("zE(",)),
    _Service("chat", "LiveChat", ("livechatinc.com",), ("__lc.license",)),
    _Service("chat", "HubSpot chat", ("js.usemessages.com",), ("HubSpotConversations",)),
    _Service("chat", "Tidio", ("code.tidio.co", "tidio.com"), ("tidioChatApi",)),
    _Service("chat", "Olark", ("static.olark.com",), ("olark.identify",)),
    _Service("chat", "Freshchat", ("wchat.freshchat.com", "wchat.eu.freshchat.com"), ("fcWidget",)),
    _Service("chat", "Smartsupp", ("smartsuppchat.com", "smartsupp.com"), ("smartsupp(",)),
    _Service(
        "chat", "Userlike", ("userlike-cdn-widgets.s3-eu-west-1.amazonaws.com", "userlike.com")
    ),
    _Service("chat", "Chatra", ("call.chatra.io", "chatra.io"), ("ChatraID",)),
    _Service("chat", "JivoChat", ("code.jivosite.com", "jivochat.com")),
    _Service("chat", "WhatsApp", ("wa.me", "api.whatsapp.com", "chat.whatsapp.com")),
    # Analytics and tag managers
    _Service("analytics", "Google Analytics 4", ("googletagmanager.com/gtag",), ("gtag(",)),
    _Service("analytics", "Google Tag Manager", ("googletagmanager.com/gtm",), ("GTM-",)),
    _Service(
        "analytics", "Google Analytics", ("google-analytics.com",), ("GoogleAnalyticsObject",)
    ),
    _Service("analytics", "Matomo", ("matomo.cloud", "cdn.matomo.cloud"), ("_paq.push",)),
    _Service("analytics", "Plausible", ("plausible.io",)),
    _Service("analytics", "Fathom", ("usefathom.com",)),
    _Service("analytics", "Meta Pixel", ("connect.facebook.net",), ("fbq(",)),
    _Service("analytics", "Hotjar", ("static.hotjar.com", "hotjar.com"), ("_hjSettings",)),
    _Service("analytics", "Microsoft Clarity", ("clarity.ms",)),
    _Service("analytics", "Simple Analytics", ("simpleanalyticscdn.com",)),
    _Service("analytics", "Umami", ("umami.is", "analytics.umami.is")),
    _Service("analytics", "Segment", ("cdn.segment.com",), ("analytics.load(",)),
    _Service("analytics", "Mixpanel", ("cdn.mxpnl.com", "mixpanel.com"), ("mixpanel.init(",)),
    _Service("analytics", "Heap", ("cdn.heapanalytics.com",), ("heap.load(",)),
    _Service("analytics", "PostHog", ("posthog.com", "i.posthog.com"), ("posthog.init(",)),
    _Service("analytics", "LinkedIn Insight Tag", ("snap.licdn.com",), ("_linkedin_partner_id",)),
    _Service("analytics", "TikTok Pixel", ("analytics.tiktok.com",), ("ttq.load(",)),
    _Service("analytics", "HubSpot tracking", ("js.hs-scripts.com", "js-eu1.hs-scripts.com")),
)

# Matomo and Piwik are often self-hosted: their script's file name tells.
_MATOMO_FILE = re.compile(r"/(?:matomo|piwik)\.(?:js|php)\b")

_ACTION_WORDS = re.compile(
    r"\b(?:book|booking|get started|start|contact|buy|call|schedule|sign ?up|register|free|"
    r"order|shop|subscribe|quote|demo|trial|appointment|consultation|get in touch|talk to|"
    r"request|apply|join|download|reserve|hire|enquire|inquire|try|"
    r"termin|buchen|kontakt|anfrage|anfragen|jetzt|kaufen|bestellen|"
    r"rendez-vous|réserver|contactez|acheter)\b",
    re.IGNORECASE,
)
_STYLED_AS_BUTTON = re.compile(r"(?:^|[\s_-])(?:btn|button|cta)(?:$|[\s_-])", re.IGNORECASE)
_PAGE_CONTROLS = re.compile(
    r"^(?:menu|open menu|close|close menu|x|\u00d7|\u2715|search|toggle navigation|navigation|"
    r"accept|accept all|decline|reject|reject all|ok|cookie settings|settings|previous|next|"
    r"prev|back|more|play|pause|mute|unmute|share|language|skip to content)$",
    re.IGNORECASE,
)
_NOT_FIELDS = {"hidden", "submit", "button", "reset", "image"}
_BUTTON_INPUTS = {"submit", "button"}
_PHONE = re.compile(
    r"(?<![\w+])(?:\+\d[\d\s().-]{6,}\d|\(\d[\d\s().-]{6,}\d|0\d[\d\s()./-]{6,}\d|"
    r"\d{3}[\s.-]\d{3}[\s.-]\d{4})(?!\w)"
)
_DATE = re.compile(r"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{1,2}-\d{1,2}")
_EMAIL = re.compile(
    r"(?<![\w.+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*"
    r"\.[A-Za-z]{2,24}(?![\w-])"
)
_HOSTISH = re.compile(r"(?:https?:)?//([A-Za-z0-9.-]{1,253})(/[^\s\"'<>]{0,200})?")
_UNSAFE_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_SPACE = re.compile(r"\s+")
_SVG_OPEN = re.compile(r"<svg(?![\w-])", re.IGNORECASE)
_SVG_CLOSE = re.compile(r"</svg", re.IGNORECASE)
_EXECUTABLE = {"", "text/javascript", "application/javascript", "module", "text/ecmascript"}


def clean(text: str, limit: int = ITEM_MAX) -> str:
    """One line of text fit to store and show: control characters and lone surrogates out,
    runs of white space as one space, trimmed to `limit` characters."""
    text = _SPACE.sub(" ", _UNSAFE_CHARS.sub(" ", text)).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def _digits(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


def _has_phone(text: str) -> bool:
    return any(
        8 <= _digits(m.group(0)) <= 15 and not _DATE.fullmatch(m.group(0).strip())
        for m in _PHONE.finditer(text)
    )


def _host_matches(host: str, path: str, pattern: str) -> bool:
    want_host, _, want_path = pattern.partition("/")
    if host != want_host and not host.endswith("." + want_host):
        return False
    return not want_path or path.lstrip("/").startswith(want_path)


@dataclass
class _Capture:
    tag: str
    kind: str  # title, h1, action, jsonld, script
    attrs: dict[str, str]
    parts: list[str] = field(default_factory=list)
    size: int = 0

    def add(self, data: str) -> None:
        if self.size < _CAPTURE_MAX or self.kind in {"jsonld", "script"}:
            self.parts.append(data)
        self.size += len(data)

    def text(self) -> str:
        return "".join(self.parts)


class _Enough(Exception):
    """The page has more tags than are worth reading (`EVENTS_MAX`, `PARSE_CPU_SECONDS`)."""


def _without_svg(html: str) -> str:
    """The HTML without inline SVG drawings (thousands of path tags on some pages, and their
    own <title>s), found in one pass."""
    parts = []
    at = 0
    while (start := _SVG_OPEN.search(html, at)) is not None:
        end = _SVG_CLOSE.search(html, start.end())
        if end is None:
            break
        parts.append(html[at : start.start()])
        close = html.find(">", end.end())
        at = len(html) if close < 0 else close + 1
    parts.append(html[at:])
    return "".join(parts)


class _Auditor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: str | None = None
        self.meta_description: str | None = None
        self.h1: list[str] = []
        self.headings = 0
        self.actions: list[str] = []
        self.forms = 0
        self.form_fields = 0
        self.phone = False
        self.email = False
        self.types: list[str] = []
        self.open_graph = False
        self.viewport = False
        self.language: str | None = None
        self.images = 0
        self.images_without_alt = 0
        self.scripts = 0
        self.inline_script_bytes = 0
        self.urls: list[str] = []
        self.inline_code: list[str] = []
        self.inline_scanned = 0
        self.jsonld_read = 0
        self.text: list[str] = []  # visible text, searched for a phone and an address at the end
        self.text_kept = 0
        self.events = 0
        # html.parser before Python 3.13.4 rescans the rest of the page for each unclosed
        # '<' construct (quadratic on crafted input): the parse also stops after this much CPU.
        self.deadline = time.thread_time() + PARSE_CPU_SECONDS
        self._open: list[_Capture] = []
        self._skip_text = 0  # inside style, template, a non-executable script

    # Parsing

    def _count_event(self) -> None:
        self.events += 1
        if self.events > EVENTS_MAX or time.thread_time() > self.deadline:
            raise _Enough

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._count_event()
        a = {k.lower(): (v or "") for k, v in attrs}
        for key in ("src", "href", "data-src", "data-url", "action"):
            if a.get(key):
                self._url(a[key])
        if tag == "html" and self.language is None and a.get("lang", "").strip():
            self.language = clean(a["lang"], LANG_MAX)
        elif tag == "title" and self.title is None:
            self._start(tag, "title", a)
        elif tag == "meta":
            self._meta(a)
        elif tag in {"h1", "h2", "h3", "h4", "h5", "h6"}:
            self.headings += 1
            if tag == "h1":
                self._start(tag, "h1", a)
        elif tag == "a":
            self._close("a")
            self._start(tag, "action", a)
            href = a.get("href", "").strip().lower()
            if href.startswith("tel:") and _digits(href) >= 3:
                self.phone = True
            if href.startswith("mailto:") and "@" in href:
                self.email = True
        elif tag == "button" or a.get("role", "").lower() == "button":
            self._start(tag, "action", a)
        elif tag == "input":
            kind = a.get("type", "text").strip().lower()
            if kind in _BUTTON_INPUTS:
                self._action(a.get("value", "") or a.get("aria-label", ""), a, button=True)
            if kind not in _NOT_FIELDS:
                self.form_fields += 1
        elif tag in {"select", "textarea"}:
            self.form_fields += 1
        elif tag == "form":
            self.forms += 1
        elif tag == "img":
            self.images += 1
            if "alt" not in a:
                self.images_without_alt += 1
        elif tag == "script":
            kind = a.get("type", "").strip().lower()
            if kind == "application/ld+json":
                self._start(tag, "jsonld", a)
            elif kind in _EXECUTABLE:
                self.scripts += 1
                self._start(tag, "script", a)
            else:
                self._skip_text += 1
        elif tag in {"style", "template"}:
            self._skip_text += 1
        if a.get("itemtype"):
            for item in a["itemtype"].split()[:5]:
                self._type(item.rstrip("/").rsplit("/", 1)[-1])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in {"title", "h1", "a", "button", "script"} or any(
            k == "role" and (v or "").lower() == "button" for k, v in attrs
        ):
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in {"style", "template"} or (
            tag == "script" and not any(c.tag == "script" for c in self._open)
        ):
            self._skip_text = max(0, self._skip_text - 1)
        self._close(tag)

    def handle_data(self, data: str) -> None:
        self._count_event()
        if self._open:
            for capture in self._open:
                capture.add(data)
            if any(c.kind in {"jsonld", "script"} for c in self._open):
                return
        if not self._skip_text and self.text_kept < _TEXT_MAX:
            self.text_kept += len(data)
            self.text.append(data)

    def contact_in_text(self) -> None:
        """A phone number or an e-mail address in the visible text (pieces apart: NUL
        matches neither pattern, so no number is read across two elements)."""
        text = "\x00".join(self.text)
        if not self.phone and _has_phone(text):
            self.phone = True
        if not self.email and _EMAIL.search(text):
            self.email = True

    def close(self) -> None:
        super().close()
        self.finish_open()

    def finish_open(self) -> None:
        while self._open:
            self._finish(self._open.pop())

    # Captures

    def _start(self, tag: str, kind: str, attrs: dict[str, str]) -> None:
        if len(self._open) < 50:
            self._open.append(_Capture(tag, kind, attrs))

    def _close(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i].tag == tag:
                capture = self._open.pop(i)
                self._finish(capture)
                return

    def _finish(self, capture: _Capture) -> None:
        text = capture.text()
        if capture.kind == "title":
            self.title = clean(text) or None
        elif capture.kind == "h1":
            label = clean(text) or clean(capture.attrs.get("aria-label", ""))
            if label and len(self.h1) < LIST_MAX:
                self.h1.append(label)
        elif capture.kind == "action":
            label = clean(text, LABEL_MAX) or clean(capture.attrs.get("aria-label", ""), LABEL_MAX)
            self._action(label, capture.attrs, button=capture.tag != "a")
        elif capture.kind == "jsonld":
            self._jsonld(text)
        elif capture.kind == "script":
            size = len(text.encode("utf-8", "replace"))
            self.inline_script_bytes += size
            if self.inline_scanned < _INLINE_SCAN_MAX and text.strip():
                piece = text[: _INLINE_SCAN_MAX - self.inline_scanned]
                self.inline_scanned += len(piece)
                self.inline_code.append(piece)

    # Facts

    def _meta(self, a: dict[str, str]) -> None:
        name = a.get("name", "").strip().lower()
        prop = a.get("property", "").strip().lower()
        content = a.get("content", "")
        if name == "description" and self.meta_description is None:
            self.meta_description = clean(content) or None
        elif name == "viewport" and content.strip():
            self.viewport = True
        if prop.startswith("og:") or name.startswith("og:"):
            self.open_graph = True

    def _action(self, label: str, attrs: dict[str, str], *, button: bool) -> None:
        label = clean(label, LABEL_MAX)
        if not label or len(self.actions) >= LIST_MAX:
            return
        styled = _STYLED_AS_BUTTON.search(f"{attrs.get('class', '')} {attrs.get('id', '')}")
        named = _ACTION_WORDS.search(label)
        if button and _PAGE_CONTROLS.match(label.strip(" .!:")):
            return
        if not (button or styled or named):
            return
        if label.casefold() not in {known.casefold() for known in self.actions}:
            self.actions.append(label)

    def _url(self, url: str) -> None:
        if len(self.urls) < 5000:
            self.urls.append(url.strip()[:URL_MAX])

    def _type(self, name: object) -> None:
        if not isinstance(name, str):
            return
        name = clean(name.rsplit("/", 1)[-1], 100)
        if name and name not in self.types and len(self.types) < TYPES_MAX:
            self.types.append(name)

    def _jsonld(self, text: str) -> None:
        if self.jsonld_read + len(text) > _JSONLD_MAX:
            return
        self.jsonld_read += len(text)
        try:
            data = json.loads(text.strip().removeprefix("<!--").removesuffix("-->"))
        except (ValueError, RecursionError):
            return
        self._walk(data, 0)

    def _walk(self, data: object, depth: int) -> None:
        if depth > 6 or len(self.types) >= TYPES_MAX:
            return
        if isinstance(data, list):
            for item in data[:50]:
                self._walk(item, depth + 1)
        elif isinstance(data, dict):
            kind = data.get("@type")
            for name in kind[:5] if isinstance(kind, list) else [kind]:
                self._type(name)
            for key, value in list(data.items())[:50]:
                if key != "@type" and isinstance(value, dict | list):
                    self._walk(value, depth + 1)


def _services(urls: Iterable[str], code: Iterable[str], kind: Kind) -> list[str]:
    found: list[str] = []
    places: list[tuple[str, str]] = []
    for url in urls:
        try:
            parts = urlsplit(url if "//" in url else "")
        except ValueError:
            continue
        if parts.hostname:
            places.append((parts.hostname.lower().rstrip("."), parts.path))
        if kind == "analytics" and _MATOMO_FILE.search(url.lower()) and "Matomo" not in found:
            found.append("Matomo")
    inline = list(code)
    for text in inline:
        for match in _HOSTISH.finditer(text):
            places.append((match.group(1).lower().rstrip("."), match.group(2) or ""))
    for service in _SERVICES:
        if service.kind != kind or service.name in found:
            continue
        if any(_host_matches(h, p, pattern) for h, p in places for pattern in service.hosts) or (
            any(snippet in text for text in inline for snippet in service.snippets)
        ):
            found.append(service.name)
    return found


def audit_html(html: str, *, final_url: str, http_status: int) -> PageFactsOut:
    """The facts of one page. Never raises on any text; broken markup is read as far as it
    goes."""
    auditor = _Auditor()
    try:
        auditor.feed(_without_svg(html))
        auditor.close()
    except Exception:  # enough read, or a parser's surprise: keep what was read
        auditor.finish_open()
    auditor.contact_in_text()
    try:
        scheme = urlsplit(final_url).scheme.lower()
    except ValueError:
        scheme = ""
    return PageFactsOut(
        final_url=clean(final_url, URL_MAX),
        http_status=http_status,
        title=auditor.title,
        meta_description=auditor.meta_description,
        h1=auditor.h1,
        headings=auditor.headings,
        calls_to_action=auditor.actions,
        forms=auditor.forms,
        form_fields=auditor.form_fields,
        phone=auditor.phone,
        email=auditor.email,
        structured_data=auditor.types,
        open_graph=auditor.open_graph,
        viewport=auditor.viewport,
        language=auditor.language,
        images=auditor.images,
        images_without_alt=auditor.images_without_alt,
        scripts=auditor.scripts,
        script_kb=math.ceil(auditor.inline_script_bytes / 1024),
        booking_widgets=_services(auditor.urls, auditor.inline_code, "booking"),
        chat_widgets=_services(auditor.urls, auditor.inline_code, "chat"),
        analytics=_services(auditor.urls, auditor.inline_code, "analytics"),
        https=scheme == "https",
    )


async def audit_in_thread(html: str, *, final_url: str, http_status: int) -> PageFactsOut:
    """`audit_html` off the event loop: a large page takes a second or more of CPU (at most
    `PARSE_CPU_SECONDS`), which must not hold up the requests the same process serves."""
    return await asyncio.to_thread(audit_html, html, final_url=final_url, http_status=http_status)
