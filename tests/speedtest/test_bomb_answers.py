"""Compression bombs as the answers of PageSpeed Insights and of Kit: their base
URLs (settings) point at a real HTTP origin on loopback (`tests/fakes/bombs.py`) that answers
a gigabyte of zeros, gzip, deflate, brotli or `gzip, gzip`. Each client fails with its ordinary
message, is not retried, holds at most a few MB more than its limit while reading (tracemalloc)
and never keeps the event loop from other tasks for long; ordinary compressed answers still
read as before."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import Iterator
from typing import Any

import brotli
import pytest

from agency.modules.leads.service import newsletter
from agency.modules.leads.service.newsletter import MSG_FAILED, PREFIX, NewsletterFailed
from agency.modules.speedtest.service.speed_providers import (
    MSG_INVALID_RESPONSE,
    PSI_MAX_BYTES,
    PageSpeedInsights,
    SpeedTestFailed,
)
from agency.settings import Settings
from tests.fakes.bombs import BOMBS, MIB, Answer, BombOrigin, measure, run_bomb_origin
from tests.fakes.pagespeed import success_body

SLACK = 3 * MIB  # what a client may hold over its limit while it reads
# Seconds: the longest the event loop may be kept from other tasks. A stacked bomb decoded in one
# go stalls it for seconds; 1 s leaves room for a busy machine (CI runs servers and Chromium
# beside these tests) without letting that through. Single-layer bombs are caught by memory.
STALL = 1.0
PAGE = "https://customer-site.com/"


@pytest.fixture(scope="module")
def origin() -> Iterator[BombOrigin]:
    with run_bomb_origin() as server:
        yield server


def psi(origin: BombOrigin) -> PageSpeedInsights:
    return PageSpeedInsights(api_base=origin.base_url, api_key="key", timeout=10)


def kit_settings(origin: BombOrigin, version: str = "v3") -> Settings:
    return Settings(
        kit_api_base=origin.base_url,
        kit_api_key="kit-key",
        kit_form_id="1234",
        kit_api_version=version,
    )


def ordinary(origin: BombOrigin, body: Any, encoding: str = "gzip", status: int = 200) -> None:
    data = json.dumps(body).encode()
    data = brotli.compress(data) if encoding == "br" else gzip.compress(data)
    origin.answer = Answer(
        status,
        [("Content-Type", "application/json"), ("Content-Encoding", encoding)],
        data,
    )


@pytest.fixture(scope="module", autouse=True)
def warm(origin: BombOrigin) -> None:
    """One ordinary answer of each before anything is measured: what a first call loads once
    per process (httpx, the TLS context) is not what a bomb costs."""
    ordinary(origin, success_body(PAGE, "mobile", 90))
    asyncio.run(psi(origin).run(PAGE, "mobile"))
    ordinary(origin, {"subscription": {"id": 1}})
    asyncio.run(newsletter.subscribe(kit_settings(origin), "ada@example.com"))


@pytest.fixture(autouse=True)
def fresh(origin: BombOrigin) -> None:
    origin.requests.clear()


@pytest.mark.parametrize("status", [200, 500])
@pytest.mark.parametrize("encoding", list(BOMBS))
async def test_a_bomb_from_pagespeed_is_an_invalid_response_not_retried(
    origin: BombOrigin, encoding: str, status: int
) -> None:
    origin.serve_bomb(encoding, "application/json; charset=UTF-8", status=status)
    measured = await measure(psi(origin).run(PAGE, "mobile"))
    assert isinstance(measured.error, SpeedTestFailed), measured.error
    assert measured.error.message == MSG_INVALID_RESPONSE
    assert not measured.error.retryable and not measured.error.quota
    assert len(origin.requests) == 1
    assert measured.peak < PSI_MAX_BYTES + SLACK, f"{measured.peak / MIB:.1f} MiB"
    assert measured.stall < STALL, f"the loop stalled {measured.stall:.3f} s"


@pytest.mark.parametrize("encoding", ["gzip", "br"])
async def test_an_ordinary_compressed_pagespeed_answer_reads_as_before(
    origin: BombOrigin, encoding: str
) -> None:
    ordinary(origin, success_body(PAGE, "mobile", 73), encoding)
    report = await psi(origin).run(PAGE, "mobile")
    assert report.score == 73 and report.provider == "psi"


@pytest.mark.parametrize("version", ["v3", "v4"])
@pytest.mark.parametrize("status", [200, 422])
@pytest.mark.parametrize("encoding", list(BOMBS))
async def test_a_bomb_from_kit_fails_the_subscription_with_the_ordinary_message(
    origin: BombOrigin, encoding: str, status: int, version: str
) -> None:
    origin.serve_bomb(encoding, "application/json; charset=utf-8", status=status)
    measured = await measure(newsletter.subscribe(kit_settings(origin, version), "a@b.example"))
    assert isinstance(measured.error, NewsletterFailed), measured.error
    assert measured.error.message == PREFIX + MSG_FAILED
    assert len(origin.requests) == 1  # v4's second call is not made
    assert measured.peak < newsletter.MAX_ANSWER_BYTES + SLACK, f"{measured.peak / MIB:.1f} MiB"
    assert measured.stall < STALL, f"the loop stalled {measured.stall:.3f} s"


async def test_an_ordinary_compressed_kit_answer_reads_as_before(origin: BombOrigin) -> None:
    ordinary(origin, {"subscription": {"id": 1}}, "br")
    await newsletter.subscribe(kit_settings(origin), "ada@example.com")
    ordinary(origin, {"error": "Not Found", "message": "The form does not exist"}, "gzip", 404)
    with pytest.raises(NewsletterFailed) as failed:
        await newsletter.subscribe(kit_settings(origin), "ada@example.com")
    assert failed.value.message == PREFIX + "The form does not exist"
