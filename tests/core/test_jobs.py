"""The database job queue, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import pytest

from agency.core import jobs


async def test_a_queued_job_runs_once_and_is_done(orm: str) -> None:
    seen: list[dict[str, Any]] = []

    async def handler(payload: dict[str, Any]) -> None:
        seen.append(payload)

    job_id = await jobs.enqueue("greet", {"name": "Ada"})
    runner = jobs.JobRunner({"greet": handler})
    assert await runner.drain() == 1
    assert await runner.drain() == 0
    assert seen == [{"name": "Ada"}]
    job = await jobs.get(job_id)
    assert job is not None and job.status == jobs.DONE and job.attempts == 1


async def test_a_failing_job_is_retried_later_then_fails_for_good(orm: str) -> None:
    async def handler(_payload: dict[str, Any]) -> None:
        raise ConnectionError("SMTP server down")

    job_id = await jobs.enqueue("mail", max_attempts=2)
    runner = jobs.JobRunner({"mail": handler})
    assert await runner.drain() == 1
    job = await jobs.get(job_id)
    assert job is not None
    assert job.status == jobs.QUEUED  # waits for its back-off before the next try
    assert job.last_error == "ConnectionError: SMTP server down"
    assert await runner.drain() == 0  # not due yet
    await jobs.Job.filter(id=job_id).update(run_at=job.run_at - timedelta(hours=2))
    assert await runner.drain() == 1
    job = await jobs.get(job_id)
    assert job is not None and job.status == jobs.FAILED and job.attempts == 2


async def test_delayed_job_waits(orm: str) -> None:
    ran: list[int] = []

    async def handler(_payload: dict[str, Any]) -> None:
        ran.append(1)

    await jobs.enqueue("later", delay=timedelta(minutes=5))
    assert await jobs.JobRunner({"later": handler}).drain() == 0
    assert ran == []


async def test_concurrent_runners_never_run_a_job_twice(orm: str) -> None:
    runs: list[int] = []

    async def handler(payload: dict[str, Any]) -> None:
        await asyncio.sleep(0)
        runs.append(payload["n"])

    for n in range(20):
        await jobs.enqueue("count", {"n": n})
    runners = [jobs.JobRunner({"count": handler}) for _ in range(4)]
    await asyncio.gather(*(runner.drain() for runner in runners))
    assert sorted(runs) == list(range(20))


async def test_a_job_whose_worker_died_is_taken_over_after_its_lease(orm: str) -> None:
    ran: list[int] = []

    async def handler(_payload: dict[str, Any]) -> None:
        ran.append(1)

    job_id = await jobs.enqueue("orphan")
    await jobs.Job.filter(id=job_id).update(
        status=jobs.RUNNING,
        attempts=1,
        locked_by="dead-worker",
        locked_until=(await jobs.Job.get(id=job_id)).run_at - timedelta(seconds=1),
    )
    assert await jobs.JobRunner({"orphan": handler}).drain() == 1
    assert ran == [1]


def test_backoff_grows_and_is_capped() -> None:
    delays = [jobs.backoff(n) for n in range(1, 30)]
    assert delays == sorted(delays)
    assert delays[0] == timedelta(seconds=10)
    assert max(delays) == jobs.MAX_BACKOFF


async def test_the_runner_logs_a_database_outage_once_not_every_poll(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    outage = {"on": True}
    polls = {"count": 0}

    async def poll(_self: jobs.JobRunner) -> int:
        polls["count"] += 1
        if outage["on"]:
            raise ConnectionRefusedError("connection refused")
        return 0

    async def handler(_payload: dict[str, Any]) -> None:
        return None

    monkeypatch.setattr(jobs.JobRunner, "poll", poll)
    runner = jobs.JobRunner(
        {"any": handler}, poll_seconds=0.01, is_outage=lambda e: isinstance(e, ConnectionError)
    )
    with caplog.at_level(logging.INFO, logger="agency.core.jobs"):
        runner.start()
        while polls["count"] < 5:
            await asyncio.sleep(0.01)
        outage["on"] = False
        while polls["count"] < 8:
            await asyncio.sleep(0.01)
        await runner.stop()
    messages = [r.getMessage() for r in caplog.records]
    assert sum("out of reach" in m for m in messages) == 1, messages
    assert sum("answers again" in m for m in messages) == 1, messages
    assert not any(r.exc_info for r in caplog.records)
