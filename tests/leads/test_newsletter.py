"""The Kit (ConvertKit) newsletter client against the fake Kit, a real HTTP server on loopback:
v3 and v4, each error path, and Kit not configured."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.modules.leads.service import newsletter
from agency.modules.leads.service.newsletter import (
    MAX_MESSAGE,
    MSG_FAILED,
    MSG_UNREACHABLE,
    PREFIX,
    NewsletterFailed,
    kit_error_message,
    subscribe,
)
from agency.settings import Settings
from tests.conftest import free_port
from tests.fakes.kit import FIXTURES, FakeKit, run_fake_kit


@pytest.fixture(scope="module")
def kit() -> Iterator[FakeKit]:
    with run_fake_kit() as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh(kit: FakeKit) -> None:
    kit.reset()


def kit_settings(kit: FakeKit, version: str = "v3", **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "kit_api_base": kit.base_url,
        "kit_api_key": kit.api_key,
        "kit_form_id": kit.form_id,
        "kit_api_version": version,
        **overrides,
    }
    return Settings(**values)


async def test_v3_subscribes_with_the_key_in_the_body(kit: FakeKit) -> None:
    await subscribe(kit_settings(kit, "v3"), "ada@example.com")
    assert [(c.method, c.path) for c in kit.requests] == [
        ("POST", f"/v3/forms/{kit.form_id}/subscribe")
    ]
    assert kit.requests[0].body == {"api_key": kit.api_key, "email": "ada@example.com"}
    assert kit.requests[0].api_key_header is None
    assert kit.on_form("ada@example.com")


async def test_v4_creates_an_inactive_subscriber_then_adds_it_to_the_form(kit: FakeKit) -> None:
    await subscribe(kit_settings(kit, "v4"), "grace@example.com")
    assert [(c.method, c.path) for c in kit.requests] == [
        ("POST", "/v4/subscribers"),
        ("POST", f"/v4/forms/{kit.form_id}/subscribers"),
    ]
    assert kit.requests[0].body == {"email_address": "grace@example.com", "state": "inactive"}
    assert kit.requests[1].body == {"email_address": "grace@example.com"}
    assert {c.api_key_header for c in kit.requests} == {kit.api_key}
    assert kit.on_form("grace@example.com")
    assert kit.subscribers["grace@example.com"].state == "inactive"
    # Subscribing again (Kit answers 200 for both calls) is no error.
    await subscribe(kit_settings(kit, "v4"), "grace@example.com")
    assert len(kit.requests) == 4


@pytest.mark.parametrize("missing", ["kit_api_key", "kit_form_id"])
@pytest.mark.parametrize("version", ["v3", "v4"])
async def test_without_kit_configured_nothing_is_sent(
    kit: FakeKit, missing: str, version: str
) -> None:
    assert not newsletter.kit_configured(kit_settings(kit, version, **{missing: ""}))
    await subscribe(kit_settings(kit, version, **{missing: ""}), "ada@example.com")
    assert kit.requests == []
    assert newsletter.kit_configured(kit_settings(kit, version))


async def test_v3_wrong_key_is_kits_recorded_401_message(kit: FakeKit) -> None:
    recorded = json.loads((FIXTURES / "v3-error-401-authorization-failed.example.json").read_text())
    with pytest.raises(NewsletterFailed) as failed:
        await subscribe(kit_settings(kit, "v3", kit_api_key="wrong"), "ada@example.com")
    assert failed.value.message == PREFIX + recorded["message"]
    assert failed.value.message == "Error subscribing to ConvertKit: API Key not present"
    assert str(failed.value) == failed.value.message
    assert not kit.on_form("ada@example.com")


async def test_v4_wrong_key_is_kits_401_errors(kit: FakeKit) -> None:
    with pytest.raises(NewsletterFailed) as failed:
        await subscribe(kit_settings(kit, "v4", kit_api_key="wrong"), "ada@example.com")
    assert failed.value.message == "Error subscribing to ConvertKit: The access token is invalid"
    assert len(kit.requests) == 1  # the form call is not made


async def test_unknown_form(kit: FakeKit) -> None:
    with pytest.raises(NewsletterFailed) as v3:
        await subscribe(kit_settings(kit, "v3", kit_form_id="999"), "ada@example.com")
    assert v3.value.message == PREFIX + "The entity you were trying to find doesn't exist"
    with pytest.raises(NewsletterFailed) as v4:
        await subscribe(kit_settings(kit, "v4", kit_form_id="999"), "ada@example.com")
    assert v4.value.message == PREFIX + "Not Found"


@pytest.mark.parametrize("version", ["v3", "v4"])
async def test_kit_rate_limit_and_server_errors(kit: FakeKit, version: str) -> None:
    kit.fail_next(429, {"error": "Too Many Requests", "message": "Rate limit exceeded"})
    with pytest.raises(NewsletterFailed) as limited:
        await subscribe(kit_settings(kit, version), "ada@example.com")
    assert limited.value.message == PREFIX + "Rate limit exceeded"
    # A 500 with an HTML page: nothing to show but the spec's own failure text.
    kit.fail_next(500, "<html><body>We're sorry, but something went wrong.</body></html>")
    with pytest.raises(NewsletterFailed) as broken:
        await subscribe(kit_settings(kit, version), "ada@example.com")
    assert broken.value.message == PREFIX + MSG_FAILED
    assert broken.value.message == (
        "Error subscribing to ConvertKit: Failed to subscribe to email list."
    )


async def test_v4_failure_on_the_form_call(kit: FakeKit) -> None:
    form_path = f"/v4/forms/{kit.form_id}/subscribers"
    kit.fail_next(422, {"errors": ["Form is archived", "Try  another\nform"]}, path=form_path)
    with pytest.raises(NewsletterFailed) as failed:
        await subscribe(kit_settings(kit, "v4"), "second@example.com")
    assert failed.value.message == PREFIX + "Form is archived; Try another form"
    assert [c.path for c in kit.requests] == ["/v4/subscribers", form_path]
    assert "second@example.com" in kit.subscribers
    assert not kit.on_form("second@example.com")


async def test_kit_not_answering(kit: FakeKit, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(newsletter, "TIMEOUT", 0.3)
    kit.delay = 1.5
    with pytest.raises(NewsletterFailed) as slow:
        await subscribe(kit_settings(kit, "v3"), "ada@example.com")
    assert slow.value.message == PREFIX + MSG_UNREACHABLE
    closed = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(NewsletterFailed) as refused:
        await subscribe(kit_settings(kit, "v4", kit_api_base=closed), "ada@example.com")
    assert refused.value.message == PREFIX + MSG_UNREACHABLE


def test_official_addresses_by_version() -> None:
    assert newsletter.OFFICIAL_BASE == {
        "v3": "https://api.convertkit.com",
        "v4": "https://api.kit.com",
    }


# ------------------------------------------------------------------------ the message reader

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
KIT_KEYS = st.sampled_from(["error", "message", "errors"])


@given(
    st.one_of(
        JSON, st.dictionaries(KIT_KEYS, JSON, max_size=3), st.dictionaries(KIT_KEYS, st.text())
    )
)
def test_error_reader_never_fails_and_always_has_words(body: Any) -> None:
    message = kit_error_message(body)
    assert isinstance(message, str)
    assert message.strip()
    assert len(message) <= MAX_MESSAGE
    assert "\n" not in message


WORDS = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1).filter(
    lambda s: s.strip()
)


@given(st.lists(WORDS, min_size=1, max_size=4))
def test_error_reader_joins_v4_errors(errors: list[str]) -> None:
    joined = "; ".join(" ".join(e.split()) for e in errors)
    message = kit_error_message({"errors": errors})
    if len(joined) <= MAX_MESSAGE:
        assert message == joined
    else:
        assert message.endswith("…") and joined.startswith(message[:-1])


@given(WORDS, st.one_of(st.none(), WORDS))
def test_error_reader_prefers_v3_message_over_error(error: str, message: str | None) -> None:
    body: dict[str, Any] = {"error": error}
    if message is not None:
        body["message"] = message
    expected = " ".join((message or error).split())
    assert kit_error_message(body) == expected[:MAX_MESSAGE] or len(expected) > MAX_MESSAGE
