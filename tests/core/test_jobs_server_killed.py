"""A real server SIGKILLed in the middle of a speed test leaves nothing stuck: once the test's
job lease runs out, an `agency worker` (another process, as another machine would be) runs it
again and it ends done, with one report e-mail; no job and no test stays running."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from agency.core import db, jobs, mail
from agency.modules.speedtest.models import SpeedTest
from tests.conftest import MODEL_MODULES, free_port, wait_until, with_database
from tests.e2e.conftest import wait_until_up
from tests.fakes.pagespeed import run_fake_pagespeed

# Real server, worker or job-runner processes: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow

PSI_TIMEOUT = 4  # seconds: the job's lease follows from it (plus the run's grace)


def _start(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "agency", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill reaches granian's worker
    )


def test_a_server_killed_mid_speed_test_leaves_it_to_a_worker(tmp_path: Path) -> None:
    url = f"sqlite://{tmp_path / 'shared.db'}"
    asyncio.run(db.upgrade(url, MODEL_MODULES))
    with run_fake_pagespeed(delay=2.0) as fake:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
        env.update(
            AGENCY_DATABASE_URL=url,
            AGENCY_SECRET_KEY="s" * 40,
            AGENCY_DATA_DIR=str(tmp_path / "data"),
            AGENCY_WEB_DIR=str(tmp_path / "no-web"),
            AGENCY_LOG_LEVEL="warning",
            AGENCY_ACCESS_LOG="false",
            AGENCY_PAGESPEED_API_BASE=fake.base_url,
            AGENCY_PAGESPEED_TIMEOUT=str(PSI_TIMEOUT),
            AGENCY_SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS="true",  # no DNS for the domain
        )
        port = free_port()
        server = _start(["serve", "--port", str(port)], env, tmp_path)
        processes = [server]
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, server)
            answer = httpx.post(
                f"{base}/api/speed-tests",
                json={
                    "url": "killed.example.com",
                    "email": "ada@example.com",
                    "source": "speed-test",
                },
                headers={"X-Agency-Request": "1"},
                timeout=10,
            )
            assert answer.status_code == 202, answer.text
            public_id = answer.json()["id"]
            wait_until(lambda: fake.in_flight == 1, 20, "the server's call to PageSpeed")
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)

            async def states() -> tuple[str, str, int]:
                test = await SpeedTest.get(public_id=public_id)
                job = await jobs.Job.get(kind="insights.speed_test")
                return test.status, job.status, job.attempts

            assert with_database(url, states) == ("running", jobs.RUNNING, 1)  # stuck, for now

            worker = _start(["worker"], env, tmp_path)
            processes.append(worker)
            wait_until(
                lambda: with_database(url, states)[0] == "done", 90, "the worker to finish the test"
            )
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=30) == 0
        finally:
            for process in processes:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)
        calls = [call for call in fake.requests if call.host == "killed.example.com"]

    async def outcome() -> tuple[tuple[str, str, int], int, int, int]:
        reports = await mail.OutboundMail.filter(to="ada@example.com").count()
        running = await jobs.Job.filter(status=jobs.RUNNING).count()
        running += await SpeedTest.filter(status="running").count()
        score = (await SpeedTest.get(public_id=public_id)).score or -1
        return await states(), reports, running, score

    (test_status, job_status, attempts), reports, running, score = with_database(url, outcome)
    assert (test_status, job_status, attempts) == ("done", jobs.DONE, 2)
    assert len(calls) == 2  # the killed server's call and the worker's
    assert reports == 1 and running == 0 and 0 <= score <= 100
