"""Compression bombs against the page fetcher (`net.safe_fetch.fetch_page`) and the AI provider
client (`net.ai`, the openai SDK over httpx2), each over a real HTTP origin on loopback
(`tests/fakes/bombs.py`).

Each bomb is a gigabyte of zeros (gzip, deflate, brotli, and `gzip, gzip`: 2.5 kB on the wire).
The client must fail with its ordinary message, hold at most a few MB more than its limit while
it reads (tracemalloc, in this process) and never keep the event loop from other tasks for long.
Ordinary compressed answers still read as before.

The end-to-end check of the same through a real `agency serve` (the server's RSS, and
/api/health answering during the bomb) is in tests/analysis/test_bomb_server.py."""

from __future__ import annotations

import asyncio
import gzip
import json
import zlib
from collections.abc import Iterator
from typing import Any

import brotli
import pytest

from agency.net import ai
from agency.net.ai import AIError, complete_json
from agency.net.safe_fetch import (
    MSG_ENCODING,
    MSG_TOO_LARGE,
    MSG_UNREACHABLE,
    FetchFailed,
    fetch_page,
)
from agency.settings import Settings
from tests.fakes.bombs import BOMBS, MIB, Answer, BombOrigin, measure, run_bomb_origin

PAGE_LIMIT = 2_000_000  # fetch_page's default, the analysis's own
SLACK = 3 * MIB  # what a client may hold over its limit while it reads (buffers, the SDK)
# Seconds: the longest the event loop may be kept from other tasks. A stacked bomb decoded in one
# go stalls it for seconds; 1 s leaves room for a busy machine (CI runs servers and Chromium
# beside these tests) without letting that through. Single-layer bombs are caught by memory.
STALL = 1.0


@pytest.fixture(scope="module")
def origin() -> Iterator[BombOrigin]:
    with run_bomb_origin() as server:
        yield server


@pytest.fixture(scope="module", autouse=True)
def warm(origin: BombOrigin) -> None:
    """One ordinary page and one ordinary AI answer before anything is measured: what a first
    call loads once per process (httpx, the openai SDK and its answer types, TLS contexts) is
    not what a bomb costs."""
    origin.answer = Answer(headers=[("Content-Type", "text/html")], body=b"<p>hello</p>")
    asyncio.run(fetch_page(origin.base_url + "/", allow_private=True))
    origin.answer = Answer(
        headers=[("Content-Type", "application/json")], body=json.dumps(COMPLETION).encode()
    )
    asyncio.run(complete_json(ai_settings(origin), system="json", user="json"))


@pytest.fixture(autouse=True)
def fresh(origin: BombOrigin) -> None:
    origin.requests.clear()
    origin.sent.clear()


# ---------------------------------------------------------------------------------------------
# The page fetcher


@pytest.mark.parametrize("encoding", list(BOMBS))
async def test_a_bomb_page_is_too_large_and_costs_no_more_than_the_limit(
    origin: BombOrigin, encoding: str
) -> None:
    origin.serve_bomb(encoding, "text/html; charset=utf-8")
    measured = await measure(fetch_page(origin.base_url + "/", allow_private=True))
    assert isinstance(measured.error, FetchFailed), measured.error
    assert measured.error.message == MSG_TOO_LARGE
    assert measured.peak < PAGE_LIMIT + SLACK, f"{measured.peak / MIB:.1f} MiB"
    assert measured.stall < STALL, f"the loop stalled {measured.stall:.3f} s"


# mtime=0: the same bytes, so the same test ids, in every pytest-xdist worker.
@pytest.mark.parametrize(
    ("encoding", "body", "message"),
    [
        ("zstd", b"(zstd frames)", MSG_ENCODING),
        (
            "gzip, gzip, gzip",
            gzip.compress(gzip.compress(gzip.compress(b"<p/>", mtime=0), mtime=0), mtime=0),
            MSG_ENCODING,
        ),
        ("gzip", gzip.compress(b"<p>cut short</p>" * 100, mtime=0)[:-20], MSG_UNREACHABLE),
        ("br", b"this is no brotli", MSG_UNREACHABLE),
    ],
)
async def test_a_page_in_an_encoding_we_do_not_read_fails_with_a_message(
    origin: BombOrigin, encoding: str, body: bytes, message: str
) -> None:
    origin.answer = Answer(
        headers=[("Content-Type", "text/html"), ("Content-Encoding", encoding)], body=body
    )
    with pytest.raises(FetchFailed) as failed:
        await fetch_page(origin.base_url + "/", allow_private=True)
    assert failed.value.message == message


@pytest.mark.parametrize(
    "encoding", ["gzip", "x-gzip", "deflate", "br", "gzip, gzip", "deflate, br", "identity"]
)
async def test_an_ordinary_compressed_page_reads_as_before(
    origin: BombOrigin, encoding: str
) -> None:
    html = "<!doctype html><title>Caf\u00e9</title>" + "<p>Welcome</p>" * 5000
    body = html.encode()
    for coding in [c.strip() for c in encoding.split(",")]:
        if coding in ("gzip", "x-gzip"):
            body = gzip.compress(body)
        elif coding == "deflate":
            body = zlib.compress(body)
        elif coding == "br":
            body = brotli.compress(body)
    origin.answer = Answer(
        headers=[("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", encoding)],
        body=body,
    )
    page = await fetch_page(origin.base_url + "/", allow_private=True)
    assert page.html == html
    assert origin.requests == ["GET /"]


async def test_a_page_exactly_at_the_limit_is_read_and_one_byte_more_is_not(
    origin: BombOrigin,
) -> None:
    html = b"<p>" + b"x" * (1000 - 7) + b"</p>"
    origin.answer = Answer(
        headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
        body=gzip.compress(html),
    )
    page = await fetch_page(origin.base_url + "/", allow_private=True, max_bytes=1000)
    assert len(page.html) == 1000
    with pytest.raises(FetchFailed) as failed:
        await fetch_page(origin.base_url + "/", allow_private=True, max_bytes=999)
    assert failed.value.message == MSG_TOO_LARGE


# ---------------------------------------------------------------------------------------------
# The AI provider (openai SDK, httpx2)

COMPLETION = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1700000000,
    "model": "gpt-4o-mini",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": json.dumps({"ok": True})},
            "finish_reason": "stop",
        }
    ],
}


def ai_settings(origin: BombOrigin, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "ai_api_key": "sk-test",
        "ai_base_url": origin.base_url + "/v1",
        "ai_timeout": 10.0,
        "ai_max_retries": 2,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.mark.parametrize("status", [200, 500])
@pytest.mark.parametrize("encoding", list(BOMBS))
async def test_a_bomb_from_the_ai_provider_is_an_unreadable_answer_not_retried(
    origin: BombOrigin, encoding: str, status: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ai, "BACKOFF_FIRST", 0.01)
    origin.serve_bomb(encoding, "application/json", status=status)
    measured = await measure(complete_json(ai_settings(origin), system="json", user="json"))
    assert isinstance(measured.error, AIError), measured.error
    assert measured.error.kind == "bad_answer" and not measured.error.retryable
    assert measured.error.message == ai.MSG_UNREADABLE
    assert origin.requests == ["POST /v1/chat/completions"]  # asked once
    assert measured.peak < ai.MAX_ANSWER_BYTES + SLACK, f"{measured.peak / MIB:.1f} MiB"
    assert measured.stall < STALL, f"the loop stalled {measured.stall:.3f} s"


@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate", ""])
async def test_an_ordinary_compressed_ai_answer_reads_as_before(
    origin: BombOrigin, encoding: str
) -> None:
    body = json.dumps(COMPLETION).encode()
    if encoding == "gzip":
        body = gzip.compress(body)
    elif encoding == "br":
        body = brotli.compress(body)
    elif encoding == "deflate":
        body = zlib.compress(body)
    headers = [("Content-Type", "application/json")]
    if encoding:
        headers.append(("Content-Encoding", encoding))
    origin.answer = Answer(headers=headers, body=body)
    assert await complete_json(ai_settings(origin), system="json", user="json") == {"ok": True}
