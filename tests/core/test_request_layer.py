"""The request layer in front of Quart (`core.web.request_layer`), driven as raw ASGI: what it adds
to responses, which bodies it compresses and how, the CSRF refusal and the access log.

The same behaviour through the whole app and the database is in test_api_basics.py and
test_compression.py; these tests reach the cases no route of ours produces (streams, a
route's own Vary or X-Request-ID, HEAD, odd Content-Length values)."""

from __future__ import annotations

import asyncio
import gzip
import itertools
import json
import logging
from collections.abc import Sequence
from typing import Any

import brotli
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agency.core.logging import request_id_var
from agency.core.web.compression import MIN_SIZE
from agency.core.web.request_layer import RequestLayer, current_client_ip

Headers = list[tuple[bytes, bytes]]
STATIC = [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")]


def downstream_app(
    status: int = 200, headers: Headers | None = None, chunks: Sequence[bytes] = (b"{}",)
) -> tuple[Any, dict[str, Any]]:
    """An ASGI app sending `chunks` the way Quart does (each with more_body, then an empty
    last one), and what it saw of the request."""
    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["called"] = True
        seen["request_id"] = request_id_var.get()
        seen["client_ip"] = current_client_ip()
        await send({"type": "http.response.start", "status": status, "headers": headers or []})
        for chunk in chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    return app, seen


def layer(app: Any, **options: Any) -> RequestLayer:
    defaults: dict[str, Any] = {
        "static_headers": STATIC,
        "trusted_proxies": 0,
        "access_log": False,
        "https_site": False,
    }
    return RequestLayer(app, **{**defaults, **options})


def call(
    asgi: Any,
    path: str = "/api/thing",
    *,
    method: str = "GET",
    headers: Headers | None = None,
    scheme: str = "http",
    client: tuple[str, int] | None = ("203.0.113.7", 5000),
) -> tuple[int, dict[bytes, list[bytes]], bytes]:
    """Runs one request; returns the status, the headers by lower-case name, and the body."""
    messages: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "method": method,
        "scheme": scheme,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers or [],
        "client": client,
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    asyncio.run(asgi(scope, receive, send))
    start = messages[0]
    assert start["type"] == "http.response.start"
    assert not any(m.get("more_body") for m in messages[-1:])  # the last message ends the body
    by_name: dict[bytes, list[bytes]] = {}
    for name, value in start["headers"]:
        by_name.setdefault(name, []).append(value)
    body = b"".join(m.get("body", b"") for m in messages[1:])
    return start["status"], by_name, body


def json_headers(size: int, **extra: bytes) -> Headers:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(size).encode())]
    return headers + [(name.replace("_", "-").encode(), value) for name, value in extra.items()]


def test_every_response_gets_the_common_headers_once() -> None:
    app, seen = downstream_app(headers=[(b"referrer-policy", b"same-origin")])
    status, headers, _ = call(layer(app))
    assert status == 200
    assert headers[b"x-content-type-options"] == [b"nosniff"]
    assert headers[b"referrer-policy"] == [b"same-origin"]  # the route's own value stands
    assert headers[b"cache-control"] == [b"no-store"]  # an API answer
    assert headers[b"x-request-id"] == [seen["request_id"].encode()]
    assert len(seen["request_id"]) == 32


def test_pages_may_be_cached_and_hsts_comes_only_over_https_behind_no_proxy_of_ours() -> None:
    app, _ = downstream_app()
    _, page, _ = call(layer(app), "/blog")
    assert b"cache-control" not in page and b"strict-transport-security" not in page
    _, secure, _ = call(layer(app), "/blog", scheme="https")
    assert secure[b"strict-transport-security"] == [b"max-age=31536000; includeSubDomains"]
    # Behind our https proxy the headers say so already (security_headers adds HSTS).
    _, proxied, _ = call(layer(app, https_site=True), "/blog", scheme="https")
    assert b"strict-transport-security" not in proxied


def test_a_routes_own_request_id_is_replaced_by_the_requests() -> None:
    app, _ = downstream_app(headers=[(b"x-request-id", b"from-the-route")])
    _, headers, _ = call(layer(app), headers=[(b"x-request-id", b"abc-123")])
    assert headers[b"x-request-id"] == [b"abc-123"]


@pytest.mark.parametrize(
    ("forwarded", "proxies", "expected"),
    [
        (None, 0, "203.0.113.7"),
        (b"198.51.100.1", 0, "203.0.113.7"),  # no proxy of ours: the header is the client's
        (b"198.51.100.1", 1, "198.51.100.1"),
        (b"10.0.0.1, 198.51.100.1", 1, "198.51.100.1"),  # only our proxy's entry counts
    ],
)
def test_the_client_address_honours_only_trusted_proxies(
    forwarded: bytes | None, proxies: int, expected: str
) -> None:
    app, seen = downstream_app()
    headers = [(b"x-forwarded-for", forwarded)] if forwarded else []
    call(layer(app, trusted_proxies=proxies), headers=headers)
    assert seen["client_ip"] == expected
    assert current_client_ip() is None  # reset after the request


def test_a_complete_json_body_is_compressed_for_a_client_that_takes_it() -> None:
    body = json.dumps({"items": list(range(2000))}).encode()
    app, _ = downstream_app(headers=json_headers(len(body), etag=b'"v1"'), chunks=[body])
    _, headers, sent = call(layer(app), headers=[(b"accept-encoding", b"gzip, br")])
    assert headers[b"content-encoding"] == [b"br"]
    assert brotli.decompress(sent) == body
    assert headers[b"content-length"] == [str(len(sent)).encode()]
    assert headers[b"etag"] == [b'W/"v1"']
    assert headers[b"vary"] == [b"Accept-Encoding"]


def test_bodies_that_stay_as_they_are() -> None:
    big = b"[" + b"1," * MIN_SIZE + b"1]"
    accept = [(b"accept-encoding", b"br, gzip")]
    cases = {
        "small": (json_headers(10), [b"[1,2,3,4,5]"[:10]], "GET"),
        "stream (no length)": ([(b"content-type", b"application/json")], [big, big], "GET"),
        "already encoded": (json_headers(len(big), content_encoding=b"identity"), [big], "GET"),
        "an image": ([(b"content-type", b"image/png"), (b"content-length", b"2051")], [big], "GET"),
        "HEAD": (json_headers(len(big)), [], "HEAD"),
    }
    for name, (headers, chunks, method) in cases.items():
        app, _ = downstream_app(headers=headers, chunks=chunks)
        _, sent_headers, sent = call(layer(app), method=method, headers=accept)
        assert b"content-encoding" not in sent_headers or name == "already encoded", name
        assert sent == b"".join(chunks), name


def test_vary_is_extended_not_replaced() -> None:
    body = b"x" * (MIN_SIZE * 2)
    headers = [
        (b"content-type", b"text/plain"),
        (b"content-length", str(len(body)).encode()),
        (b"vary", b"Cookie"),
    ]
    app, _ = downstream_app(headers=headers, chunks=[body])
    _, sent_headers, sent = call(layer(app), headers=[(b"accept-encoding", b"gzip")])
    assert sent_headers[b"vary"] == [b"Cookie, Accept-Encoding"]
    assert gzip.decompress(sent) == body


def test_a_cross_site_post_is_refused_before_the_app_sees_it() -> None:
    app, seen = downstream_app()
    status, headers, body = call(
        layer(app),
        method="POST",
        headers=[(b"x-agency-request", b"1"), (b"sec-fetch-site", b"cross-site")],
    )
    assert status == 403 and "called" not in seen
    assert json.loads(body) == {
        "error": {"code": "csrf_failed", "message": "Cross-site requests are not allowed."}
    }
    assert headers[b"x-content-type-options"] == [b"nosniff"]  # an answer like any other
    assert headers[b"content-length"] == [str(len(body)).encode()]


@pytest.mark.parametrize(
    ("length", "refused"), [(b"0", False), (b"12", True), (b"junk", False), (b"007", True)]
)
def test_a_declared_body_must_be_json(length: bytes, refused: bool) -> None:
    app, seen = downstream_app()
    status, _, body = call(
        layer(app),
        method="POST",
        headers=[
            (b"x-agency-request", b"1"),
            (b"content-type", b"text/plain"),
            (b"content-length", length),
        ],
    )
    if refused:
        assert status == 403 and "called" not in seen
        assert json.loads(body)["error"]["message"] == "Requests must be sent as JSON."
    else:
        assert status == 200 and seen["called"]


def test_exempt_paths_pass() -> None:
    app, seen = downstream_app()
    status, _, _ = call(
        layer(app, csrf_exempt=["/api/webhooks"]), "/api/webhooks/stripe", method="POST"
    )
    assert status == 200 and seen["called"]


def test_the_access_log_has_one_line_per_request(caplog: pytest.LogCaptureFixture) -> None:
    app, _ = downstream_app(status=201)
    with caplog.at_level(logging.INFO, logger="agency.request"):
        call(
            layer(app, access_log=True),
            "/api/things",
            method="PUT",
            headers=[(b"x-agency-request", b"1")],
        )
    [line] = [r for r in caplog.records if r.name == "agency.request"]
    assert line.getMessage() == "PUT /api/things 201"
    assert line.client == "203.0.113.7"  # type: ignore[attr-defined]
    assert line.duration_ms >= 0  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(
    body=st.one_of(st.binary(max_size=300), st.binary(min_size=MIN_SIZE, max_size=6000)),
    cuts=st.lists(st.integers(min_value=0, max_value=6000), max_size=4),
    accept=st.sampled_from(["", "br", "gzip", "gzip, br", "br;q=0, gzip", "identity", "*;q=0"]),
    content_type=st.sampled_from(["application/json", "text/html; charset=utf-8", "image/png"]),
    declare_length=st.booleans(),
)
def test_what_arrives_always_decodes_to_what_the_app_sent(
    body: bytes, cuts: list[int], accept: str, content_type: str, declare_length: bool
) -> None:
    bounds = sorted({0, len(body), *(min(c, len(body)) for c in cuts)})
    chunks = [body[a:b] for a, b in itertools.pairwise(bounds)] or [b""]
    headers = [(b"content-type", content_type.encode())]
    if declare_length:
        headers.append((b"content-length", str(len(body)).encode()))
    app, _ = downstream_app(headers=headers, chunks=chunks)
    _, sent_headers, sent = call(layer(app), headers=[(b"accept-encoding", accept.encode())])
    coding = sent_headers.get(b"content-encoding", [b"identity"])[0]
    decoded = {b"br": brotli.decompress, b"gzip": gzip.decompress}.get(coding, bytes)(sent)
    assert decoded == body
    if b"content-length" in sent_headers:
        assert sent_headers[b"content-length"] == [str(len(sent)).encode()]
    if coding != b"identity":
        assert declare_length and len(body) >= MIN_SIZE and content_type != "image/png"
