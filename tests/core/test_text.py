"""Property tests of the kernel's text rules: the one e-mail rule and the
types every request schema's strings use."""

from __future__ import annotations

import string
from email.headerregistry import Address
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError

from agency.core.text import MSG_CONTROL, Line, Lines, Secret, valid_email, valid_host

ATEXT = string.ascii_letters + string.digits + "!$'*+/=^_`{|}~-"
LDH = string.ascii_letters + string.digits + "-"
FORBIDDEN = set('?&#%<>"() ,;:[]\\@') | {chr(c) for c in range(0x20)} | {"\x7f"}

atoms = st.text(ATEXT, min_size=1, max_size=12)
locals_ = st.lists(atoms, min_size=1, max_size=4).map(".".join).filter(lambda s: len(s) <= 64)
labels = st.text(LDH, min_size=1, max_size=20).filter(
    lambda s: not s.startswith("-") and not s.endswith("-")
)
tlds = st.text(string.ascii_letters, min_size=2, max_size=10)
hosts = st.builds(
    lambda names, tld: ".".join([*names, tld]), st.lists(labels, min_size=1, max_size=4), tlds
)
good_emails = st.builds(lambda local, host: f"{local}@{host}", locals_, hosts)

# Anything near an address: valid ones with a character of any kind put somewhere, RFC 5322
# addresses (whose local parts may hold ? & # %), and plain text.
tampered = st.builds(
    lambda email, char, at: email[:at] + char + email[at:],
    good_emails,
    st.characters(codec="utf-8") | st.sampled_from(sorted(FORBIDDEN)),
    st.integers(min_value=0, max_value=80),
)
candidates = tampered | st.emails() | st.text(max_size=80) | good_emails


@given(good_emails)
def test_every_address_built_from_valid_parts_is_accepted(email: str) -> None:
    assert valid_email(email) == (len(email) <= 254)


@given(candidates)
@example("x@e.com?cc=attacker@evil.example&body=hi")
@example("ada@example.com\r\nBcc: all@evil.example")
@example('"ada lovelace"@example.com')
@example("<ada@example.com>")
def test_every_accepted_address_is_a_safe_header_and_mailto_target(email: str) -> None:
    if not valid_email(email):
        return
    assert not set(email) & FORBIDDEN - {"@"} and email.count("@") == 1, email
    assert not any(ch.isspace() for ch in email)
    assert email.isascii() and email.isprintable()
    assert len(email) <= 254 and len(email.split("@")[0]) <= 64
    link = urlsplit("mailto:" + email)
    assert (link.scheme, unquote(link.path), link.query, link.fragment) == ("mailto", email, "", "")
    assert parse_qs(link.query) == {}
    address = Address(addr_spec=email)
    assert address.addr_spec == email and not address.display_name


@pytest.mark.parametrize(
    "email",
    [
        "x@e.com?cc=attacker@evil.example&body=hi",
        "ada@example.com\r\n",
        "ada lovelace@example.com",
        "ada@@example.com",
        ".ada@example.com",
        "ada.@example.com",
        "ada..l@example.com",
        "ada@example",
        "ada@-example.com",
        "ada@example-.com",
        "ada@example.c",
        "ada@example.c0m",
        "ada@exa_mple.com",
        "a" * 65 + "@example.com",
        "a@" + "b" * 64 + ".com",
        "a@" + ("b" * 63 + ".") * 4 + "com",
        "ada#1@example.com",
        "ada%example.org@example.com",
        "ådå@example.com",
    ],
)
def test_addresses_the_rule_refuses(email: str) -> None:
    assert not valid_email(email)


@pytest.mark.parametrize(
    "email",
    [
        "ada@example.com",
        "ada.lovelace+news@mail.example.co.uk",
        "o'brien@example.ie",
        "x@xn--80ak6aa92e.xn--p1ai",
        "a" * 64 + "@" + ("b" * 63 + ".") * 2 + "c" * 57 + ".com",  # 254 in all
    ],
)
def test_addresses_the_rule_accepts(email: str) -> None:
    assert valid_email(email) and len(email) <= 254


@given(hosts)
def test_hosts_built_from_valid_labels_are_valid(host: str) -> None:
    assert valid_host(host) == (len(host) <= 253)


class Sample(BaseModel):
    line: Line = Field(default="", max_length=50)
    lines: Lines = Field(default="", max_length=50)
    secret: Secret = Field(default="", max_length=50)


CONTROLS = [chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7F, 0xA0)]


@given(st.text(max_size=50))
def test_text_types_keep_what_they_accept_unchanged(text: str) -> None:
    for field in ("line", "lines", "secret"):
        try:
            sample = Sample.model_validate({field: text})
        except ValidationError:
            continue
        assert getattr(sample, field) == text


@given(st.text(max_size=20), st.sampled_from(CONTROLS), st.text(max_size=20))
def test_a_control_character_is_refused_where_it_does_not_belong(
    before: str, control: str, after: str
) -> None:
    text = before + control + after
    with pytest.raises(ValidationError) as line_error:
        Sample(line=text)
    assert MSG_CONTROL in str(line_error.value) or "Unicode" in str(line_error.value)
    try:
        Sample(lines=text)
        accepted = True
    except ValidationError:
        accepted = False
    others_clean = not any(c in CONTROLS and c not in "\t\n\r" for c in before + after)
    assert accepted == (control in "\t\n\r" and others_clean)


@pytest.mark.parametrize("field", ["line", "lines", "secret"])
@pytest.mark.parametrize("bad", ["\x00", "a\ud800", "\udfffz"])
def test_nul_and_lone_surrogates_are_refused_everywhere(field: str, bad: str) -> None:
    with pytest.raises(ValidationError):
        Sample.model_validate({field: bad})
