"""A fake OpenAI-compatible chat-completions API, a real HTTP server on 127.0.0.1.

`POST /v1/chat/completions` answers like OpenAI (design note §B3): `{"id": "chatcmpl-…",
"object": "chat.completion", "created", "model", "choices": [{"index": 0, "message": {"role":
"assistant", "content": "<JSON text>", "refusal": null}, "logprobs": null, "finish_reason":
"stop"}], "usage": {...}, "system_fingerprint"}`, and refuses like OpenAI, with the recorded
bodies in `fixtures/openai/`:

- a missing or wrong `Authorization: Bearer <key>` → 401 `invalid_api_key` (recorded);
- `response_format: {"type": "json_object"}` without the word "json" in the messages → 400
  (recorded); a missing `model` or `messages` → 400 in OpenAI's error shape.

What it answers is scripted per test:

- `handler(messages, model) -> dict`: the JSON object the model "writes" (default: a small
  object naming the model), so a test can answer grounded JSON built from the prompt;
- `outcomes`: a queue consumed one per request before the handler is asked (`push(...)`):
  `Outcome.json_answer(obj)`, `Outcome.text(content)` (invalid JSON, a partial object...),
  `Outcome.truncated(content)` (finish_reason "length"), `Outcome.refused(text)`,
  `Outcome.status(code, body)`, `Outcome.invalid_key()` (the recorded 401),
  `Outcome.quota()` (the recorded 429 insufficient_quota), `Outcome.rate_limited()` (429
  rate_limit_exceeded), `Outcome.server_error()` (500), `Outcome.slow(seconds)` (then the
  handler's answer); any outcome can carry a `delay`;
- `requests`: every call received (`ChatCall`: model, messages, response_format, max tokens,
  the bearer key, time).

From pytest::

    with run_fake_openai() as ai:
        settings = Settings(ai_base_url=ai.base_url + "/v1", ai_api_key=ai.api_key, ...)
        ai.handler = lambda messages, model: {"ideas": [...]}
        ai.push(Outcome.quota())

From a shell: ``python -m tests.fakes.openai_server --port 12114`` (key `sk-test-fake`; the
default handler answers the article manager's and the analysis' prompts with plausible JSON);
control endpoints ``GET /_fake/requests``, ``POST /_fake/reset``, ``POST /_fake/outcomes``
(JSON list of ``{"kind": "quota" | "invalid_key" | "rate_limited" | "server_error" | "text" |
"truncated" | "slow", "content": ..., "delay": s}``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from quart import Response, request

from tests.fakes.serving import FakeServer, serving

FIXTURES = Path(__file__).parent / "fixtures" / "openai"
DEFAULT_API_KEY = "sk-test-fake"
PATH = "/v1/chat/completions"

INVALID_KEY = (FIXTURES / "error-401-invalid-api-key.recorded.json").read_bytes()
NEEDS_JSON_WORD = (FIXTURES / "error-400-json-object-needs-word-json.recorded.json").read_bytes()
QUOTA = (FIXTURES / "error-429-insufficient-quota.recorded.json").read_bytes()
RATE_LIMITED = {
    "error": {
        "message": (
            "Rate limit reached for gpt-4o-mini in organization org-fake on requests per min "
            "(RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit "
            "https://platform.openai.com/account/rate-limits to learn more."
        ),
        "type": "requests",
        "param": None,
        "code": "rate_limit_exceeded",
    }
}
SERVER_ERROR = {
    "error": {
        "message": "The server had an error while processing your request. Sorry about that!",
        "type": "server_error",
        "param": None,
        "code": None,
    }
}

Messages = list[dict[str, Any]]
Handler = Callable[[Messages, str], dict[str, Any]]


def invalid_request(message: str, param: str | None, code: str | None = None) -> dict[str, Any]:
    return {
        "error": {
            "message": message,
            "type": "invalid_request_error",
            "param": param,
            "code": code,
        }
    }


@dataclass(frozen=True)
class Outcome:
    """One scripted answer. `content` None: the handler's answer (as JSON text)."""

    status: int = 200
    body: bytes | None = None  # the whole response body, for errors
    content: str | None = None
    finish_reason: str = "stop"
    refusal: str | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json_answer(cls, data: Any, *, delay: float = 0.0) -> Outcome:
        return cls(content=json.dumps(data), delay=delay)

    @classmethod
    def text(cls, content: str, *, delay: float = 0.0) -> Outcome:
        return cls(content=content, delay=delay)

    @classmethod
    def truncated(cls, content: str = '{"ideas": [{"title": "Ten ways') -> Outcome:
        return cls(content=content, finish_reason="length")

    @classmethod
    def refused(cls, refusal: str = "I'm sorry, I can't help with that.") -> Outcome:
        return cls(content=None, refusal=refusal)

    @classmethod
    def status_code(cls, status: int, body: Any, **headers: str) -> Outcome:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        return cls(status=status, body=raw, headers=dict(headers))

    @classmethod
    def invalid_key(cls) -> Outcome:
        return cls(status=401, body=INVALID_KEY)

    @classmethod
    def quota(cls) -> Outcome:
        return cls(status=429, body=QUOTA)

    @classmethod
    def rate_limited(cls, retry_after: float | None = None) -> Outcome:
        headers = {"retry-after-ms": str(int(retry_after * 1000))} if retry_after else {}
        return cls(status=429, body=json.dumps(RATE_LIMITED).encode(), headers=headers)

    @classmethod
    def server_error(cls, status: int = 500) -> Outcome:
        return cls(status=status, body=json.dumps(SERVER_ERROR).encode())

    @classmethod
    def slow(cls, seconds: float) -> Outcome:
        return cls(delay=seconds)


@dataclass(frozen=True)
class ChatCall:
    """One request the fake received."""

    model: str | None
    messages: Messages
    response_format: Any
    max_tokens: int | None
    key: str | None
    at: float

    def text(self) -> str:
        """Every message's content, joined (what a test asserts the prompt contains)."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


def default_handler(messages: Messages, model: str) -> dict[str, Any]:
    """Plausible answers for manual runs and demos: an article (the prompt asks for a
    metaDescription), three ideas (it asks for ideas with an outline), or an echo."""
    text = " ".join(str(m.get("content", "")) for m in messages).lower()
    if "metadescription" in text or "meta description" in text:
        return {
            "title": "Faster websites for small businesses",
            "content": (
                "<h2>Why speed matters</h2><p>Visitors leave slow pages.</p>"
                "<h2>What to fix first</h2><ul><li>Images</li><li>Scripts</li></ul>"
            ),
            "metaDescription": "A short guide to making a small business website fast.",
            "keywords": ["website speed", "small business", "performance"],
        }
    if "ideas" in text and "outline" in text:
        return {
            "ideas": [
                {
                    "title": f"Idea {n}: faster websites for small businesses",
                    "description": f"Why speed matters, part {n}.",
                    "keywords": ["website speed", "small business", f"idea {n}"],
                    "outline": ["Why it matters", "What to measure", "What to fix first"],
                }
                for n in (1, 2, 3)
            ]
        }
    return {"answer": "ok", "model": model}


class FakeOpenAI(FakeServer):
    name = "fake-openai"

    def __init__(
        self,
        *,
        api_key: str = DEFAULT_API_KEY,
        handler: Handler | None = None,
        delay: float = 0.0,
    ) -> None:
        super().__init__()
        self.api_key = api_key
        self.handler: Handler = handler or default_handler
        self.delay = delay
        self.outcomes: deque[Outcome] = deque()
        self.requests: list[ChatCall] = []
        self.app.add_url_rule(PATH, "chat", self._chat, methods=["POST"])
        self.app.add_url_rule("/_fake/requests", "requests", self._requests, methods=["GET"])
        self.app.add_url_rule("/_fake/reset", "reset", self._reset, methods=["POST"])
        self.app.add_url_rule("/_fake/outcomes", "outcomes", self._push, methods=["POST"])

    @property
    def api_base(self) -> str:
        """What `ai_base_url` is set to (the SDK appends `/chat/completions`)."""
        return self.base_url + "/v1"

    def push(self, *outcomes: Outcome) -> None:
        self.outcomes.extend(outcomes)

    def reset(self) -> None:
        self.requests.clear()
        self.outcomes.clear()
        self.handler = default_handler

    async def _chat(self) -> Response:
        auth = request.headers.get("Authorization", "")
        key = auth[7:] if auth.startswith("Bearer ") else None
        raw = await request.get_data()
        try:
            body = json.loads(raw)
        except ValueError:
            message = (
                "We could not parse the JSON body of your request. (HINT: This likely means "
                "you aren't using your HTTP library correctly. The OpenAI API expects a JSON "
                "payload, but what was sent was not valid JSON. If you have trouble figuring "
                "out how to fix this, please contact us through our help center at "
                "help.openai.com.)"
            )
            return _json(invalid_request(message, None), 400)
        if not isinstance(body, dict):
            body = {}
        messages = body.get("messages")
        max_tokens = body.get("max_tokens", body.get("max_completion_tokens"))
        call = ChatCall(
            model=body.get("model") if isinstance(body.get("model"), str) else None,
            messages=messages if isinstance(messages, list) else [],
            response_format=body.get("response_format"),
            max_tokens=max_tokens if isinstance(max_tokens, int) else None,
            key=key,
            at=time.time(),
        )
        self.requests.append(call)
        if self.delay:
            await asyncio.sleep(self.delay)
        if key != self.api_key:
            return Response(INVALID_KEY, status=401, content_type="application/json")
        if call.model is None:
            return _json(invalid_request("you must provide a model parameter", None), 400)
        if not call.messages:
            return _json(
                invalid_request("Missing required parameter: 'messages'.", "messages"), 400
            )
        response_format = call.response_format
        if (
            isinstance(response_format, dict)
            and response_format.get("type") == "json_object"
            and "json" not in call.text().lower()
        ):
            return Response(NEEDS_JSON_WORD, status=400, content_type="application/json")
        outcome = self.outcomes.popleft() if self.outcomes else Outcome()
        if outcome.delay:
            await asyncio.sleep(outcome.delay)
        if outcome.body is not None:
            return Response(
                outcome.body,
                status=outcome.status,
                content_type="application/json",
                headers=outcome.headers,
            )
        content = outcome.content
        if content is None and outcome.refusal is None:
            content = json.dumps(self.handler(call.messages, call.model))
        return _json(self._completion(call, content, outcome), 200)

    def _completion(self, call: ChatCall, content: str | None, outcome: Outcome) -> Any:
        prompt_tokens = max(1, len(call.text()) // 4)
        completion_tokens = max(1, len(content or outcome.refusal or "") // 4)
        return {
            "id": "chatcmpl-" + secrets.token_urlsafe(21).replace("-", "x").replace("_", "y"),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": f"{call.model}-2024-07-18" if call.model == "gpt-4o-mini" else call.model,
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": content,
                        "refusal": outcome.refusal,
                        "annotations": [],
                    },
                    "logprobs": None,
                    "finish_reason": outcome.finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
                "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
                "completion_tokens_details": {
                    "reasoning_tokens": 0,
                    "audio_tokens": 0,
                    "accepted_prediction_tokens": 0,
                    "rejected_prediction_tokens": 0,
                },
            },
            "service_tier": "default",
            "system_fingerprint": "fp_fake0001",
        }

    async def _requests(self) -> Response:
        return _json({"requests": [asdict(call) for call in self.requests]}, 200)

    async def _reset(self) -> Response:
        self.reset()
        return _json({"ok": True}, 200)

    async def _push(self) -> Response:
        data = await request.get_json(force=True, silent=True)
        items = data if isinstance(data, list) else []
        for item in items:
            if isinstance(item, dict):
                self.push(_outcome_from(item))
        return _json({"queued": len(self.outcomes)}, 200)


def _outcome_from(item: dict[str, Any]) -> Outcome:
    kind = item.get("kind")
    delay = float(item.get("delay") or 0)
    content = item.get("content")
    if kind == "quota":
        return Outcome.quota()
    if kind == "invalid_key":
        return Outcome.invalid_key()
    if kind == "rate_limited":
        return Outcome.rate_limited()
    if kind == "server_error":
        return Outcome.server_error()
    if kind == "truncated":
        return Outcome.truncated()
    if kind == "text":
        return Outcome.text(str(content or ""), delay=delay)
    if kind == "json":
        return Outcome.json_answer(content, delay=delay)
    return Outcome.slow(delay)


def _json(body: Any, status: int) -> Response:
    return Response(json.dumps(body), status=status, content_type="application/json")


def run_fake_openai(
    port: int | None = None,
    *,
    api_key: str = DEFAULT_API_KEY,
    handler: Handler | None = None,
    delay: float = 0.0,
) -> AbstractContextManager[FakeOpenAI]:
    """Serve a fresh FakeOpenAI on 127.0.0.1 in a background thread."""
    return serving(FakeOpenAI(api_key=api_key, handler=handler, delay=delay), port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fake OpenAI chat completions on 127.0.0.1")
    parser.add_argument("--port", type=int, default=12114)
    parser.add_argument("--api-key", default=DEFAULT_API_KEY)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before every answer")
    args = parser.parse_args(argv)
    FakeOpenAI(api_key=args.api_key, delay=args.delay).serve_forever(args.port)


if __name__ == "__main__":
    main()
