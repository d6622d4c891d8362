"""Job runners in real processes sharing one database, on SQLite and PostgreSQL: every job runs
exactly once however many runners claim at the same time, and a runner killed mid-job (SIGKILL)
leaves nothing stuck: another runner re-runs the job once its lease runs out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from agency.core import jobs
from tests.conftest import wait_until, with_database

# Real server, worker or job-runner processes: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
JOBS = 400


def _runner(url: str, log: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.core.jobs_process", url, str(log), *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _lines(log: Path, word: str) -> list[list[str]]:
    if not log.exists():
        return []
    return [line.split() for line in log.read_text().splitlines() if line.startswith(word + " ")]


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def test_two_runner_processes_run_every_job_exactly_once(
    database_url: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    log = tmp_path / "runs.log"
    for _ in range(2):
        processes.append(_runner(database_url, log, "--concurrency", "8", "--until-empty"))
    wait_until(lambda: len(_lines(log, "ready")) == 2, 30, "both runners")

    async def enqueue() -> None:
        now = jobs._now()
        await jobs.Job.bulk_create(
            [jobs.Job(kind="record", payload={"n": n}, run_at=now) for n in range(JOBS)]
        )

    with_database(database_url, enqueue)
    for process in processes:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
    runs = _lines(log, "run")
    counts = Counter(int(n) for _, n, _ in runs)
    assert sorted(counts) == list(range(JOBS))
    assert set(counts.values()) == {1}, {n: c for n, c in counts.items() if c > 1}
    by_process = Counter(pid for _, _, pid in runs)
    assert len(by_process) == 2, by_process  # both took part

    async def outcome() -> tuple[int, int]:
        done = await jobs.Job.filter(status=jobs.DONE, attempts=1).count()
        return done, await jobs.Job.all().count()

    assert with_database(database_url, outcome) == (JOBS, JOBS)


def test_a_runner_killed_mid_job_leaves_it_to_another_after_its_lease(
    database_url: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    log = tmp_path / "runs.log"
    lease = 2.0

    async def enqueue() -> int:
        return await jobs.enqueue("hold", {"n": 1}, max_attempts=3)

    job_id = with_database(database_url, enqueue)
    doomed = _runner(database_url, log, "--hold", "60", "--lease", str(lease))
    processes.append(doomed)
    wait_until(lambda: len(_lines(log, "start")) == 1, 30, "the first run")
    time.sleep(lease)  # a few heartbeats: the lease was renewed while it ran
    os.kill(doomed.pid, signal.SIGKILL)
    doomed.wait(timeout=10)
    killed_at = time.monotonic()

    async def row() -> jobs.Job:
        return await jobs.Job.get(id=job_id)

    stuck = with_database(database_url, row)
    assert stuck.status == jobs.RUNNING and stuck.locked_by is not None
    assert f":{doomed.pid}:" in stuck.locked_by

    successor = _runner(database_url, log, "--hold", "0.2", "--lease", str(lease), "--until-empty")
    processes.append(successor)
    wait_until(lambda: len(_lines(log, "start")) == 2, 30, "the second run")
    waited = time.monotonic() - killed_at
    _, err = successor.communicate(timeout=60)
    assert successor.returncode == 0, err.decode()

    starts, done = _lines(log, "start"), _lines(log, "done")
    assert [pid for _, _, pid in starts] == [str(doomed.pid), str(successor.pid)]
    assert [pid for _, _, pid in done] == [str(successor.pid)]
    # The kind's short lease, not the default five minutes; the margin covers a busy machine
    # starting the successor process (7 s seen under load).
    assert waited < lease + 30, waited
    finished = with_database(database_url, row)
    assert (finished.status, finished.attempts, finished.locked_by) == (jobs.DONE, 2, None)

    async def running() -> int:
        return await jobs.Job.filter(status=jobs.RUNNING).count()

    assert with_database(database_url, running) == 0
