"""Text people send us: the pydantic types every request schema's strings use, the one
e-mail address rule, and the domain rules (one cleaning, and what each form accepts).

A string a request carries is `Line` (one line: names, addresses, keys), `Lines` (free text:
tab, newline and carriage return allowed) or `Secret` (a password: anything that can be
encoded). Each rejects what no database column should receive: NUL (PostgreSQL refuses it, so
it used to answer 500), other control characters, and lone surrogates (which no database can
encode). The length comes with the field (`Field(max_length=...)`), never longer than the
column the value is written to; `tests/test_schema_limits.py` holds every schema to both rules.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BaseModel, field_validator, model_validator

MSG_CONTROL = "Control characters are not allowed."
MSG_UNICODE = "The text is not valid Unicode."

EMAIL_MAX = 254  # RFC 5321's path limit, less the angle brackets
EMAIL_LOCAL_MAX = 64
DOMAIN_MAX = 253

_SURROGATE = re.compile(r"[\ud800-\udfff]")
# C0 controls, DEL and C1 controls (Unicode's Cc); a `Lines` value may hold tab, LF and CR.
_CONTROL_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _valid_unicode(value: str) -> str:
    if _SURROGATE.search(value):
        raise ValueError(MSG_UNICODE)
    return value


def _one_line(value: str) -> str:
    if _CONTROL_LINE.search(value):
        raise ValueError(MSG_CONTROL)
    return _valid_unicode(value)


def _free_text(value: str) -> str:
    if _CONTROL_LINES.search(value):
        raise ValueError(MSG_CONTROL)
    return _valid_unicode(value)


def _secret(value: str) -> str:
    if "\x00" in value:
        raise ValueError(MSG_CONTROL)
    return _valid_unicode(value)


Line = Annotated[str, AfterValidator(_one_line)]
"""One line of text: no control character at all."""

Lines = Annotated[str, AfterValidator(_free_text)]
"""Free text: tab, newline and carriage return allowed, no other control character."""

Secret = Annotated[str, AfterValidator(_secret)]
"""A password: never stored as sent (only its hash), so only NUL and what cannot be encoded
are refused."""


def is_line(value: str, max_length: int) -> bool:
    """Whether `value` passes as a `Line` of at most `max_length` characters (for what a route
    reads outside a schema, such as a query parameter)."""
    return (
        len(value) <= max_length
        and _CONTROL_LINE.search(value) is None
        and _SURROGATE.search(value) is None
    )


# An e-mail address: RFC 5322's dot-atom local part without the characters that mean something
# in a `mailto:` URL or an HTML attribute (? & # % < > " and quotes around the whole), and a
# host name of letter-digit-hyphen labels ending in a top-level domain.
_ATOM = r"[A-Za-z0-9!$'*+/=^_`{|}~-]+"
_LOCAL = re.compile(rf"{_ATOM}(?:\.{_ATOM})*")
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_TLD = re.compile(r"[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59}[A-Za-z0-9]")


def valid_host(host: str) -> bool:
    """A host name of at least two labels (letters, digits, inner hyphens; 63 at most each)
    whose last is a top-level domain (letters, or an `xn--` name), 253 characters at most."""
    labels = host.split(".")
    return (
        len(host) <= DOMAIN_MAX
        and len(labels) >= 2
        and all(_LABEL.fullmatch(label) for label in labels)
        and _TLD.fullmatch(labels[-1]) is not None
    )


def valid_email(email: str) -> bool:
    """The one e-mail rule: `local@host`, the local part dot-atoms of letters, digits and
    !$'*+/=^_`{|}~- (64 at most), the host as `valid_host`, 254 characters in all. What it
    accepts holds no space, control, quote, angle bracket, ? & # or %, so it is safe as a mail
    header and as a `mailto:` target."""
    if len(email) > EMAIL_MAX or email.count("@") != 1:
        return False
    local, host = email.split("@")
    return (
        len(local) <= EMAIL_LOCAL_MAX and _LOCAL.fullmatch(local) is not None and valid_host(host)
    )


# ---------------------------------------------------------------------------------------------
# Domains people type. The forms clean what was typed the same way (`strip_scheme`,
# `bare_domain`) and then hold it to the rule they need: `single_label_domain` (one name and a
# top-level part), `valid_host` (any host name) or `bare_host` (an address cleaned down to its
# host). webui/src/lib/domains.ts is the client's copy; both run the cases in
# webui/test/fixtures/domain-cases.json (tests/test_rule_cases.py, domains.test.ts).

_SCHEME = re.compile(r"^https?://", re.IGNORECASE)
_WWW = re.compile(r"^www\.", re.IGNORECASE)
_ANY_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://")
# A name of 3 to 63 letters, digits or hyphens, starting and ending with a letter or digit, a
# dot, a top-level part of 2 to 63 letters. One label and one top-level part, nothing else.
_SINGLE_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{1,61}[A-Za-z0-9]\.[A-Za-z]{2,63}")
_LOWER_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_BARE_HOST = re.compile(rf"^(?:{_LOWER_LABEL}\.)+[a-z]{{2,63}}$")


def strip_scheme(raw: str) -> str:
    """The value trimmed and a leading http(s):// (any case) removed."""
    return _SCHEME.sub("", raw.strip())


def bare_domain(raw: str) -> str:
    """`strip_scheme`, then a leading www. (any case) and one trailing slash removed; the case
    is kept."""
    value = _WWW.sub("", strip_scheme(raw))
    return value[:-1] if value.endswith("/") else value


def single_label_domain(value: str) -> bool:
    """One name of 3 to 63 letters, digits or inner hyphens, a dot and a top-level part of 2
    to 63 letters: no subdomain, port, path or trailing dot."""
    return _SINGLE_LABEL.fullmatch(value) is not None


def bare_host(raw: str) -> str | None:
    """The host of an address however typed: lower-cased, any scheme, the path, query,
    fragment, trailing dots and one leading www. removed; None unless what is left is labels
    and a top-level part of 2 to 63 letters, 253 characters at most."""
    value = _ANY_SCHEME.sub("", raw.strip().lower())
    value = value.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rstrip(".")
    value = value.removeprefix("www.")
    if len(value) > DOMAIN_MAX or not _BARE_HOST.match(value):
        return None
    return value


class QueryArgs(BaseModel):
    """A query string's arguments, for quart-schema's `validate_querystring`, read as
    `request.args.get` reads them: a key given more than once counts by its first value, an
    empty value is none, and a key that is no field is ignored (`page[]` too: quart-schema
    hands it over as `page`, a list of one)."""

    @model_validator(mode="before")
    @classmethod
    def _first_values(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        first = {}
        for key, value in data.items():
            if isinstance(value, list):
                if len(value) < 2:
                    continue  # `key[]=...`: not the key itself
                value = value[0]
            first[key] = value if value != "" else None
        return first


class ListQuery(QueryArgs):
    """A list's filters: `status`, where anything but one line of 16 characters at most reads
    as `?` (which the list's service refuses with its own message), and `q`, a search of one
    line of `SEARCH_MAX` characters at most (`MSG_SEARCH` otherwise). A list's own query
    names the two fields again with their descriptions."""

    SEARCH_MAX: ClassVar[int] = 100
    MSG_SEARCH: ClassVar[str] = "The search may have at most 100 characters, on one line."
    STATUS_MAX: ClassVar[int] = 16

    status: Line | None = None
    q: Line | None = None

    @field_validator("q", mode="before")
    @classmethod
    def _search(cls, value: object) -> object:
        if isinstance(value, str) and not is_line(value, cls.SEARCH_MAX):
            raise ValueError(cls.MSG_SEARCH)
        return value

    @field_validator("status", mode="before")
    @classmethod
    def _status(cls, value: object) -> object:
        if isinstance(value, str) and not is_line(value, cls.STATUS_MAX):
            return "?"
        return value
