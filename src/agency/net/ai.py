"""The AI provider: one JSON answer from any OpenAI-compatible chat-completions endpoint.

Through the official `openai` SDK (which speaks HTTP with httpx2), against `ai_base_url` with
`ai_api_key` and `ai_model`, in JSON mode (`response_format={"type": "json_object"}`). Our own
timeout (`ai_timeout`, per request) and retries (`ai_max_retries`, with back-off, only for what
may pass: rate limits, timeouts, connection failures, the provider's 5xx) replace the SDK's, so
a used-up quota is not asked again. Every failure is an `AIError` whose message is for people
and never carries the key.
"""

from __future__ import annotations

import asyncio
import json
import logging
import ssl
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from agency.net import bounded_body
from agency.net.settings import AiSettings

if TYPE_CHECKING:
    # Imported where used: the SDK costs a second at start-up (`agency serve`) and
    # only a call to the model needs it.
    import openai
    from openai import AsyncOpenAI

log = logging.getLogger(__name__)

MSG_NOT_CONFIGURED = "AI is not configured"

AIErrorKind = Literal[
    "not_configured",
    "auth",
    "quota",
    "rate_limited",
    "timeout",
    "connection",
    "server",
    "bad_request",
    "bad_answer",
]
RETRYABLE: frozenset[str] = frozenset({"rate_limited", "timeout", "connection", "server"})
BACKOFF_FIRST = 0.5  # seconds before the first retry; doubled for each next one
BACKOFF_MAX = 8.0
RETRY_AFTER_MAX = 20.0  # a provider asking for a longer wait is not waited for
PROVIDER_MESSAGE_MAX = 300
# The most a provider's answer may decode to (net/bounded_body.py): a chat completion of even
# a long answer (tens of thousands of tokens, JSON-escaped) is a few hundred kB, and an error
# a few hundred bytes; the provider is a server we do not control (any base URL).
MAX_ANSWER_BYTES = 4 * 1024 * 1024
MSG_UNREADABLE = "The AI provider's answer could not be read."


class AIError(Exception):
    """A failed AI call. `message` is for people, `kind` for code, `retryable` says whether
    the same call may succeed later; `status` is the provider's HTTP status when it answered."""

    def __init__(
        self,
        message: str,
        *,
        kind: AIErrorKind,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind: AIErrorKind = kind
        self.retryable = kind in RETRYABLE
        self.status = status
        self.retry_after = retry_after  # seconds the provider asked us to wait, when it did

    def __repr__(self) -> str:
        return f"AIError(kind={self.kind!r}, status={self.status!r}, message={self.message!r})"


def configured(settings: AiSettings) -> bool:
    """True when an AI key is set (the base URL and model always have a value)."""
    return bool(settings.ai_api_key)


def model_name(settings: AiSettings) -> str:
    return settings.ai_model


@cache
def _tls_context() -> ssl.SSLContext:
    """One TLS context per process (loading the CA store costs tens of milliseconds)."""
    import httpx2

    return httpx2.create_ssl_context()


def _client(settings: AiSettings) -> AsyncOpenAI:
    """A client for one call: our timeout, no SDK retries (ours decide), no redirects, the
    answer's body decoded within `MAX_ANSWER_BYTES`."""
    import httpx2
    from openai import AsyncOpenAI

    http_client = httpx2.AsyncClient(
        verify=_tls_context(),
        timeout=httpx2.Timeout(settings.ai_timeout, connect=min(settings.ai_timeout, 10.0)),
        follow_redirects=False,
        event_hooks=bounded_body.httpx2_hooks(max_bytes=MAX_ANSWER_BYTES),
    )
    return AsyncOpenAI(
        api_key=settings.ai_api_key,
        base_url=settings.ai_base_url,
        timeout=settings.ai_timeout,
        max_retries=0,
        http_client=http_client,
        # Never pick up OPENAI_* variables meant for something else: configuration is ours.
        organization=None,
        project=None,
    )


def _has_json_word(*texts: str) -> bool:
    return any("json" in text.lower() for text in texts)


async def complete_json(
    settings: AiSettings, *, system: str, user: str, max_tokens: int | None = None
) -> dict[str, Any]:
    """Ask the model and return its answer, a JSON object, as a dict.

    Raises `AIError`: `not_configured` without a key; the provider's refusals and failures
    (after our retries for the retryable ones); `bad_answer` for an answer cut off by the
    token limit, empty, refused by the model, not JSON or not a JSON object.
    """
    if not configured(settings):
        raise AIError(MSG_NOT_CONFIGURED, kind="not_configured")
    if not _has_json_word(system, user):
        # JSON mode requires the word in the messages (else the provider answers 400).
        system = f"{system}\n\nAnswer with one JSON object."
    attempt = 0
    while True:
        try:
            return await _complete_once(settings, system=system, user=user, max_tokens=max_tokens)
        except AIError as error:
            if not error.retryable or attempt >= settings.ai_max_retries:
                log.warning(
                    "AI call failed (%s, status %s, attempt %d): %s",
                    error.kind,
                    error.status,
                    attempt + 1,
                    error.message,
                )
                raise
            wait = error.retry_after
            if wait is None:
                wait = min(BACKOFF_MAX, BACKOFF_FIRST * 2**attempt)
            attempt += 1
            log.info("AI call failed (%s), retry %d in %.1f s", error.kind, attempt, wait)
            await asyncio.sleep(wait)


async def _complete_once(
    settings: AiSettings, *, system: str, user: str, max_tokens: int | None
) -> dict[str, Any]:
    import openai

    kwargs: dict[str, Any] = {}
    if max_tokens is not None:
        kwargs["max_tokens"] = max_tokens
    try:
        async with _client(settings) as client:
            completion = await client.chat.completions.create(
                model=settings.ai_model,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                ],
                response_format={"type": "json_object"},
                **kwargs,
            )
    except bounded_body.BodyLimitError as exc:
        # Too large decoded, or not readable as sent: asking again would get the same.
        log.warning("AI provider's answer refused: %s", exc)
        raise AIError(MSG_UNREADABLE, kind="bad_answer") from exc
    except openai.APITimeoutError as exc:
        raise AIError(
            f"The AI provider did not answer within {settings.ai_timeout:g} seconds.",
            kind="timeout",
        ) from exc
    except openai.APIConnectionError as exc:
        raise AIError(
            f"Could not connect to the AI provider at {_host(settings.ai_base_url)}.",
            kind="connection",
        ) from exc
    except openai.APIStatusError as exc:
        raise _status_error(exc, settings) from exc
    except openai.APIResponseValidationError as exc:  # pragma: no cover - strict mode is off
        raise AIError(MSG_UNREADABLE, kind="bad_answer") from exc
    except (openai.APIError, ValueError) as exc:
        # A 2xx body that is not JSON at all (the SDK's json.loads fails), and other surprises.
        raise AIError(MSG_UNREADABLE, kind="bad_answer") from exc
    if not isinstance(getattr(completion, "choices", None), list):
        # A 2xx body that is not a chat completion (an HTML page, plain text).
        raise AIError(MSG_UNREADABLE, kind="bad_answer")
    return _parse(completion)


def _host(url: str) -> str:
    import httpx2

    try:
        return httpx2.URL(url).host or url
    except Exception:  # pragma: no cover - settings validated the URL
        return url


def _provider_message(exc: openai.APIStatusError, settings: AiSettings) -> str:
    """The provider's own error text, short and without our key."""
    message = ""
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        message = body["message"]
    if settings.ai_api_key:
        message = message.replace(settings.ai_api_key, "***")
    message = " ".join(message.split())
    if len(message) > PROVIDER_MESSAGE_MAX:
        message = message[: PROVIDER_MESSAGE_MAX - 1].rstrip() + "…"
    return message


def _retry_after(exc: openai.APIStatusError) -> float | None:
    headers = exc.response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            continue
        if 0 <= seconds <= RETRY_AFTER_MAX:
            return seconds
    return None


def _status_error(exc: openai.APIStatusError, settings: AiSettings) -> AIError:
    status = exc.status_code
    detail = _provider_message(exc, settings)
    error: AIError
    if status in (401, 403):
        error = AIError(f"The AI provider refused the key ({status}).", kind="auth", status=status)
    elif status == 429 and exc.code == "insufficient_quota":
        error = AIError(
            "The AI provider's quota is used up (429 insufficient_quota): "
            "check the plan and billing with the provider.",
            kind="quota",
            status=status,
        )
    elif status == 429:
        error = AIError(
            "The AI provider is limiting requests (429). Please try again in a minute.",
            kind="rate_limited",
            status=status,
            retry_after=_retry_after(exc),
        )
    elif status >= 500:
        error = AIError(
            f"The AI provider failed ({status}). Please try again later.",
            kind="server",
            status=status,
            retry_after=_retry_after(exc),
        )
    elif status == 408:
        error = AIError(
            f"The AI provider did not answer in time ({status}).", kind="timeout", status=status
        )
    else:
        suffix = f": {detail}" if detail else "."
        error = AIError(
            f"The AI provider refused the request ({status}){suffix}",
            kind="bad_request",
            status=status,
        )
    return error


def _parse(completion: Any) -> dict[str, Any]:
    choices = getattr(completion, "choices", None) or []
    if not choices:
        raise AIError("The AI's answer was empty.", kind="bad_answer")
    choice = choices[0]
    message = choice.message
    refusal = getattr(message, "refusal", None)
    if refusal:
        raise AIError(f"The AI declined to answer: {str(refusal)[:200]}", kind="bad_answer")
    if choice.finish_reason == "length":
        raise AIError(
            "The AI's answer was cut off (it reached the length limit).", kind="bad_answer"
        )
    if choice.finish_reason == "content_filter":
        raise AIError("The AI provider's content filter stopped the answer.", kind="bad_answer")
    content = message.content
    if not isinstance(content, str) or not content.strip():
        raise AIError("The AI's answer was empty.", kind="bad_answer")
    try:
        data = json.loads(content)
    except ValueError as exc:
        raise AIError("The AI's answer was not valid JSON.", kind="bad_answer") from exc
    if not isinstance(data, dict):
        raise AIError("The AI's answer was not a JSON object.", kind="bad_answer")
    return data
