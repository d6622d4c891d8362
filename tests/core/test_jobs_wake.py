"""`jobs.enqueue` wakes the job runners of its process itself, once the job is committed: a job
queued by a route or a service runs at once, not at the runner's next poll, and no route wakes
the runner by hand. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tortoise.transactions import in_transaction

from agency.app import create_app
from agency.core import jobs
from agency.core.web import job_runner
from agency.modules.speedtest.models import SpeedTest
from tests.conftest import make_settings
from tests.fakes.pagespeed import run_fake_pagespeed

# Far longer than any of these tests may wait: a job that runs in time was woken.
SLOW_POLL = 60.0
PROMPTLY = 3.0


class Ran:
    """A handler that records the payloads it ran."""

    def __init__(self) -> None:
        self.payloads: list[dict[str, Any]] = []
        self.event = asyncio.Event()

    async def __call__(self, payload: dict[str, Any]) -> None:
        self.payloads.append(payload)
        self.event.set()

    async def promptly(self) -> None:
        async with asyncio.timeout(PROMPTLY):
            await self.event.wait()


async def _idle_runner(ran: Ran) -> jobs.JobRunner:
    """A started runner that has polled once and now waits `SLOW_POLL` for a wake-up."""
    runner = jobs.JobRunner({"work": ran}, poll_seconds=SLOW_POLL)
    runner.start()
    await asyncio.sleep(0.3)
    return runner


async def _quiet() -> None:
    """Wait for the runner to be idle: the scheduled jobs its first poll queued have run, and
    the poll their ends woke it for is over, so it waits `SLOW_POLL` for a wake-up."""
    async with asyncio.timeout(10):
        while await jobs.Job.filter(status__in=[jobs.QUEUED, jobs.RUNNING]).exists():
            await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)


async def test_a_queued_job_runs_at_once_without_waiting_for_the_poll(orm: str) -> None:
    ran = Ran()
    runner = await _idle_runner(ran)
    try:
        await jobs.enqueue("work", {"n": 1})
        await ran.promptly()
    finally:
        await runner.stop()
    assert ran.payloads == [{"n": 1}]


async def test_a_job_queued_in_a_transaction_wakes_the_runner_after_the_commit(orm: str) -> None:
    """Woken at the enqueue, the runner would look before the commit, find nothing (on
    PostgreSQL) and sleep until its next poll."""
    ran = Ran()
    runner = await _idle_runner(ran)
    try:
        async with in_transaction():
            await jobs.enqueue("work", {"n": 2})
            await asyncio.sleep(0.5)  # longer than the runner's WAKE_SETTLE_SECONDS
            assert not ran.payloads
        await ran.promptly()
    finally:
        await runner.stop()
    assert ran.payloads == [{"n": 2}]


async def test_a_job_queued_in_a_nested_transaction_waits_for_the_outer_commit(orm: str) -> None:
    ran = Ran()
    runner = await _idle_runner(ran)
    try:
        async with in_transaction():
            async with in_transaction():
                await jobs.enqueue("work", {"n": 3})
            await asyncio.sleep(0.5)
        await ran.promptly()
    finally:
        await runner.stop()
    assert ran.payloads == [{"n": 3}]


async def test_a_rolled_back_job_wakes_nobody_and_later_ones_still_do(orm: str) -> None:
    ran = Ran()
    runner = await _idle_runner(ran)
    try:
        try:
            async with in_transaction():
                await jobs.enqueue("work", {"n": 4})
                raise RuntimeError("roll back")
        except RuntimeError:
            pass
        await asyncio.sleep(0.5)
        assert not ran.payloads and not await jobs.Job.exists()
        await jobs.enqueue("work", {"n": 5})
        await ran.promptly()
    finally:
        await runner.stop()
    assert ran.payloads == [{"n": 5}]


async def test_a_speed_test_asked_for_on_the_page_runs_without_a_wake_from_its_route(
    tmp_path: Path, database_url: str
) -> None:
    """The server's own runner, polling rarely, runs the test the POST queued at once."""
    with run_fake_pagespeed(hang_delay=3.0) as psi:
        settings = make_settings(
            tmp_path,
            database_url,
            run_jobs=True,
            pagespeed_api_base=psi.base_url,
            pagespeed_timeout=1.0,
            speedtest_unsafe_allow_private_targets=True,
            base_url="http://agency.example",
        )
        app = create_app(settings)
        job_runner(app).poll_seconds = SLOW_POLL
        async with app.test_app() as site:
            await _quiet()
            response = await site.test_client().post(
                "/api/speed-tests",
                json={"url": "score-72.example", "email": "owner@example.com"}
                | {"source": "speed-test"},
                headers={"X-Agency-Request": "1"},
            )
            assert response.status_code == 202
            public_id = (await response.get_json())["id"]
            async with asyncio.timeout(PROMPTLY):
                while (await SpeedTest.get(public_id=public_id)).status != "done":
                    await asyncio.sleep(0.05)
