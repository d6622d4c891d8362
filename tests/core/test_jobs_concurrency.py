"""The job runner runs several jobs at once: its concurrency, per-kind and per-host limits,
per-kind leases and their heartbeat, giving jobs back on stop, and PostgreSQL's SKIP LOCKED
claims. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from datetime import timedelta
from typing import Any

import asyncpg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core import db, jobs
from agency.core.modules import JobOptions
from agency.core.web import job_runner


class Gate:
    """Handlers that wait at a gate, counting how many are inside at once, per kind."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.inside: Counter[str] = Counter()
        self.peak: Counter[str] = Counter()
        self.done: list[tuple[str, int]] = []

    def handler(self, kind: str) -> Any:
        async def handle(payload: dict[str, Any]) -> None:
            self.inside[kind] += 1
            self.peak[kind] = max(self.peak[kind], self.inside[kind])
            try:
                await self.open.wait()
            finally:
                self.inside[kind] -= 1
            self.done.append((kind, payload["n"]))

        return handle

    async def until_inside(self, counts: dict[str, int], timeout: float = 10) -> None:
        async with asyncio.timeout(timeout):
            while any(self.inside[k] < n for k, n in counts.items()):
                await asyncio.sleep(0.01)


async def _wait_for(predicate: Any, timeout: float = 15) -> None:
    async with asyncio.timeout(timeout):
        while not await predicate():
            await asyncio.sleep(0.05)


async def test_a_runner_runs_up_to_its_concurrency_at_once(orm: str) -> None:
    gate = Gate()
    for n in range(10):
        await jobs.enqueue("work", {"n": n})
    runner = jobs.JobRunner({"work": gate.handler("work")}, poll_seconds=0.02, concurrency=4)
    runner.start()
    await gate.until_inside({"work": 4})
    await asyncio.sleep(0.2)  # more polls: still no fifth
    assert (gate.inside["work"], runner.running) == (4, 4)
    assert await jobs.Job.filter(status=jobs.RUNNING).count() == 4
    gate.open.set()
    await _wait_for(lambda: _count(jobs.DONE, 10))
    await runner.stop()
    assert gate.peak["work"] == 4
    assert sorted(n for _, n in gate.done) == list(range(10))


async def _count(status: str, n: int) -> bool:
    return await jobs.Job.filter(status=status).count() == n


async def test_a_kind_with_a_limit_runs_in_slots_of_its_own(orm: str) -> None:
    """Speed tests at their limit do not hold up the mail: other kinds keep their slots."""
    gate = Gate()
    for n in range(8):
        await jobs.enqueue("slow", {"n": n})
    for n in range(5):
        await jobs.enqueue("mail", {"n": n})
    runner = jobs.JobRunner(
        {"slow": gate.handler("slow"), "mail": gate.handler("mail")},
        options={"slow": JobOptions(limit=3)},
        concurrency=2,
        poll_seconds=0.02,
    )
    runner.start()
    await gate.until_inside({"slow": 3, "mail": 2})
    await asyncio.sleep(0.2)
    assert (gate.inside["slow"], gate.inside["mail"]) == (3, 2)
    gate.open.set()
    await _wait_for(lambda: _count(jobs.DONE, 13))
    await runner.stop()
    assert (gate.peak["slow"], gate.peak["mail"]) == (3, 2)


async def test_drain_runs_every_due_job_concurrently_and_waits_for_them(orm: str) -> None:
    inside = {"now": 0, "peak": 0}

    async def handler(_payload: dict[str, Any]) -> None:
        inside["now"] += 1
        inside["peak"] = max(inside["peak"], inside["now"])
        await asyncio.sleep(0.05)
        inside["now"] -= 1

    for n in range(12):
        await jobs.enqueue("work", {"n": n})
    assert await jobs.JobRunner({"work": handler}, concurrency=5).drain() == 12
    assert inside["peak"] == 5
    assert await jobs.Job.filter(status=jobs.DONE).count() == 12


async def test_a_per_host_limit_counts_every_runner_of_this_machine(orm: str) -> None:
    """per_host=2: two runners of this host run two jobs between them; a live run locked by
    another process of this host counts, one of another machine or with an expired lease not."""
    now = jobs._now()
    await jobs.Job.create(
        kind="cpu",
        payload={"n": -1},
        status=jobs.RUNNING,
        run_at=now,
        attempts=1,
        locked_by="another-machine:1:a",
        locked_until=now + timedelta(minutes=5),
    )
    await jobs.Job.create(
        kind="cpu",
        payload={"n": -2},
        status=jobs.RUNNING,
        run_at=now,
        attempts=1,
        locked_by=f"{jobs.host_prefix()}999999:b",
        locked_until=now + timedelta(minutes=5),
    )
    for n in range(6):
        await jobs.enqueue("cpu", {"n": n})
    gate = Gate()
    options = {"cpu": JobOptions(per_host=3)}
    runners = [
        jobs.JobRunner({"cpu": gate.handler("cpu")}, options=options, poll_seconds=0.02)
        for _ in range(2)
    ]
    for runner in runners:
        runner.start()
    await gate.until_inside({"cpu": 2})  # 3 minus the other live process of this host
    await asyncio.sleep(0.3)
    assert gate.inside["cpu"] == 2
    gate.open.set()
    await _wait_for(lambda: _count(jobs.DONE, 6))
    for runner in runners:
        await runner.stop()
    assert gate.peak["cpu"] == 2


async def test_a_claim_takes_the_kinds_lease(orm: str) -> None:
    async def handler(_payload: dict[str, Any]) -> None:
        await asyncio.sleep(0.3)

    await jobs.enqueue("quick", {})
    await jobs.enqueue("plain", {})
    runner = jobs.JobRunner(
        {"quick": handler, "plain": handler},
        options={"quick": JobOptions(lease=timedelta(seconds=90))},
    )
    before = jobs._now()
    assert await runner.poll() == 2
    quick = await jobs.Job.get(kind="quick")
    plain = await jobs.Job.get(kind="plain")
    assert quick.locked_until is not None and plain.locked_until is not None
    assert timedelta(seconds=89) < quick.locked_until - before < timedelta(seconds=92)
    assert jobs.LEASE - timedelta(seconds=1) < plain.locked_until - before
    assert quick.locked_by == plain.locked_by == runner.worker_id
    await runner.drain()


async def test_a_slow_job_keeps_its_lease_and_is_never_run_twice(orm: str) -> None:
    """The heartbeat renews a 1.5 s lease while the job runs 4 s; a second runner polling
    all along never takes it over."""
    runs: list[str] = []

    async def handler(_payload: dict[str, Any]) -> None:
        runs.append("start")
        await asyncio.sleep(4)
        runs.append("done")

    options = {"slow": JobOptions(lease=timedelta(seconds=1.5))}
    job_id = await jobs.enqueue("slow", {})
    first = jobs.JobRunner({"slow": handler}, options=options, poll_seconds=0.05)
    second = jobs.JobRunner({"slow": handler}, options=options, poll_seconds=0.05)
    first.start()
    await _wait_for(lambda: _status(job_id, jobs.RUNNING))
    second.start()
    await _wait_for(lambda: _status(job_id, jobs.DONE), timeout=10)
    await first.stop()
    await second.stop()
    assert runs == ["start", "done"]
    job = await jobs.Job.get(id=job_id)
    assert job.attempts == 1


async def _status(job_id: int, status: str) -> bool:
    return (await jobs.Job.get(id=job_id)).status == status


async def test_a_job_taken_over_meanwhile_is_stopped_here_and_not_recorded(orm: str) -> None:
    """A runner that stalled past its lease finds at its heartbeat that another runner has the
    job: it cancels its own run and leaves the job's outcome to the other."""
    events: list[str] = []

    async def handler(_payload: dict[str, Any]) -> None:
        events.append("start")
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            events.append("cancelled")
            raise
        events.append("done")

    job_id = await jobs.enqueue("slow", {})
    runner = jobs.JobRunner(
        {"slow": handler}, options={"slow": JobOptions(lease=timedelta(seconds=1.2))}
    )
    assert await runner.poll() == 1
    await jobs.Job.filter(id=job_id).update(locked_by="another-machine:7:c")
    async with asyncio.timeout(5):
        while runner.running:
            await asyncio.sleep(0.05)
    assert events == ["start", "cancelled"]
    job = await jobs.Job.get(id=job_id)
    assert (job.status, job.locked_by) == (jobs.RUNNING, "another-machine:7:c")


async def test_stop_puts_unfinished_jobs_back_at_once_without_counting_the_attempt(
    orm: str,
) -> None:
    gate = Gate()
    for n in range(3):
        await jobs.enqueue("work", {"n": n})
    runner = jobs.JobRunner({"work": gate.handler("work")}, poll_seconds=0.02)
    runner.start()
    await gate.until_inside({"work": 3})
    await runner.stop(grace=0.1)
    rows = await jobs.Job.all()
    assert [(r.status, r.attempts, r.locked_by) for r in rows] == [(jobs.QUEUED, 0, None)] * 3
    assert all(r.run_at <= jobs._now() for r in rows)
    gate.open.set()
    assert await jobs.JobRunner({"work": gate.handler("work")}).drain() == 3


async def test_stop_lets_running_jobs_finish_within_the_grace(orm: str) -> None:
    async def handler(_payload: dict[str, Any]) -> None:
        await asyncio.sleep(0.3)

    await jobs.enqueue("work", {})
    runner = jobs.JobRunner({"work": handler}, poll_seconds=0.02)
    runner.start()
    await _wait_for(lambda: _count(jobs.RUNNING, 1))
    await runner.stop(grace=5)
    assert await _count(jobs.DONE, 1)


async def test_stop_during_a_claim_starts_what_it_took_instead_of_stranding_it(
    orm: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop that lands while a claim's commit is on its way back (the rows are running in
    the database, the runner has no task for them yet) must not leave them running until their
    lease runs out: CI saw a worker's SIGTERM strand a mail job that way."""
    real_claim = jobs.claim
    committed = asyncio.Event()

    async def slow_return(*args: Any, **kwargs: Any) -> list[jobs.Job]:
        claimed = await real_claim(*args, **kwargs)
        if claimed:
            committed.set()
            await asyncio.sleep(0.3)  # the round trip after the commit
        return claimed

    monkeypatch.setattr(jobs, "claim", slow_return)
    finished: list[int] = []

    async def handler(payload: dict[str, Any]) -> None:
        finished.append(payload["n"])

    await jobs.enqueue("work", {"n": 1})
    runner = jobs.JobRunner({"work": handler}, poll_seconds=0.02)
    runner.start()
    async with asyncio.timeout(10):
        await committed.wait()
    await runner.stop(grace=5)
    job = await jobs.Job.get(kind="work")
    assert (job.status, job.locked_by) == (jobs.DONE, None)
    assert finished == [1]


async def test_a_job_lost_with_its_worker_on_every_attempt_fails_with_a_clear_message(
    orm: str,
) -> None:
    """Lost on its last attempt, a job has one more run (final_attempt() is true, so the
    handler can record the outcome); lost on that one too, it fails for good."""
    seen: list[bool] = []

    async def handler(_payload: dict[str, Any]) -> None:
        seen.append(jobs.final_attempt())

    past = jobs._now() - timedelta(seconds=1)
    last = await jobs.enqueue("lost", {}, max_attempts=2)
    gone = await jobs.enqueue("lost", {}, max_attempts=2)
    await jobs.Job.filter(id=last).update(
        status=jobs.RUNNING, attempts=2, locked_by="dead:1:a", locked_until=past
    )
    await jobs.Job.filter(id=gone).update(
        status=jobs.RUNNING, attempts=3, locked_by="dead:1:a", locked_until=past
    )
    assert await jobs.JobRunner({"lost": handler}).drain() == 1
    assert seen == [True]
    assert (await jobs.Job.get(id=last)).status == jobs.DONE
    failed = await jobs.Job.get(id=gone)
    assert (failed.status, failed.last_error, failed.locked_by) == (
        jobs.FAILED,
        jobs.LOST_MESSAGE,
        None,
    )


async def test_a_claim_skips_a_row_another_transaction_holds(
    orm: str, backend: str, tmp_path: Any
) -> None:
    """PostgreSQL: a row locked by another worker's transaction is skipped at once, the next
    one claimed. SQLite has no row locks: a claim waits for the other writer to finish."""
    first = await jobs.enqueue("work", {"n": 1})
    second = await jobs.enqueue("work", {"n": 2})
    budget = jobs.Budget({"work": 1}, set(), 0)
    if backend == "postgres":
        conn = await asyncpg.connect(orm.replace("postgres://", "postgresql://", 1))
        try:
            async with conn.transaction():
                await conn.execute("SELECT id FROM job WHERE id = $1 FOR UPDATE", first)
                async with asyncio.timeout(3):
                    claimed = await jobs.claim("me:1:a", budget)
        finally:
            await conn.close()
        assert [job.id for job in claimed] == [second]
        return
    path = db.sqlite_path(orm)
    assert path is not None
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    task = asyncio.create_task(jobs.claim("me:1:a", budget))
    await asyncio.sleep(0.5)
    assert not task.done()  # waits for the writer (busy_timeout), never claims beside it
    other.execute("ROLLBACK")
    other.close()
    claimed = await task
    assert [job.id for job in claimed] == [first]


async def test_the_app_passes_the_modules_job_options_and_concurrency(
    tmp_path: Any, database_url: str
) -> None:
    from agency.app import create_app
    from agency.core.modules import Module
    from agency.registry import MODULES
    from tests.conftest import make_settings

    async def handler(_payload: dict[str, Any]) -> None:
        return None

    extra = Module(
        name="probe",
        job_handlers={"probe.cpu": handler},
        job_options=lambda s: {"probe.cpu": JobOptions(limit=s.jobs_concurrency + 1, per_host=2)},
    )
    app = create_app(make_settings(tmp_path, database_url, jobs_concurrency=7), [*MODULES, extra])
    runner: jobs.JobRunner = job_runner(app)
    assert runner.concurrency == 7
    assert runner.options["probe.cpu"] == JobOptions(limit=8, per_host=2)


def test_job_options_refuse_nonsense() -> None:
    for bad in ({"limit": 0}, {"per_host": 0}, {"lease": timedelta(milliseconds=10)}):
        with pytest.raises(ValueError):
            JobOptions(**bad)
    with pytest.raises(ValueError, match="without a handler"):
        jobs.JobRunner({}, options={"x": JobOptions()})
    with pytest.raises(ValueError, match="at least 1"):
        jobs.JobRunner({"x": lambda _p: asyncio.sleep(0)}, concurrency=0)


@given(
    per_kind=st.dictionaries(st.sampled_from("abcde"), st.integers(-3, 6), min_size=1),
    shared_kinds=st.sets(st.sampled_from("abcde")),
    shared=st.integers(-2, 6),
    takes=st.lists(st.sampled_from("abcdef"), max_size=40),
)
def test_a_budget_never_gives_more_than_its_limits(
    per_kind: dict[str, int], shared_kinds: set[str], shared: int, takes: list[str]
) -> None:
    budget = jobs.Budget(per_kind, shared_kinds, shared)
    total = budget.total()
    taken: Counter[str] = Counter(kind for kind in takes if budget.take(kind))
    assert sum(taken.values()) <= total
    for kind, n in taken.items():
        assert n <= max(0, per_kind.get(kind, 0))
    assert sum(n for kind, n in taken.items() if kind in shared_kinds) <= max(0, shared)
    assert set(budget.kinds()) <= {k for k, n in per_kind.items() if n > 0}
    # Whatever is left is still offered: the budget only ever refuses what it must.
    while budget.kinds():
        assert budget.take(budget.kinds()[0])
    assert budget.total() == 0


@pytest.mark.parametrize("provider", ["psi", "lighthouse"])
def test_speed_tests_run_many_at_once_with_a_short_lease_and_lighthouse_one_per_core(
    tmp_path: Any, provider: str
) -> None:
    import os

    from agency.app import create_app
    from tests.conftest import make_settings

    settings = make_settings(tmp_path, "sqlite://:memory:", speedtest_provider=provider)
    runner: jobs.JobRunner = job_runner(create_app(settings))
    options = runner.options["insights.speed_test"]
    assert options.lease is not None and options.lease <= timedelta(minutes=2)
    if provider == "psi":
        assert (options.limit or 0) >= 32 and options.per_host is None
    else:
        assert options.per_host == os.cpu_count()
