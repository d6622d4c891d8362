"""Properties of what error reports keep (`agency.core.error_reports.scrub_event`) and of the
DSN rule (`agency.core.dsn.parse_dsn`)."""

from __future__ import annotations

import json
import string
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sentry_sdk.utils import BadDsn as SdkBadDsn
from sentry_sdk.utils import Dsn as SdkDsn

from agency.core.dsn import BadDsn, parse_dsn
from agency.core.error_reports import scrub_event, scrub_text

# Text around what must go: any characters, among them the ones that join a token or an
# address (letters, digits, dots, dashes, @, =, :, /).
noise = st.text(
    alphabet=st.one_of(
        st.sampled_from(string.ascii_letters + string.digits + " .-_@=:/;,'\"\n\t"),
        st.characters(codec="utf-8"),
    ),
    max_size=40,
)
tokens = st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=24, max_size=64)
tokens = tokens.filter(lambda t: any(c.isdigit() for c in t) and any(c.isalpha() for c in t))
passwords = st.text(alphabet=string.ascii_letters + string.digits + "!$%^*()~ ", min_size=6)
passwords = passwords.filter(lambda p: p.strip() == p and len(p.strip()) >= 6)
secret_names = st.sampled_from(["password", "token", "api_key", "secret", "Authorization"])


@given(before=noise, address=st.emails(), after=noise)
def test_no_email_address_survives(before: str, address: str, after: str) -> None:
    assume(address not in before + after)  # what the noise holds by chance is not the point
    scrubbed = scrub_text(f"{before} {address} {after}")
    assert address not in scrubbed


@given(before=noise, token=tokens, after=noise)
def test_no_long_token_survives(before: str, token: str, after: str) -> None:
    assume(token not in before + after)
    assert token not in scrub_text(f"{before} {token} {after}")


@given(before=noise, user=st.from_regex(r"[a-z]{1,10}", fullmatch=True), password=passwords)
def test_no_password_in_a_url_survives(before: str, user: str, password: str) -> None:
    assume(password not in before)
    scrubbed = scrub_text(f"{before} postgres://{user}:{password}@db.internal:5432/agency")
    assert password not in scrubbed
    assert "db.internal:5432/agency" in scrubbed  # where it points stays readable


@given(name=secret_names, separator=st.sampled_from(["=", ": ", " = "]), value=tokens | passwords)
def test_no_secret_pair_value_survives(name: str, separator: str, value: str) -> None:
    value = value.split(" ")[0] if len(value.split(" ")[0]) >= 6 else value.replace(" ", "")
    assert value not in scrub_text(f"failed with {name}{separator}{value} today")


@given(text=noise)
def test_scrubbing_is_idempotent_and_plain_text_is_left_alone(text: str) -> None:
    once = scrub_text(text)
    assert scrub_text(once) == once
    plain = "".join(c for c in text if c.isalpha() or c == " ")[:20]
    assert scrub_text(plain) == plain


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@settings(max_examples=200)
@given(
    extra=st.dictionaries(st.text(max_size=12), json_values, max_size=6),
    address=st.emails(),
    token=tokens,
)
def test_an_event_keeps_only_allowed_parts_and_no_address_or_token(
    extra: dict[str, Any], address: str, token: str
) -> None:
    event: dict[str, Any] = {
        **extra,
        "event_id": "0" * 32,
        "request": {"cookies": {"session": token}, "headers": {"Cookie": token}, "data": address},
        "user": {"email": address, "ip_address": "10.0.0.1"},
        "server_name": "db-host-1",
        "breadcrumbs": {"values": [{"message": address}]},
        "extra": {"sys.argv": ["agency", address]},
        "modules": {"agency": "1"},
        "tags": {"request_id": "f" * 32, "route": f"/api/x?{address}"},
        "contexts": {"trace": {"trace_id": "1" * 32, "data": address}, "custom": {"a": token}},
        "exception": {
            "values": [
                {
                    "type": "ValueError",
                    "value": f"bad {address} {token}",
                    "stacktrace": {
                        "frames": [{"function": "f", "lineno": 1, "vars": {"password": token}}]
                    },
                }
            ]
        },
    }
    scrubbed = scrub_event(event)
    sent = json.dumps(scrubbed)
    assert address not in sent
    assert token not in sent
    for gone in ("request", "user", "server_name", "breadcrumbs", "extra", "modules"):
        assert gone not in scrubbed
    assert set(scrubbed) <= {*extra, "event_id", "tags", "contexts", "exception"} | {
        "timestamp",
        "platform",
        "level",
        "logger",
        "transaction",
        "release",
        "environment",
        "dist",
        "threads",
        "message",
        "logentry",
        "fingerprint",
        "sdk",
        "type",
    }
    assert scrubbed["event_id"] == "0" * 32
    assert scrubbed["tags"]["request_id"] == "f" * 32
    assert scrubbed["contexts"] == {"trace": {"trace_id": "1" * 32}}
    assert "vars" not in sent
    assert scrubbed["exception"]["values"][0]["value"] == "bad [email] [token]"


def test_something_that_is_no_event_is_dropped() -> None:
    assert scrub_event(["not", "an", "event"]) is None


hosts = st.from_regex(r"[a-z][a-z0-9-]{0,20}(\.[a-z][a-z0-9-]{0,10}){0,3}", fullmatch=True)


@given(
    scheme=st.sampled_from(["http", "https"]),
    key=st.from_regex(r"[0-9a-f]{8,40}", fullmatch=True),
    host=hosts,
    port=st.none() | st.integers(1, 65535),
    prefix=st.sampled_from(["", "/sentry", "/a/b"]),
    project=st.integers(1, 10**9),
)
def test_a_dsn_the_rule_accepts_is_read_as_the_sdk_reads_it(
    scheme: str, key: str, host: str, port: int | None, prefix: str, project: int
) -> None:
    netloc = host if port is None else f"{host}:{port}"
    value = f"{scheme}://{key}@{netloc}{prefix}/{project}"
    ours, sdk = parse_dsn(value), SdkDsn(value)
    assert (ours.scheme, ours.host, ours.port) == (sdk.scheme, sdk.host, sdk.port)
    assert (ours.public_key, ours.project_id) == (sdk.public_key, sdk.project_id)
    theirs = urlsplit(str(sdk.to_auth().get_api_url()))
    mine = urlsplit(ours.envelope_url)
    assert (mine.hostname, mine.port, mine.path) == (theirs.hostname, sdk.port, theirs.path)


@given(st.text(max_size=80))
def test_whatever_the_rule_accepts_the_sdk_accepts(value: str) -> None:
    try:
        ours = parse_dsn(value)
    except BadDsn:
        return
    try:
        sdk = SdkDsn(value.strip())
    except SdkBadDsn as exc:  # pragma: no cover - the property failing
        pytest.fail(f"accepted {value!r}, which the SDK refuses: {exc}")
    assert ours.public_key == sdk.public_key
    assert ours.project_id == sdk.project_id


@pytest.mark.parametrize(
    "value",
    ["", "ftp://k@h/1", "https://h/1", "https://k@/1", "https://k@h/", "https://k@h/x", "k@h/1"],
)
def test_a_dsn_without_its_parts_is_refused(value: str) -> None:
    with pytest.raises(BadDsn):
        parse_dsn(value)
