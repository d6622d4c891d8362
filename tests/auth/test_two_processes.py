"""Log-in rate limiting holds when two separate server processes share one database."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port
from tests.e2e.conftest import wait_until_up


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(
        AGENCY_DATABASE_URL=database_url,
        AGENCY_SECRET_KEY="s" * 40,
        AGENCY_DATA_DIR=str(tmp_path / "data"),
        AGENCY_LOG_LEVEL="warning",
        AGENCY_WEB_DIR=str(tmp_path / "no-web"),
    )
    processes, urls = [], []
    try:
        for _ in range(2):
            port = free_port()
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "agency", "serve", "--port", str(port)],
                    cwd=tmp_path,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            urls.append(f"http://127.0.0.1:{port}")
            wait_until_up(urls[-1], processes[-1])
        yield urls
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)


def test_failed_log_ins_are_counted_across_processes(two_servers: list[str]) -> None:
    body = {"email": "victim@example.com", "password": "guess guess"}
    headers = {"X-Agency-Request": "1"}
    statuses = []
    with httpx.Client(timeout=10) as client:
        for attempt in range(11):
            url = two_servers[attempt % 2] + "/api/auth/login"
            statuses.append(client.post(url, json=body, headers=headers).status_code)
    # Ten failures, five on each process, exhaust the one shared limit.
    assert statuses == [401] * 10 + [429]
