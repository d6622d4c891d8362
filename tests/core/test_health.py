"""Liveness and readiness: `/api/health/live` answers without the database; `/api/health/ready`
passes only while the database answers, no migration is pending and a job runner is alive, and
names each check's state when it fails."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from tortoise import connections
from tortoise.migrations.recorder import MigrationRecorder

from agency.app import create_app
from agency.core import db, health, operations
from agency.core.settings import Settings
from tests.conftest import (
    MODEL_MODULES,
    POSTGRES,
    POSTGRES_ADMIN_URL,
    agency_servers,
    make_settings,
    postgres_create,
    postgres_drop,
    server_env,
    wait_until,
    with_database,
)
from tests.fakes.tcp_proxy import TcpProxy


@pytest.fixture(autouse=True)
def _fresh_migration_check() -> Iterator[None]:
    health.reset()
    yield
    health.reset()


async def ready(client: Any) -> tuple[int, dict[str, Any]]:
    response = await client.get("/api/health/ready")
    return response.status_code, await response.get_json()


async def beat(worker_id: str, seen: datetime) -> None:
    await operations.JobRunnerBeat.create(
        worker_id=worker_id, host="elsewhere", pid=7, role="worker", started_at=seen, seen_at=seen
    )


async def test_live_answers_ok_and_touches_nothing(client: Any) -> None:
    response = await client.get("/api/health/live")
    assert response.status_code == 200
    assert await response.get_json() == {"status": "ok"}


async def test_ready_needs_a_runner_alive_somewhere_when_this_process_runs_no_jobs(
    client: Any,
) -> None:
    status, body = await ready(client)
    assert status == 503
    assert body == {
        "status": "unavailable",
        "checks": {
            "database": {"ok": True, "state": "answers"},
            "migrations": {"ok": True, "state": "applied"},
            "jobs": {"ok": False, "state": "no job runner seen recently"},
        },
    }
    now = datetime.now(UTC)
    await beat("elsewhere:7:dead", now - operations.ALIVE_WITHIN - timedelta(seconds=1))
    assert (await ready(client))[0] == 503  # a heartbeat too old is a dead runner's

    await beat("elsewhere:8:alive", now)
    status, body = await ready(client)
    assert status == 200, body
    assert body["status"] == "ok"
    assert body["checks"]["jobs"] == {"ok": True, "state": "1 runner(s) alive"}


async def test_ready_fails_while_a_migration_is_pending(client: Any) -> None:
    await beat("elsewhere:8:alive", datetime.now(UTC))
    assert (await ready(client))[0] == 200
    recorder = MigrationRecorder(connections.get("default"))
    last = max(await recorder.applied_migrations(), key=lambda key: key.name)
    app_label, name = last.app_label, last.name
    await recorder.record_unapplied(app_label, name)
    try:
        assert (await ready(client))[0] == 200  # the positive answer is cached a while
        health.reset()
        status, body = await ready(client)
        assert status == 503
        assert body["checks"]["migrations"] == {"ok": False, "state": "1 pending"}
        assert body["checks"]["database"]["ok"] is True
    finally:
        await recorder.record_applied(app_label, name)
    health.reset()
    assert (await ready(client))[0] == 200


@pytest.fixture
async def running_app(tmp_path: Path, database_url: str) -> AsyncIterator[Any]:
    settings: Settings = make_settings(tmp_path, database_url, run_jobs=True)
    quart_app = create_app(settings)
    async with quart_app.test_app() as test_app:
        yield test_app


async def test_ready_passes_with_this_process_running_jobs_and_its_heartbeat_is_written(
    running_app: Any,
) -> None:
    client = running_app.test_client()
    deadline = time.monotonic() + 10
    while (status := (await ready(client))[0]) != 200:
        assert time.monotonic() < deadline, status
        await asyncio.sleep(0.1)
    assert (await ready(client))[1]["checks"]["jobs"] == {
        "ok": True,
        "state": "this process runs them",
    }
    rows = await operations.JobRunnerBeat.all()
    assert [(row.pid, row.role) for row in rows] == [(os.getpid(), "serve")]


@pytest.fixture
def server_behind_proxy(tmp_path: Path) -> Iterator[tuple[str, TcpProxy]]:
    name = f"agency_ready_{os.getpid()}"
    direct = postgres_create(name)
    asyncio.run(db.upgrade(direct, MODEL_MODULES))
    upstream = urlsplit(POSTGRES_ADMIN_URL)
    proxy = TcpProxy(upstream.hostname or "127.0.0.1", upstream.port or 5432)
    proxy.open()
    netloc = upstream.netloc.rsplit("@", 1)[0] + f"@127.0.0.1:{proxy.port}"
    env = server_env(tmp_path, f"postgres://{netloc}/{name}")
    try:
        with agency_servers(tmp_path, env) as [url]:
            yield url, proxy
    finally:
        proxy.close()
        postgres_drop(name)


@pytest.mark.slow  # starts a real agency process
@pytest.mark.skipif(not POSTGRES, reason="PostgreSQL is not running (CI always has it)")
def test_ready_fails_while_postgres_is_away_and_passes_after(
    server_behind_proxy: tuple[str, TcpProxy],
) -> None:
    base, proxy = server_behind_proxy
    with httpx.Client(base_url=base, timeout=30) as client:
        wait_until(lambda: client.get("/api/health/ready").status_code == 200, 15, "ready at start")
        proxy.close()
        response = client.get("/api/health/ready")
        assert response.status_code == 503
        assert response.json()["checks"]["database"] == {"ok": False, "state": "unreachable"}
        assert client.get("/api/health/live").json() == {"status": "ok"}  # alive all along
        assert client.get("/api/health/live").status_code == 200
        proxy.open()
        wait_until(
            lambda: client.get("/api/health/ready").status_code == 200, 15, "ready once back"
        )
        assert client.get("/api/health/ready").json()["status"] == "ok"


@pytest.mark.slow  # starts a real server and a real worker
def test_a_server_that_runs_no_jobs_is_ready_only_while_a_worker_beats(
    tmp_path: Path, database_url: str
) -> None:
    env = server_env(tmp_path, database_url, RUN_JOBS="false")
    with agency_servers(tmp_path, env) as [base], httpx.Client(base_url=base, timeout=30) as client:
        answer = client.get("/api/health/ready")
        assert answer.status_code == 503
        assert answer.json()["checks"]["jobs"]["state"] == "no job runner seen recently"
        worker_env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
        worker = subprocess.Popen(
            [sys.executable, "-m", "agency", "worker", "--grace", "0"],
            cwd=tmp_path,
            env={**worker_env, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_until(
                lambda: client.get("/api/health/ready").status_code == 200, 30, "the worker's beat"
            )
            assert client.get("/api/health/ready").json()["checks"]["jobs"] == {
                "ok": True,
                "state": "1 runner(s) alive",
            }

            async def runners() -> list[tuple[int, str]]:
                return [(r.pid, r.role) for r in await operations.JobRunnerBeat.all()]

            assert with_database(database_url, runners) == [(worker.pid, "worker")]
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=30) == 0
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
        # A clean stop deletes its row: not ready at once, not 30 s later.
        assert with_database(database_url, runners) == []
        assert client.get("/api/health/ready").status_code == 503
