"""net.ai through the real openai SDK, over HTTP, against the fake OpenAI-compatible server:
every outcome the callers must tell apart, and the parser's properties."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion

from agency.core.settings import SettingsError
from agency.net import ai
from agency.net.ai import MSG_NOT_CONFIGURED, AIError, complete_json
from agency.settings import Settings, load_settings
from tests.fakes.openai_server import (
    DEFAULT_API_KEY,
    INVALID_KEY,
    NEEDS_JSON_WORD,
    FakeOpenAI,
    Outcome,
    run_fake_openai,
)

SYSTEM = "You are a helpful assistant. Answer in JSON."
USER = "Give me an object."


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with run_fake_openai() as server:
        yield server


@pytest.fixture(autouse=True)
def fresh(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "BACKOFF_FIRST", 0.01)
    if "fake" in request.fixturenames:
        server: FakeOpenAI = request.getfixturevalue("fake")
        server.reset()


def settings_for(fake: FakeOpenAI, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "ai_api_key": DEFAULT_API_KEY,
        "ai_base_url": fake.api_base,
        "ai_timeout": 5.0,
        "ai_max_retries": 2,
    }
    values.update(overrides)
    return Settings(**values)


async def failure(settings: Settings, **kwargs: Any) -> AIError:
    with pytest.raises(AIError) as caught:
        await complete_json(settings, system=kwargs.get("system", SYSTEM), user=USER)
    return caught.value


# --- Success --------------------------------------------------------------------------------


async def test_answer_is_the_handlers_json_object(fake: FakeOpenAI) -> None:
    fake.handler = lambda messages, model: {"model": model, "said": messages[-1]["content"]}
    settings = settings_for(fake, ai_model="gpt-4o-mini")

    answer = await complete_json(settings, system=SYSTEM, user=USER, max_tokens=321)

    assert answer == {"model": "gpt-4o-mini", "said": USER}
    [call] = fake.requests
    assert call.model == "gpt-4o-mini"
    assert call.response_format == {"type": "json_object"}
    assert call.key == DEFAULT_API_KEY
    assert call.max_tokens == 321
    assert [m["role"] for m in call.messages] == ["system", "user"]
    assert call.messages[0]["content"] == SYSTEM


async def test_the_word_json_is_added_when_the_prompt_lacks_it(fake: FakeOpenAI) -> None:
    answer = await complete_json(settings_for(fake), system="Be brief.", user="Hello.")

    assert answer["answer"] == "ok"
    [call] = fake.requests
    assert "json" in call.text().lower()
    assert call.messages[1]["content"] == "Hello."


async def test_a_partial_object_is_returned_as_it_is(fake: FakeOpenAI) -> None:
    # Missing fields are the caller's to default; net.ai only insists on an object.
    fake.push(Outcome.json_answer({"title": "Only a title"}))
    assert await complete_json(settings_for(fake), system=SYSTEM, user=USER) == {
        "title": "Only a title"
    }


async def test_model_name_and_configured() -> None:
    assert not ai.configured(Settings())
    assert ai.configured(Settings(ai_api_key="sk-x"))
    assert ai.model_name(Settings(ai_model="llama3.1")) == "llama3.1"


# --- Not configured and refusals ------------------------------------------------------------


async def test_without_a_key_nothing_is_sent(fake: FakeOpenAI) -> None:
    error = await failure(settings_for(fake, ai_api_key=""))
    assert error.kind == "not_configured"
    assert error.message == MSG_NOT_CONFIGURED == "AI is not configured"
    assert not error.retryable
    assert fake.requests == []


async def test_a_wrong_key_is_auth_and_not_retried(fake: FakeOpenAI) -> None:
    key = "sk-wrong-key-0123456789"
    error = await failure(settings_for(fake, ai_api_key=key))
    assert error.kind == "auth"
    assert error.status == 401
    assert error.message == "The AI provider refused the key (401)."
    assert not error.retryable
    assert key not in str(error) and key not in repr(error)
    assert len(fake.requests) == 1


async def test_403_is_auth(fake: FakeOpenAI) -> None:
    body = {"error": {"message": "Project does not have access", "type": "x", "code": None}}
    fake.push(Outcome.status_code(403, body))
    error = await failure(settings_for(fake))
    assert (error.kind, error.status) == ("auth", 403)
    assert error.message == "The AI provider refused the key (403)."


async def test_used_up_quota_is_not_retried(fake: FakeOpenAI) -> None:
    fake.push(Outcome.quota(), Outcome.quota(), Outcome.quota())
    error = await failure(settings_for(fake))
    assert error.kind == "quota"
    assert not error.retryable
    assert "quota" in error.message and "429" in error.message
    assert len(fake.requests) == 1


async def test_rate_limit_is_retried_until_it_passes(fake: FakeOpenAI) -> None:
    fake.push(Outcome.rate_limited(), Outcome.rate_limited(retry_after=0.05))
    fake.handler = lambda messages, model: {"ok": True}
    assert await complete_json(settings_for(fake), system=SYSTEM, user=USER) == {"ok": True}
    assert len(fake.requests) == 3


async def test_rate_limit_past_the_retries(fake: FakeOpenAI) -> None:
    fake.push(*[Outcome.rate_limited()] * 3)
    error = await failure(settings_for(fake, ai_max_retries=1))
    assert error.kind == "rate_limited"
    assert error.retryable
    assert error.message == (
        "The AI provider is limiting requests (429). Please try again in a minute."
    )
    assert len(fake.requests) == 2


async def test_server_errors_are_retried_then_reported(fake: FakeOpenAI) -> None:
    fake.push(Outcome.server_error(), Outcome.server_error(502), Outcome.server_error(503))
    error = await failure(settings_for(fake, ai_max_retries=2))
    assert (error.kind, error.status) == ("server", 503)
    assert error.retryable
    assert error.message == "The AI provider failed (503). Please try again later."
    assert len(fake.requests) == 3

    fake.requests.clear()
    fake.push(Outcome.server_error())
    assert await complete_json(settings_for(fake), system=SYSTEM, user=USER)
    assert len(fake.requests) == 2


async def test_no_retries_when_set_to_zero(fake: FakeOpenAI) -> None:
    fake.push(Outcome.server_error())
    error = await failure(settings_for(fake, ai_max_retries=0))
    assert error.kind == "server"
    assert len(fake.requests) == 1


async def test_a_slow_answer_times_out(fake: FakeOpenAI) -> None:
    fake.push(Outcome.slow(3.0))
    started = time.monotonic()
    error = await failure(settings_for(fake, ai_timeout=0.5, ai_max_retries=0))
    assert time.monotonic() - started < 2.5
    assert error.kind == "timeout"
    assert error.retryable
    assert error.message == "The AI provider did not answer within 0.5 seconds."


async def test_a_slow_answer_then_a_quick_one_passes_on_retry(fake: FakeOpenAI) -> None:
    fake.push(Outcome.slow(3.0))
    answer = await complete_json(
        settings_for(fake, ai_timeout=0.5, ai_max_retries=1), system=SYSTEM, user=USER
    )
    assert answer["answer"] == "ok"
    assert len(fake.requests) == 2


async def test_nobody_listening_is_a_connection_failure() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings = Settings(
        ai_api_key="sk-x", ai_base_url=f"http://127.0.0.1:{port}/v1", ai_max_retries=1
    )
    error = await failure(settings)
    assert error.kind == "connection"
    assert error.retryable
    assert error.message == "Could not connect to the AI provider at 127.0.0.1."


async def test_an_unknown_model_is_a_bad_request_with_the_providers_words(
    fake: FakeOpenAI,
) -> None:
    body = {
        "error": {
            "message": "The model `gpt-9` does not exist or you do not have access to it.",
            "type": "invalid_request_error",
            "param": None,
            "code": "model_not_found",
        }
    }
    fake.push(Outcome.status_code(404, body))
    error = await failure(settings_for(fake))
    assert (error.kind, error.status, error.retryable) == ("bad_request", 404, False)
    assert error.message == (
        "The AI provider refused the request (404): "
        "The model `gpt-9` does not exist or you do not have access to it."
    )
    assert len(fake.requests) == 1


async def test_the_key_never_appears_in_a_providers_message(fake: FakeOpenAI) -> None:
    key = DEFAULT_API_KEY
    body = {"error": {"message": f"Bad key {key} here", "type": "x", "code": None}}
    fake.push(Outcome.status_code(400, body))
    error = await failure(settings_for(fake))
    assert error.kind == "bad_request"
    assert key not in error.message
    assert "***" in error.message


# --- Bad answers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        (Outcome.text("Sure! Here is your JSON: {oops"), "The AI's answer was not valid JSON."),
        (Outcome.text('{"ideas": [{"title": "Half'), "The AI's answer was not valid JSON."),
        (Outcome.text('["a", "list"]'), "The AI's answer was not a JSON object."),
        (Outcome.text("   "), "The AI's answer was empty."),
        (Outcome.truncated(), "The AI's answer was cut off (it reached the length limit)."),
        (Outcome.truncated('{"complete": true}'), "The AI's answer was cut off"),
        (Outcome.refused("I can't help with that."), "The AI declined to answer"),
        (
            Outcome.status_code(200, b"<html><body>Bad gateway</body></html>"),
            "The AI provider's answer could not be read.",
        ),
        (
            Outcome.status_code(200, b"<html>", **{"content-type": "text/html"}),
            "The AI provider's answer could not be read.",
        ),
        (Outcome.status_code(200, {"no": "choices"}), "The AI provider's answer could not be"),
    ],
)
async def test_bad_answers(fake: FakeOpenAI, outcome: Outcome, message: str) -> None:
    fake.push(outcome)
    error = await failure(settings_for(fake))
    assert error.kind == "bad_answer"
    assert not error.retryable
    assert error.message.startswith(message)
    assert len(fake.requests) == 1


# --- The fake answers like the real service -------------------------------------------------


def test_fake_refuses_json_mode_without_the_word_json(fake: FakeOpenAI) -> None:
    body = {
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": "Hello"}],
        "response_format": {"type": "json_object"},
    }
    headers = {"Authorization": f"Bearer {DEFAULT_API_KEY}"}
    answer = httpx.post(fake.base_url + "/v1/chat/completions", json=body, headers=headers)
    assert answer.status_code == 400
    assert answer.content == NEEDS_JSON_WORD
    assert answer.json()["error"]["param"] == "messages"


def test_fake_answers_the_recorded_401_and_the_success_shape(fake: FakeOpenAI) -> None:
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "json please"}]}
    refused = httpx.post(fake.base_url + "/v1/chat/completions", json=body)
    assert refused.status_code == 401
    assert refused.content == INVALID_KEY

    headers = {"Authorization": f"Bearer {DEFAULT_API_KEY}"}
    answer = httpx.post(fake.base_url + "/v1/chat/completions", json=body, headers=headers)
    assert answer.status_code == 200
    data = answer.json()
    assert data["object"] == "chat.completion"
    assert data["id"].startswith("chatcmpl-")
    assert set(data) >= {"id", "object", "created", "model", "choices", "usage"}
    assert data["system_fingerprint"]
    choice = data["choices"][0]
    assert choice["finish_reason"] == "stop"
    assert choice["message"]["role"] == "assistant"
    assert json.loads(choice["message"]["content"]) == {"answer": "ok", "model": "gpt-4o-mini"}
    ChatCompletion.model_validate(data)  # the SDK's own type accepts it


# --- Settings -------------------------------------------------------------------------------


def test_settings_defaults_and_checks() -> None:
    settings = Settings()
    assert settings.ai_api_key == ""
    assert settings.ai_base_url == "https://api.openai.com/v1"
    assert settings.ai_model == "gpt-4o-mini"
    assert settings.ai_timeout == 60
    assert settings.ai_max_retries == 2
    assert Settings(ai_base_url="http://127.0.0.1:11434/v1/").ai_base_url == (
        "http://127.0.0.1:11434/v1"
    )
    for bad in (
        {"ai_base_url": "ftp://x"},
        {"ai_base_url": "api.openai.com"},
        {"ai_timeout": 0},
        {"ai_timeout": 601},
        {"ai_max_retries": 6},
        {"ai_max_retries": -1},
        {"ai_model": "  "},
    ):
        with pytest.raises(SettingsError, match="AGENCY_AI_"):
            load_settings(**bad)


# --- The parser's properties ----------------------------------------------------------------


def completion(content: str | None, finish_reason: str = "stop") -> ChatCompletion:
    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-x",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
        }
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.text(max_size=200) | json_values.map(json.dumps))
def test_parse_returns_an_object_or_says_bad_answer(content: str) -> None:
    try:
        result = ai._parse(completion(content))
    except AIError as error:
        assert error.kind == "bad_answer"
        return
    assert isinstance(result, dict)
    assert result == json.loads(content)


@given(st.dictionaries(st.text(max_size=10), json_values, max_size=5))
def test_parse_round_trips_objects(data: dict[str, Any]) -> None:
    assert ai._parse(completion(json.dumps(data))) == data


@given(st.text(max_size=100), st.sampled_from(["length", "content_filter"]))
def test_parse_never_accepts_a_cut_off_answer(content: str, reason: str) -> None:
    with pytest.raises(AIError) as caught:
        ai._parse(completion(content, reason))
    assert caught.value.kind == "bad_answer"
