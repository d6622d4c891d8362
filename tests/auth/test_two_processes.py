"""Log-in rate limiting holds when two separate server processes share one database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import agency_servers, server_env

# Real server, worker or job-runner processes: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[list[str]]:
    with agency_servers(tmp_path, server_env(tmp_path, database_url), count=2) as urls:
        yield urls


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
