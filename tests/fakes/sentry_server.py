"""A fake Sentry (or GlitchTip) ingest server on loopback, speaking the envelope protocol the
SDK speaks (https://develop.sentry.dev/sdk/data-model/envelopes/):

- `POST /api/<project_id>/envelope/`, authenticated by the `X-Sentry-Auth` header
  (`Sentry sentry_key=<public key>, sentry_version=7, ...`) or the `sentry_key` query
  parameter; no key: 401, another key or another project: 403;
- a body compressed as `Content-Encoding` says (gzip, deflate, br) or not at all;
- the envelope: a JSON header line, then items, each a JSON header line (with the payload's
  `length` in bytes, or without it: the payload runs to the next newline) and its payload;
- answers as Sentry does: 200 `{"id": "<event id>"}`; 429 with `Retry-After` (and
  `X-Sentry-Rate-Limits`) while told to refuse (`refuse_for`); 400 for a body it cannot read.

Every envelope received is kept raw (decompressed) and parsed, so a test can look for what must
never be sent anywhere in the bytes. `python -m tests.fakes.sentry_server PORT` runs one.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from quart import Response, request

from tests.fakes.serving import FakeServer

PUBLIC_KEY = "0123456789abcdef0123456789abcdef"
PROJECT_ID = "42"
_AUTH_PAIR = re.compile(r"(\w+)=([^,\s]+)")


class EnvelopeError(ValueError):
    pass


@dataclass
class Item:
    headers: dict[str, Any]
    payload: bytes

    @property
    def type(self) -> str:
        return str(self.headers.get("type", ""))

    def json(self) -> Any:
        return json.loads(self.payload)


@dataclass
class Envelope:
    raw: bytes  # decompressed, as the SDK serialised it
    encoding: str  # the Content-Encoding it came with ("" for none)
    headers: dict[str, Any]
    items: list[Item] = field(default_factory=list)

    def events(self) -> list[dict[str, Any]]:
        return [item.json() for item in self.items if item.type == "event"]


def parse_envelope(body: bytes) -> tuple[dict[str, Any], list[Item]]:
    """An envelope's header and items; `EnvelopeError` for what is not one."""
    first, _, rest = body.partition(b"\n")
    try:
        headers = json.loads(first)
    except ValueError as exc:
        raise EnvelopeError("the envelope header is not JSON") from exc
    if not isinstance(headers, dict):
        raise EnvelopeError("the envelope header is not an object")
    items: list[Item] = []
    while rest.strip(b"\n"):
        line, _, rest = rest.partition(b"\n")
        if not line:
            continue
        try:
            item_headers = json.loads(line)
        except ValueError as exc:
            raise EnvelopeError("an item header is not JSON") from exc
        if not isinstance(item_headers, dict) or "type" not in item_headers:
            raise EnvelopeError("an item header has no type")
        length = item_headers.get("length")
        if length is None:
            payload, _, rest = rest.partition(b"\n")
        else:
            if not isinstance(length, int) or length < 0 or length > len(rest):
                raise EnvelopeError("an item's length runs past the envelope")
            payload, rest = rest[:length], rest[length:]
            if rest.startswith(b"\n"):
                rest = rest[1:]
        items.append(Item(item_headers, payload))
    return headers, items


def decompress(body: bytes, encoding: str) -> bytes:
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return body
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        try:
            return zlib.decompress(body)
        except zlib.error:
            return zlib.decompress(body, -zlib.MAX_WBITS)  # raw deflate, as some clients send
    if encoding == "br":
        import brotli

        return bytes(brotli.decompress(body))
    raise EnvelopeError(f"unsupported Content-Encoding {encoding!r}")


def auth_key(header: str, query_key: str | None) -> str | None:
    """The public key a request authenticates with: `X-Sentry-Auth`'s `sentry_key`, else the
    query's."""
    if header:
        scheme, _, pairs = header.strip().partition(" ")
        if scheme.lower() == "sentry":
            found = dict(_AUTH_PAIR.findall(pairs))
            key = found.get("sentry_key")
            if key:
                return str(key)
    return query_key or None


class FakeSentry(FakeServer):
    name = "fake-sentry"

    def __init__(self, public_key: str = PUBLIC_KEY, project_id: str = PROJECT_ID) -> None:
        super().__init__()
        self.public_key = public_key
        self.project_id = project_id
        self.envelopes: list[Envelope] = []
        self.refused: list[int] = []  # statuses of the requests refused
        self._refuse_until = 0.0
        self._retry_after = 0
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self.app.add_url_rule(
            "/api/<project_id>/envelope/", "envelope", self._envelope, methods=["POST"]
        )

    def dsn(self, key: str | None = None) -> str:
        host = self.base_url.removeprefix("http://")
        return f"http://{key or self.public_key}@{host}/{self.project_id}"

    def refuse_for(self, seconds: int) -> None:
        """Answer 429 with `Retry-After: seconds` until that time has passed."""
        self._retry_after = seconds
        self._refuse_until = time.monotonic() + seconds

    def events(self) -> list[dict[str, Any]]:
        with self._lock:
            return [event for envelope in self.envelopes for event in envelope.events()]

    def wait_for_events(self, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                events = [e for envelope in self.envelopes for e in envelope.events()]
                if len(events) >= count:
                    return events
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(events)} event(s) arrived, {count} expected")
                self._arrived.wait(left)

    def _refuse(self, status: int, detail: str, **headers: str) -> Response:
        with self._lock:
            self.refused.append(status)
        response = Response(json.dumps({"detail": detail}), status=status)
        response.content_type = "application/json"
        for name, value in headers.items():
            response.headers[name] = value
        return response

    async def _envelope(self, project_id: str) -> Response:
        key = auth_key(request.headers.get("X-Sentry-Auth", ""), request.args.get("sentry_key"))
        if key is None:
            return self._refuse(401, "missing authorization information")
        if key != self.public_key or project_id != self.project_id:
            return self._refuse(403, "invalid api key")
        if time.monotonic() < self._refuse_until:
            return self._refuse(
                429,
                "event rejected due to rate limit",
                **{
                    "Retry-After": str(self._retry_after),
                    "X-Sentry-Rate-Limits": f"{self._retry_after}::organization",
                },
            )
        encoding = request.headers.get("Content-Encoding", "")
        try:
            body = await request.get_data(as_text=False)
            assert isinstance(body, bytes)
            raw = decompress(body, encoding)
            headers, items = parse_envelope(raw)
        except (EnvelopeError, OSError, zlib.error, ValueError) as exc:
            return self._refuse(400, f"invalid envelope: {exc}")
        with self._arrived:
            self.envelopes.append(Envelope(raw, encoding, headers, items))
            self._arrived.notify_all()
        event_id = headers.get("event_id") or next(
            (item.json().get("event_id") for item in items if item.type == "event"), None
        )
        response = Response(json.dumps({"id": event_id}), status=200)
        response.content_type = "application/json"
        return response


if __name__ == "__main__":  # pragma: no cover - a developer's tool
    FakeSentry().serve_forever(int(sys.argv[1]) if len(sys.argv) > 1 else 9100)
