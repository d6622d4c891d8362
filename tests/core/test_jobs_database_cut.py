"""The job runner across a database cut, on SQLite and PostgreSQL.

A security probe cut PostgreSQL while a runner claimed: the claim committed (13 jobs running,
leased to the runner) but its answer was lost, so the runner never ran them and they waited
five minutes for their lease; a password-reset e-mail arrived that late. Here the database is
really taken away: PostgreSQL through a proxy on loopback that cuts right after the server
answered a claim's COMMIT (`tests/fakes/cut_proxy.py`), SQLite by another connection holding
the write lock (its "database is locked", with a short busy_timeout). A runner gives back what
it holds but is not running, and records the outcome of a job that met the outage, as soon as
the database answers: everything runs within a poll or two of the database's return, far less
than a lease, and exactly once.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import Counter
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import pytest
from tortoise.exceptions import OperationalError

from agency.core import db, jobs, mail
from agency.core.modules import JobOptions
from agency.core.web import job_runner
from tests.conftest import MODEL_MODULES, POSTGRES_ADMIN_URL, make_settings
from tests.fakes.cut_proxy import CutProxy

Row = tuple[int, str, int, str | None]
# Well under the one-minute lease: a job that waited for its lease would fail these tests.
BACK_WITHIN_SECONDS = 5.0


class Outage:
    """The test's database, opened for the ORM so that the test can take it away."""

    async def cut(self) -> None:
        raise NotImplementedError

    async def restore(self) -> None:
        raise NotImplementedError

    def cut_after_claim(self, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
        """Cut once the next claim has committed, before its answer reaches the runner."""
        raise NotImplementedError

    async def rows(self) -> list[Row]:
        """(id, status, attempts, locked_by) of every job, read past the outage."""
        raise NotImplementedError


class PostgresOutage(Outage):
    def __init__(self, proxy: CutProxy, direct_url: str) -> None:
        self.proxy = proxy
        self.direct_url = direct_url

    async def cut(self) -> None:
        self.proxy.close()

    async def restore(self) -> None:
        await self.proxy.open()

    def cut_after_claim(self, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
        # The real thing: the proxy drops the server's answer to the claim's COMMIT and cuts.
        return self.proxy.cut_after_commit()

    async def rows(self) -> list[Row]:
        conn = await asyncpg.connect(self.direct_url.replace("postgres://", "postgresql://", 1))
        try:
            records = await conn.fetch(
                "SELECT id, status, attempts, locked_by FROM job ORDER BY id"
            )
        finally:
            await conn.close()
        return [(r["id"], r["status"], r["attempts"], r["locked_by"]) for r in records]


class SqliteOutage(Outage):
    """Another connection holds the write lock: every write fails with "database is locked"
    after busy_timeout, as when another process hogs the file. Reads still work (WAL)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.holder: sqlite3.Connection | None = None

    async def cut(self) -> None:
        if self.holder is None:
            self.holder = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            self.holder.execute("BEGIN IMMEDIATE")

    async def restore(self) -> None:
        holder, self.holder = self.holder, None
        if holder is not None:
            holder.execute("ROLLBACK")
            holder.close()

    def cut_after_claim(self, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
        # A local file has no answer to lose; the nearest SQLite comes is a claim that committed
        # and then failed on its way back to the runner, with the database locked meanwhile.
        real_claim = jobs.claim
        done = asyncio.Event()

        async def claim_then_fail(*args: Any, **kwargs: Any) -> list[jobs.Job]:
            claimed = await real_claim(*args, **kwargs)
            if claimed and not done.is_set():
                await self.cut()
                done.set()
                raise OperationalError(sqlite3.OperationalError("disk I/O error"))
            return claimed

        monkeypatch.setattr(jobs, "claim", claim_then_fail)
        return done

    async def rows(self) -> list[Row]:
        conn = sqlite3.connect(self.path)
        try:
            return list(conn.execute("SELECT id, status, attempts, locked_by FROM job ORDER BY id"))
        finally:
            conn.close()


@pytest.fixture
async def outage(backend: str, database_url: str) -> AsyncIterator[Outage]:
    """The ORM opened on the test's database, which the test can take away and give back."""
    if backend == "sqlite":
        path = Path(database_url.removeprefix("sqlite://"))
        # A short busy_timeout: a locked database fails in 0.2 s rather than 5.
        await db.init_db(f"{database_url}?busy_timeout=200", MODEL_MODULES)
        sqlite = SqliteOutage(path)
        try:
            yield sqlite
        finally:
            await sqlite.restore()
            await db.close_db()
        return
    upstream = urlsplit(POSTGRES_ADMIN_URL)
    proxy = CutProxy(upstream.hostname or "127.0.0.1", upstream.port or 5432)
    await proxy.open()
    parts = urlsplit(database_url)
    user = parts.netloc.rsplit("@", 1)[0]
    proxied = parts._replace(netloc=f"{user}@127.0.0.1:{proxy.port}")
    await db.init_db(proxied.geturl(), MODEL_MODULES)
    try:
        yield PostgresOutage(proxy, database_url)
    finally:
        await proxy.open()
        await db.close_db()
        proxy.close()


async def _until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_jobs_claimed_at_the_moment_of_a_cut_run_as_soon_as_the_database_returns(
    outage: Outage, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: Counter[int] = Counter()

    async def send(payload: dict[str, Any]) -> None:
        runs[payload["n"]] += 1

    for n in range(13):
        await jobs.enqueue(mail.JOB_KIND, {"n": n}, max_attempts=mail.MAX_ATTEMPTS)
    cut = outage.cut_after_claim(monkeypatch)
    runner = jobs.JobRunner({mail.JOB_KIND: send}, is_outage=db.is_unavailable)
    runner.start()
    try:
        async with asyncio.timeout(10):
            await cut.wait()
        # The claim committed: every job is running, leased to a runner that never saw them.
        held = await outage.rows()
        assert [(status, by) for _, status, _, by in held] == [
            (jobs.RUNNING, runner.worker_id)
        ] * 13
        await asyncio.sleep(2)  # the database stays away a while; the runner keeps trying
        assert not runs
        await outage.restore()
        back = time.monotonic()

        async def all_done() -> bool:
            return [s for _, s, _, _ in await outage.rows()] == [jobs.DONE] * 13

        await _until(all_done, 20, "every job done")
        waited = time.monotonic() - back
    finally:
        await runner.stop()
    assert waited < BACK_WITHIN_SECONDS, waited
    assert runs == Counter(range(13))  # each once
    rows = await outage.rows()
    assert {(status, attempts, by) for _, status, attempts, by in rows} == {(jobs.DONE, 1, None)}
    assert runner.unsettled == 0


async def test_a_job_whose_handler_met_the_outage_is_retried_not_left_running(
    outage: Outage,
) -> None:
    """The handler's own write fails with the database away, and so does the runner's record
    of the failure: it is written when the database answers, the job queued for its normal
    retry, instead of left running until its lease ran out."""
    started = asyncio.Event()

    async def send(_payload: dict[str, Any]) -> None:
        started.set()
        await outage.cut()
        await jobs.Job.filter(id=-1).update(last_error="the handler's write")

    job_id = await jobs.enqueue(mail.JOB_KIND, {}, max_attempts=mail.MAX_ATTEMPTS)
    runner = jobs.JobRunner({mail.JOB_KIND: send}, is_outage=db.is_unavailable)
    runner.start()
    try:
        async with asyncio.timeout(10):
            await started.wait()

        async def ended() -> bool:  # the handler failed, and so did the runner's record
            return runner.running == 0

        await _until(ended, 15, "the job's task to end")
        assert [status for _, status, _, _ in await outage.rows()] == [jobs.RUNNING]
        await outage.restore()
        back = time.monotonic()

        async def requeued() -> bool:
            return [status for _, status, _, _ in await outage.rows()] == [jobs.QUEUED]

        await _until(requeued, 20, "the job queued again")
        waited = time.monotonic() - back
    finally:
        await runner.stop()
    assert waited < BACK_WITHIN_SECONDS, waited
    job = await jobs.Job.get(id=job_id)
    assert (job.attempts, job.locked_by, job.locked_until) == (1, None, None)
    assert job.last_error
    # Its normal retry: the first back-off, counted from the failure.
    assert job.run_at <= jobs._now() + jobs.backoff(1)


async def test_a_job_still_running_here_is_never_claimed_again_by_its_own_runner(
    orm: str,
) -> None:
    """A lease that ran out during an outage while the job ran on: the runner's next claim
    must not start it a second time in the same process (another runner may take it over; the
    heartbeat then stops it here)."""
    gate = asyncio.Event()
    starts: list[int] = []

    async def handler(payload: dict[str, Any]) -> None:
        starts.append(payload["n"])
        await gate.wait()

    job_id = await jobs.enqueue("slow", {"n": 1})
    runner = jobs.JobRunner({"slow": handler})
    assert await runner.poll() == 1
    await jobs.Job.filter(id=job_id).update(locked_until=jobs._now() - timedelta(seconds=1))
    assert await runner.poll() == 0
    gate.set()
    async with asyncio.timeout(10):
        while runner.running:
            await asyncio.sleep(0.02)
    assert starts == [1]
    job = await jobs.Job.get(id=job_id)
    assert (job.status, job.attempts) == (jobs.DONE, 1)


def test_mail_and_the_kinds_without_a_lease_of_their_own_have_a_short_one(
    tmp_path: Path,
) -> None:
    """A dead worker's e-mail is sent again within about a minute; its heartbeat renews the
    lease every third of it, so a slow SMTP server is not a dead worker."""
    from agency.app import create_app

    settings = make_settings(tmp_path, "sqlite://:memory:")
    runner: jobs.JobRunner = job_runner(create_app(settings))
    for kind in (mail.JOB_KIND, "auth.password_reset"):
        assert kind in runner.handlers
        assert runner.lease(kind) <= timedelta(seconds=60), kind


async def test_a_heartbeat_that_met_the_outage_renews_the_lease_as_soon_as_it_can(
    outage: Outage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a third of the lease later: after an outage longer than the lease, the sooner the
    lease is renewed, the smaller the chance that another runner takes a live job over."""
    monkeypatch.setattr(jobs, "HEARTBEAT_RETRY_SECONDS", 0.2)
    gate = asyncio.Event()

    async def handler(_payload: dict[str, Any]) -> None:
        await gate.wait()

    job_id = await jobs.enqueue("slow", {})
    runner = jobs.JobRunner(
        {"slow": handler}, options={"slow": JobOptions(lease=timedelta(seconds=9))}
    )
    assert await runner.poll() == 1  # renewed every 3 s from now
    leased = await jobs.Job.get(id=job_id)
    await outage.cut()
    await asyncio.sleep(3.5)  # the first heartbeat fails
    await outage.restore()
    back = time.monotonic()

    async def renewed() -> bool:
        job = await jobs.Job.get(id=job_id)
        assert leased.locked_until is not None and job.locked_until is not None
        return job.locked_until > leased.locked_until

    try:
        await _until(renewed, 10, "the lease renewed")
        waited = time.monotonic() - back
    finally:
        gate.set()
        await runner.stop(grace=5)
    assert waited < 1.5, waited  # the next regular heartbeat was 2.5 s away
