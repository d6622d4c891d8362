"""What every request to Quart goes through, as one ASGI layer in front of it.

Request ids and the client's address, the CSRF guard, the headers every response carries, the
compression of complete bodies and the access log. These were five Quart hooks; each cost a
pass through Quart's hook machinery and werkzeug's header objects on every request, which
together made a third of an `/api/health` request's cost. Here they are one pass over the raw
ASGI headers on the way in and one on the way out.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from typing import Any
from urllib.parse import quote

from werkzeug.datastructures import Headers

from agency.core.errors import Forbidden
from agency.core.logging import request_id_var
from agency.core.web.asgi import ASGIApp, Message, Receive, Scope, Send
from agency.core.web.compression import COMPRESSIBLE, MIN_SIZE, choose_encoding, compress
from agency.core.web.security import STATE_CHANGING, client_address, csrf_failure

log = logging.getLogger("agency.request")
# What a path segment may hold unencoded (RFC 3986 pchar, and '/'): an ordinary path is logged
# as it is; anything else is percent-encoded.
PATH_SAFE = "/:@!$&'()*+,;=~"
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# Bodies larger than this are sent as they are rather than held in memory to be compressed.
MAX_COMPRESSED_SIZE = 8 * 1024 * 1024
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
NO_STORE = (b"cache-control", b"no-store")

client_ip_var: ContextVar[str | None] = ContextVar("client_ip", default=None)


def current_client_ip() -> str | None:
    """The client's address of the request being served (trusted proxies honoured), or None
    outside a request that came through the layer."""
    return client_ip_var.get()


def is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


class RequestLayer:
    """ASGI middleware: wraps every HTTP request to `app` (see the module's docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        static_headers: Iterable[tuple[str, str]],
        trusted_proxies: int,
        access_log: bool,
        https_site: bool,
        csrf_exempt: Sequence[str] = (),
        csrf_uploads: Sequence[str] = (),
    ) -> None:
        self.app = app
        self.static_headers = [(n.lower().encode(), v.encode()) for n, v in static_headers]
        self.trusted_proxies = trusted_proxies
        self.access_log = access_log
        self.https_site = https_site
        self.csrf_exempt = tuple(csrf_exempt)
        self.csrf_uploads = tuple(csrf_uploads)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming_id = forwarded_for = accept_encoding = None
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                incoming_id = value.decode("latin-1")
            elif name == b"accept-encoding":
                accept_encoding = value.decode("latin-1")
            elif name == b"x-forwarded-for" and forwarded_for is None:
                forwarded_for = value.decode("latin-1")
        request_id = (
            incoming_id if incoming_id and REQUEST_ID.match(incoming_id) else uuid.uuid4().hex
        )
        client = scope.get("client")
        client_ip = client_address(
            client[0] if client else None,
            forwarded_for if self.trusted_proxies > 0 else None,
            self.trusted_proxies,
        )
        id_token = request_id_var.set(request_id)
        ip_token = client_ip_var.set(client_ip)
        try:
            response = _Response(self, scope, send, request_id, accept_encoding or "", client_ip)
            refusal = self._csrf_refusal(scope)
            if refusal is not None:
                await response.send_json(403, refusal)
                return
            await self.app(scope, receive, response.send)
        finally:
            request_id_var.reset(id_token)
            client_ip_var.reset(ip_token)

    def _csrf_refusal(self, scope: Scope) -> dict[str, Any] | None:
        """The error body refusing a state-changing call that fails the CSRF guard, or None."""
        method: str = scope["method"]
        if method not in STATE_CHANGING:
            return None  # the guard only looks at state-changing requests
        headers = Headers([(n.decode("latin-1"), v.decode("latin-1")) for n, v in scope["headers"]])
        reason = csrf_failure(
            method=method,
            path=scope["path"],
            headers=headers,
            host=headers.get("Host", ""),
            has_body=_declared_length(headers.get("Content-Length")) > 0
            or "Transfer-Encoding" in headers,
            exempt=self.csrf_exempt,
            uploads=self.csrf_uploads,
        )
        return None if reason is None else Forbidden(reason, code="csrf_failed").to_dict()


def _declared_length(value: str | None) -> int:
    """A Content-Length header's value; 0 when absent or not a number."""
    try:
        return int(value) if value else 0
    except ValueError:
        return 0


class _Response:
    """One request's way out: adds the common headers to the response's start, compresses a
    complete body the client can decode, and writes the access log line at the end."""

    __slots__ = (
        "accept_encoding",
        "chunks",
        "client_ip",
        "downstream",
        "encoding",
        "held",
        "layer",
        "request_id",
        "scope",
        "started",
        "status",
    )

    def __init__(
        self,
        layer: RequestLayer,
        scope: Scope,
        downstream: Send,
        request_id: str,
        accept_encoding: str,
        client_ip: str,
    ) -> None:
        self.layer = layer
        self.scope = scope
        self.downstream = downstream
        self.request_id = request_id
        self.accept_encoding = accept_encoding
        self.client_ip = client_ip
        self.started = time.perf_counter() if layer.access_log else 0.0
        self.status = 0
        self.held: Message | None = None  # the start of a body being gathered to compress
        self.chunks: list[bytes] = []
        self.encoding: str | None = None

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            await self._start(message)
            return
        if kind != "http.response.body":
            await self.downstream(message)
            return
        more = message.get("more_body", False)
        if self.held is None:
            await self.downstream(message)
        else:
            self.chunks.append(message.get("body", b""))
            if not more:
                await self._send_compressed()
        if not more and self.layer.access_log:
            self._log()

    async def send_json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body, separators=(",", ":")).encode()
        await self.send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(data)).encode()),
                ],
            }
        )
        await self.send({"type": "http.response.body", "body": data, "more_body": False})

    async def _start(self, message: Message) -> None:
        layer = self.layer
        headers: list[tuple[bytes, bytes]] = list(message.get("headers", ()))
        present: dict[bytes, int] = {}
        for index, (name, _value) in enumerate(headers):
            present.setdefault(name.lower(), index)
        for name, value in layer.static_headers:
            if name not in present:
                headers.append((name, value))
        if (
            self.scope["scheme"] == "https"
            and not layer.https_site
            and b"strict-transport-security" not in present
        ):
            headers.append(HSTS)
        if b"cache-control" not in present and is_api(self.scope["path"]):
            headers.append(NO_STORE)
        request_id = self.request_id.encode()
        if b"x-request-id" in present:
            headers = [(n, v) for n, v in headers if n.lower() != b"x-request-id"]
        headers.append((b"x-request-id", request_id))
        self.status = status = message["status"]
        encoding = self._compression(headers, present, status)
        message = {**message, "headers": headers}
        if encoding is None:
            await self.downstream(message)
            return
        self.encoding = encoding
        self.held = message

    def _compression(
        self, headers: list[tuple[bytes, bytes]], present: dict[bytes, int], status: int
    ) -> str | None:
        """The coding to compress this response's body with, or None to send it as it is.

        Only complete bodies (a Content-Length: streams have none) of a compressible type are
        considered; those say `Vary: Accept-Encoding` whether or not this client gets them
        compressed."""
        length_at = present.get(b"content-length")
        type_at = present.get(b"content-type")
        if (
            length_at is None
            or type_at is None
            or b"content-encoding" in present
            or b"content-range" in present
            or status in (204, 206, 304)
            or not COMPRESSIBLE.match(headers[type_at][1].decode("latin-1"))
        ):
            return None
        vary_at = present.get(b"vary")
        if vary_at is None:
            headers.append((b"vary", b"Accept-Encoding"))
        else:
            name, value = headers[vary_at]
            if b"accept-encoding" not in value.lower() and value.strip() != b"*":
                headers[vary_at] = (name, value + b", Accept-Encoding")
        try:
            length = int(headers[length_at][1])
        except ValueError:
            return None
        if length < MIN_SIZE or length > MAX_COMPRESSED_SIZE or self.scope["method"] == "HEAD":
            return None
        return choose_encoding(self.accept_encoding)

    async def _send_compressed(self) -> None:
        held, encoding = self.held, self.encoding
        assert held is not None and encoding is not None
        self.held = None
        body = compress(b"".join(self.chunks), encoding)
        self.chunks = []
        headers = []
        for name, value in held["headers"]:
            if name == b"content-length":
                value = str(len(body)).encode()
            elif name == b"etag" and not value.startswith(b"W/"):
                # The same tag now names two byte sequences: weak, as nginx does (still matches
                # the routes' If-None-Match checks, which look for the quoted tag).
                value = b"W/" + value
            headers.append((name, value))
        headers.append((b"content-encoding", encoding.encode()))
        await self.downstream({**held, "headers": headers})
        await self.downstream({"type": "http.response.body", "body": body, "more_body": False})

    def _log(self) -> None:
        elapsed = (time.perf_counter() - self.started) * 1000
        log.info(
            "%s %s %s",
            self.scope["method"],
            # As a client would write it (percent-encoded), not as the server decoded it: a
            # space or a line break in the path cannot pass for another field or line.
            quote(self.scope["path"], safe=PATH_SAFE, errors="backslashreplace"),
            self.status,
            extra={"duration_ms": round(elapsed, 1), "client": self.client_ip},
        )
