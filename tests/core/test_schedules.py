"""Periodic jobs: a schedule runs once per period however many runners share the database
(SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from agency.core import jobs
from agency.core.web import job_runner

HOUR = timedelta(hours=1)

# One runner process: steps through `periods` consecutive hours, racing the other runner
# at each step, and prints the steps at which its own call queued the run.
RUNNER = """
import asyncio, json, sys, time
from datetime import datetime, timedelta
from agency.core import db, jobs
from agency.registry import MODULES

url, base, periods = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])

async def main():
    await db.init_db(url, [m.models for m in MODULES if m.models is not None])
    won = []
    try:
        await jobs.Schedule.all().count()  # connected before the start line
        print("ready", flush=True)
        start = float(sys.stdin.readline())  # the same start line for both, once both are ready
        for step in range(periods):
            time.sleep(max(0.0, start + step * 0.05 - time.time()))  # both at the same step
            now = datetime.fromtimestamp(base, jobs.UTC) + step * timedelta(hours=1)
            for _ in range(3):  # a runner checks more than once per period
                if await jobs.schedule_due({"tick": timedelta(hours=1)}, now=now):
                    won.append(step)
    finally:
        await db.close_db()
    print(json.dumps(won))

asyncio.run(main())
"""


@pytest.mark.slow  # starts real agency or job-runner processes
def test_a_schedule_runs_once_per_period_across_two_runner_processes(
    database_url: str, tmp_path: Path
) -> None:
    periods = 40
    base = datetime(2026, 1, 1, tzinfo=UTC).timestamp()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    runners = [
        subprocess.Popen(
            [sys.executable, "-c", RUNNER, database_url, str(base), str(periods)],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    # A start line set once both are past their imports and connected: on a loaded machine one
    # process may take seconds longer to get there, and must not find every period taken.
    for runner in runners:
        assert runner.stdout is not None and runner.stdout.readline() == "ready\n"
    start = f"{time.time() + 0.5}\n"
    for runner in runners:  # both told before either is waited for
        assert runner.stdin is not None
        runner.stdin.write(start)
        runner.stdin.flush()
    outputs = [runner.communicate(timeout=120) for runner in runners]
    for runner, (_out, err) in zip(runners, outputs, strict=True):
        assert runner.returncode == 0, err
    won = [json.loads(out) for out, _err in outputs]
    assert sorted(won[0] + won[1]) == list(range(periods))  # every period once, never twice
    assert won[0] and won[1]  # the two really raced: each queued some of the runs

    async def queued() -> int:
        from agency.core import db
        from tests.conftest import MODEL_MODULES

        await db.init_db(database_url, MODEL_MODULES)
        try:
            return await jobs.Job.filter(kind="tick").count()
        finally:
            await db.close_db()

    assert asyncio.run(queued()) == periods


async def test_concurrent_checks_in_one_process_queue_one_run(orm: str) -> None:
    now = datetime.now(UTC)
    schedules = {"tick": HOUR}
    results = await asyncio.gather(*(jobs.schedule_due(schedules, now=now) for _ in range(8)))
    assert sum(len(r) for r in results) == 1
    assert await jobs.Job.filter(kind="tick").count() == 1


async def test_a_new_schedule_is_due_at_once_then_after_each_interval(orm: str) -> None:
    now = datetime.now(UTC)
    ran: list[dict[str, Any]] = []

    async def tick(payload: dict[str, Any]) -> None:
        ran.append(payload)

    runner = jobs.JobRunner({"tick": tick}, schedules={"tick": HOUR})
    assert await jobs.schedule_due(runner.schedules, now=now) == ["tick"]
    assert await runner.drain() == 1
    assert ran == [{"scheduled_at": now.isoformat()}]
    assert await jobs.schedule_due(runner.schedules, now=now + HOUR / 2) == []
    assert await jobs.schedule_due(runner.schedules, now=now + HOUR) == ["tick"]
    # A shorter interval counts from the last run, without waiting out the longer one.
    five = {"tick": timedelta(minutes=5)}
    assert await jobs.schedule_due(five, now=now + HOUR + timedelta(minutes=4)) == []
    assert await jobs.schedule_due(five, now=now + HOUR + timedelta(minutes=5)) == ["tick"]
    # A process whose clock lags behind neither runs it again nor moves it.
    assert await jobs.schedule_due(five, now=now) == []
    assert await jobs.schedule_due(five, now=now + HOUR + timedelta(minutes=9)) == []
    assert await jobs.schedule_due(five, now=now + HOUR + timedelta(minutes=10)) == ["tick"]


async def test_the_runner_loop_queues_and_runs_a_due_schedule(orm: str) -> None:
    done = asyncio.Event()

    async def tick(_payload: dict[str, Any]) -> None:
        done.set()

    runner = jobs.JobRunner({"tick": tick}, poll_seconds=0.05, schedules={"tick": HOUR})
    runner.start()
    try:
        await asyncio.wait_for(done.wait(), 10)
    finally:
        await runner.stop()


def test_a_schedule_needs_a_handler() -> None:
    with pytest.raises(ValueError, match="tick"):
        jobs.JobRunner({}, schedules={"tick": HOUR})


async def test_a_module_declares_periodic_work_and_the_server_runs_it(
    database_url: str, tmp_path: Path
) -> None:
    from agency.app import create_app
    from agency.core.modules import Module, Periodic
    from agency.registry import MODULES
    from agency.settings import Settings
    from tests.conftest import make_settings

    seen: list[Settings] = []

    async def monitor(settings: Settings) -> None:
        seen.append(settings)

    weekly = Periodic(name="test.monitor", interval=timedelta(days=7), run=monitor)
    settings = make_settings(tmp_path, database_url)
    app = create_app(settings, modules=(*MODULES, Module(name="monitor", periodic=(weekly,))))
    async with app.test_app():
        runner: jobs.JobRunner = job_runner(app)
        assert runner.schedules["test.monitor"] == timedelta(days=7)
        assert "test.monitor" in await jobs.schedule_due(runner.schedules)
        await runner.drain()
        assert seen == [settings]
        assert await jobs.schedule_due(runner.schedules) == []
