"""A fake Kit (ConvertKit) API, v3 and v4, a real HTTP server on 127.0.0.1.

- v3 `POST /v3/forms/{form_id}/subscribe` (`api_key`, `email` in a JSON or form body): 200 with
  the documented example answer (`fixtures/kit/v3-forms-subscribe-200.example.json`) made to
  say the e-mail; a missing or wrong key is 401 with the recorded body
  (`v3-error-401-authorization-failed.example.json`), an unknown form 404, a bad e-mail 422.
- v4 (`X-Kit-Api-Key` header): `POST /v4/subscribers` (`email_address`, `state`) creates the
  subscriber (201) or finds it (200); `POST /v4/forms/{form_id}/subscribers` (`email_address`)
  adds an existing subscriber to the form (201, 200 when already on it) and answers the
  documented example (`v4-forms-subscribers-by-email-200.example.json`); a subscriber that does
  not exist yet is 404. Errors use v4's `{"errors": [...]}`.
- `fail_next(status, body, path=None)` makes the next Kit call (to that path) answer that (a
  500, a 429...); `delay` makes every answer wait; `requests` logs every call (method, path,
  key header, body).

From pytest::

    with run_fake_kit() as kit:
        settings = Settings(kit_api_base=kit.base_url, kit_api_key=kit.api_key,
                            kit_form_id=kit.form_id, kit_api_version="v4")

From a shell: ``python -m tests.fakes.kit --port 12113``.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import re
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quart import Response, request

from tests.fakes.serving import FakeServer, serving

FIXTURES = Path(__file__).parent / "fixtures" / "kit"
DEFAULT_API_KEY = "kit_test_key"
DEFAULT_FORM_ID = "1234567"
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


V3_SUBSCRIBED = load("v3-forms-subscribe-200.example.json")
V3_UNAUTHORIZED = (FIXTURES / "v3-error-401-authorization-failed.example.json").read_bytes()
V4_SUBSCRIBER = load("v4-forms-subscribers-by-email-200.example.json")
V4_UNAUTHORIZED = {"errors": ["The access token is invalid"]}  # Kit's documented 401 body


@dataclass(frozen=True)
class KitCall:
    method: str
    path: str
    api_key_header: str | None
    body: Any


@dataclass
class Subscriber:
    id: int
    email: str
    state: str
    created_at: str
    forms: set[str] = field(default_factory=set)


class FakeKit(FakeServer):
    name = "fake-kit"

    def __init__(
        self, *, api_key: str = DEFAULT_API_KEY, form_id: str = DEFAULT_FORM_ID, delay: float = 0
    ) -> None:
        super().__init__()
        self.api_key = api_key
        self.form_id = form_id
        self.delay = delay
        self.requests: list[KitCall] = []
        self.subscribers: dict[str, Subscriber] = {}
        self._failures: list[tuple[int, Any, str | None]] = []
        self._next_id = 1
        self.app.add_url_rule(
            "/v3/forms/<form_id>/subscribe", "v3", self._v3_subscribe, methods=["POST"]
        )
        self.app.add_url_rule("/v4/subscribers", "v4_create", self._v4_create, methods=["POST"])
        self.app.add_url_rule(
            "/v4/forms/<form_id>/subscribers", "v4_form", self._v4_add_to_form, methods=["POST"]
        )

    def fail_next(self, status: int, body: Any, *, path: str | None = None) -> None:
        """The next Kit call (to `path`, when given) answers `status` with `body` (JSON, or a
        str sent as text/html)."""
        self._failures.append((status, body, path))

    def reset(self) -> None:
        self.requests.clear()
        self.subscribers.clear()
        self._failures.clear()
        self.delay = 0

    def on_form(self, email: str) -> bool:
        subscriber = self.subscribers.get(email.lower())
        return subscriber is not None and self.form_id in subscriber.forms

    async def _begin(self) -> tuple[Any, Response | None]:
        """Log the call, wait `delay`, and answer a queued failure if there is one."""
        body = await request.get_json(silent=True)
        if body is None:
            form = await request.form
            body = dict(form) if form else None
        self.requests.append(
            KitCall(request.method, request.path, request.headers.get("X-Kit-Api-Key"), body)
        )
        if self.delay:
            await asyncio.sleep(self.delay)
        for index, (status, answer, path) in enumerate(self._failures):
            if path is None or path == request.path:
                del self._failures[index]
                if isinstance(answer, str):
                    return body, Response(answer, status=status, content_type="text/html")
                return body, _json(answer, status)
        return body, None

    def _subscriber(self, email: str) -> tuple[Subscriber, bool]:
        key = email.lower()
        if key in self.subscribers:
            return self.subscribers[key], False
        subscriber = Subscriber(
            id=self._next_id,
            email=email,
            state="inactive",
            created_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        self._next_id += 1
        self.subscribers[key] = subscriber
        return subscriber, True

    # ---------------------------------------------------------------------------------- v3

    async def _v3_subscribe(self, form_id: str) -> Response:
        body, failure = await self._begin()
        if failure is not None:
            return failure
        body = body if isinstance(body, dict) else {}
        if body.get("api_key") != self.api_key:
            return Response(V3_UNAUTHORIZED, status=401, content_type="application/json")
        if form_id != self.form_id:
            message = "The entity you were trying to find doesn't exist"
            return _json({"error": "Not Found", "message": message}, 404)
        email = body.get("email")
        if not isinstance(email, str) or not EMAIL.fullmatch(email):
            return _json({"error": "Unprocessable Entity", "message": "Email is invalid"}, 422)
        subscriber, _ = self._subscriber(email)
        subscriber.forms.add(form_id)
        answer = copy.deepcopy(V3_SUBSCRIBED)
        subscription = answer["subscription"]
        subscription.update(
            id=subscriber.id, subscribable_id=int(form_id), created_at=subscriber.created_at
        )
        subscription["subscriber"].update(
            id=subscriber.id,
            first_name=body.get("first_name"),
            email_address=subscriber.email,
            state=subscriber.state,
            created_at=subscriber.created_at,
            fields={},
        )
        return _json(answer, 200)

    # ---------------------------------------------------------------------------------- v4

    def _v4_subscriber(self, subscriber: Subscriber) -> Any:
        answer = copy.deepcopy(V4_SUBSCRIBER)
        answer["subscriber"].update(
            id=subscriber.id,
            first_name=None,
            email_address=subscriber.email,
            state=subscriber.state,
            created_at=subscriber.created_at,
            added_at=subscriber.created_at,
            referrer=None,
            referrer_utm_parameters={
                "source": "",
                "medium": "",
                "campaign": "",
                "term": "",
                "content": "",
            },
        )
        return answer

    async def _v4_create(self) -> Response:
        body, failure = await self._begin()
        if failure is not None:
            return failure
        if request.headers.get("X-Kit-Api-Key") != self.api_key:
            return _json(V4_UNAUTHORIZED, 401)
        body = body if isinstance(body, dict) else {}
        email = body.get("email_address")
        if not isinstance(email, str) or not EMAIL.fullmatch(email):
            return _json({"errors": ["Email address is invalid"]}, 422)
        state = body.get("state", "active")
        if state not in ("active", "inactive", "bounced", "cancelled", "complained"):
            return _json({"errors": [f"State {state} is not a valid state"]}, 422)
        subscriber, created = self._subscriber(email)
        if created:
            subscriber.state = state
        answer = self._v4_subscriber(subscriber)
        answer["subscriber"].pop("added_at")
        answer["subscriber"].pop("referrer")
        answer["subscriber"].pop("referrer_utm_parameters")
        return _json(answer, 201 if created else 200)

    async def _v4_add_to_form(self, form_id: str) -> Response:
        body, failure = await self._begin()
        if failure is not None:
            return failure
        if request.headers.get("X-Kit-Api-Key") != self.api_key:
            return _json(V4_UNAUTHORIZED, 401)
        if form_id != self.form_id:
            return _json({"errors": ["Not Found"]}, 404)
        body = body if isinstance(body, dict) else {}
        email = body.get("email_address")
        subscriber = self.subscribers.get(email.lower()) if isinstance(email, str) else None
        if subscriber is None:
            return _json({"errors": ["Not Found"]}, 404)
        already = form_id in subscriber.forms
        subscriber.forms.add(form_id)
        return _json(self._v4_subscriber(subscriber), 200 if already else 201)


def _json(body: Any, status: int) -> Response:
    return Response(json.dumps(body), status=status, content_type="application/json")


def run_fake_kit(
    port: int | None = None,
    *,
    api_key: str = DEFAULT_API_KEY,
    form_id: str = DEFAULT_FORM_ID,
    delay: float = 0,
) -> AbstractContextManager[FakeKit]:
    """Serve a fresh FakeKit on 127.0.0.1 in a background thread."""
    return serving(FakeKit(api_key=api_key, form_id=form_id, delay=delay), port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fake Kit (ConvertKit) API on 127.0.0.1")
    parser.add_argument("--port", type=int, default=12113)
    parser.add_argument("--api-key", default=DEFAULT_API_KEY)
    parser.add_argument("--form-id", default=DEFAULT_FORM_ID)
    args = parser.parse_args(argv)
    FakeKit(api_key=args.api_key, form_id=args.form_id).serve_forever(args.port)


if __name__ == "__main__":
    main()
