"""`agency worker`: runs the jobs and schedules without serving HTTP, whatever AGENCY_RUN_JOBS
says; refuses a database that is not migrated; on SIGTERM puts its running jobs back in the
queue for another worker and exits cleanly. On SQLite and PostgreSQL."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agency import __version__
from agency.core import jobs, mail
from tests.conftest import run_agency, wait_until, with_database

# Real server, worker or job-runner processes: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow


@pytest.fixture
def silent_smtp() -> Iterator[int]:
    """An SMTP port that accepts connections and never says a word: delivery hangs."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield int(server.getsockname()[1])


def _env(tmp_path: Path, url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(
        AGENCY_DATABASE_URL=url,
        AGENCY_SECRET_KEY="s" * 40,
        AGENCY_DATA_DIR=str(tmp_path / "data"),
        AGENCY_WEB_DIR=str(tmp_path / "no-web"),
        AGENCY_RUN_JOBS="false",  # the servers' setting: a worker runs jobs all the same
        **extra,
    )
    return env


def test_the_worker_refuses_a_database_that_is_not_migrated(tmp_path: Path) -> None:
    result = run_agency(tmp_path, "worker", AGENCY_DATA_DIR=str(tmp_path / "data"))
    assert result.returncode == 1
    assert "the database is not up to date" in result.stderr
    assert "models.0001_init" in result.stderr


def test_the_worker_runs_jobs_and_schedules_then_stops_on_sigterm_giving_jobs_back(
    database_url: str, tmp_path: Path, silent_smtp: int
) -> None:
    async def enqueue() -> tuple[int, int]:
        reset = await jobs.enqueue("auth.password_reset", {"email": "nobody@example.com"})
        message = await mail.OutboundMail.create(
            to="ada@example.com", subject="Hello", text="Hello Ada"
        )
        delivery = await jobs.enqueue(mail.JOB_KIND, {"mail_id": message.id})
        return reset, delivery

    reset, delivery = with_database(database_url, enqueue)
    env = _env(
        tmp_path,
        database_url,
        AGENCY_SMTP_HOST="127.0.0.1",
        AGENCY_SMTP_PORT=str(silent_smtp),
        AGENCY_SMTP_SECURITY="none",
        AGENCY_SMTP_TIMEOUT="120",
        AGENCY_LOG_LEVEL="info",
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "agency", "worker", "--concurrency", "4", "--grace", "0.5"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:

        async def states() -> dict[str, str]:
            rows = await jobs.Job.all()
            return {row.kind: row.status for row in rows}

        wait_until(
            lambda: (
                with_database(database_url, states)
                == {
                    "auth.password_reset": jobs.DONE,
                    mail.JOB_KIND: jobs.RUNNING,  # waits on the silent SMTP server
                    "retention": jobs.DONE,  # a schedule, due at once on a new database
                    "sites.monitor": jobs.DONE,  # another: no live website to test
                    "overview.snapshot": jobs.DONE,  # another: the owner's figures of today
                }
            ),
            30,
            "the worker to run the jobs",
        )
        started = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=20)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    assert worker.returncode == 0, output
    assert time.monotonic() - started < 10  # the grace, not the SMTP timeout
    assert f"agency worker {__version__} started" in output and "concurrency 4" in output
    assert "agency worker stopping: 1 job(s) running" in output
    assert output.rstrip().endswith("agency worker stopped"), output

    async def job(job_id: int) -> jobs.Job:
        return await jobs.Job.get(id=job_id)

    given_back = with_database(database_url, lambda: job(delivery))
    assert (given_back.status, given_back.attempts, given_back.locked_by) == (
        jobs.QUEUED,
        0,
        None,
    )
    assert with_database(database_url, lambda: job(reset)).attempts == 1
