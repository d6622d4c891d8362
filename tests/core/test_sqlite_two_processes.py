"""Two real server processes on one SQLite file, many users at once: no "database is locked".

Without `BEGIN IMMEDIATE`, a deferred transaction that reads first and then writes
(`Profile.update_or_create`) cannot upgrade its lock while the other process writes, and SQLite
answers SQLITE_BUSY at once (busy_timeout does not apply to a lock upgrade): 500s.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import MODEL_MODULES, agency_servers, server_env

# Real server, worker or job-runner processes: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow

USERS = 60
HEADERS = {"X-Agency-Request": "1"}


@pytest.fixture
def two_servers_on_one_file(tmp_path: Path) -> Iterator[list[str]]:
    from agency.core import db

    url = f"sqlite://{tmp_path / 'shared.db'}"
    asyncio.run(db.upgrade(url, MODEL_MODULES))
    env = server_env(tmp_path, url, TRUSTED_PROXIES="1", ACCESS_LOG="false")
    with agency_servers(tmp_path, env, count=2) as urls:
        yield urls


async def _one_user(base: str, n: int, start: asyncio.Event) -> list[tuple[str, int]]:
    headers = {**HEADERS, "X-Forwarded-For": f"10.0.{n // 250}.{n % 250 + 1}"}
    results: list[tuple[str, int]] = []
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=60) as client:
        await start.wait()
        signup = await client.post(
            "/api/auth/signup",
            json={
                "email": f"user{n}@example.com",
                "password": "a long enough password 123",
                "confirm_password": "a long enough password 123",
                "first_name": "Ada",
                "last_name": "Lovelace",
            },
        )
        results.append(("signup", signup.status_code))
        lead = await client.post(
            "/api/leads",
            json={
                "source": "ai-onboarding-audit",
                "email": f"user{n}@example.com",
                "name": "Ada",
                "domain": f"site{n}.example.com",
                "message": "Hello",
            },
        )
        results.append(("lead", lead.status_code))
        for attempt in range(2):
            profile = await client.patch(
                "/api/account/profile",
                json={"first_name": f"Ada{attempt}", "last_name": "Byron"},
            )
            results.append(("profile", profile.status_code))
    return results


async def _crowd(urls: list[str]) -> Counter[tuple[str, int]]:
    start = asyncio.Event()
    tasks = [asyncio.create_task(_one_user(urls[n % 2], n, start)) for n in range(USERS)]
    await asyncio.sleep(0.2)
    start.set()
    outcomes: Counter[tuple[str, int]] = Counter()
    for results in await asyncio.gather(*tasks):
        outcomes.update(results)
    return outcomes


def test_concurrent_users_on_two_processes_get_no_errors(
    two_servers_on_one_file: list[str],
) -> None:
    outcomes = asyncio.run(_crowd(two_servers_on_one_file))
    failures = {key: count for key, count in outcomes.items() if key[1] >= 300}
    assert failures == {}, outcomes
    assert outcomes[("signup", 201)] + outcomes[("signup", 200)] == USERS
    assert outcomes[("profile", 200)] == 2 * USERS
