"""While the database is out of reach the API answers 503 with Retry-After, and it recovers by
itself when the database is back. Genuine bugs stay 500s."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest
from tortoise.exceptions import IntegrityError, OperationalError

from agency.core import db
from agency.core.errors import UNAVAILABLE_MESSAGE
from tests.conftest import (
    MODEL_MODULES,
    POSTGRES,
    POSTGRES_ADMIN_URL,
    agency_servers,
    postgres_create,
    postgres_drop,
    server_env,
)
from tests.fakes.tcp_proxy import TcpProxy

HEADERS = {"X-Agency-Request": "1"}


def test_connection_level_errors_are_unavailability() -> None:
    def wrapped(cause: BaseException, outer: type[Exception] = OperationalError) -> Exception:
        try:
            try:
                raise cause
            except BaseException as exc:
                raise outer(exc)  # noqa: B904 (as Tortoise's SQLite client does)
        except Exception as error:
            return error

    assert db.is_unavailable(ConnectionRefusedError(111, "Connection refused"))
    assert db.is_unavailable(asyncpg.ConnectionDoesNotExistError("connection was closed"))
    assert db.is_unavailable(asyncpg.CannotConnectNowError("the database system is starting up"))
    assert db.is_unavailable(asyncpg.InterfaceError("connection is closed"))
    assert db.is_unavailable(TimeoutError())
    # Tortoise wraps SQLite's errors (the original is its argument and context).
    assert db.is_unavailable(wrapped(sqlite3.OperationalError("unable to open database file")))
    assert db.is_unavailable(wrapped(sqlite3.OperationalError("database is locked")))
    # Genuine bugs and bad queries are not.
    assert not db.is_unavailable(ValueError("bug"))
    assert not db.is_unavailable(KeyError("bug"))
    assert not db.is_unavailable(FileNotFoundError(2, "No such file"))
    assert not db.is_unavailable(wrapped(sqlite3.OperationalError("no such table: x")))
    assert not db.is_unavailable(wrapped(sqlite3.IntegrityError("UNIQUE"), IntegrityError))
    assert not db.is_unavailable(asyncpg.InterfaceError("another operation is in progress"))
    assert not db.is_unavailable(asyncpg.UndefinedTableError("relation x does not exist"))
    # A bug raised while handling a connection error is still a bug.
    try:
        try:
            raise ConnectionResetError(104, "reset")
        except ConnectionResetError:
            raise ValueError("bug in the handler") from None
    except ValueError as bug:
        assert not db.is_unavailable(bug)


@pytest.fixture
def server_behind_proxy(tmp_path: Path) -> Iterator[tuple[str, TcpProxy]]:
    name = f"agency_unavailable_{os.getpid()}"
    direct = postgres_create(name)
    asyncio.run(db.upgrade(direct, MODEL_MODULES))
    upstream = urlsplit(POSTGRES_ADMIN_URL)
    proxy = TcpProxy(upstream.hostname or "127.0.0.1", upstream.port or 5432)
    proxy.open()
    netloc = upstream.netloc.rsplit("@", 1)[0] + f"@127.0.0.1:{proxy.port}"
    env = server_env(tmp_path, f"postgres://{netloc}/{name}", TRUSTED_PROXIES="1")
    try:
        with agency_servers(tmp_path, env) as [url]:
            yield url, proxy
    finally:
        proxy.close()
        postgres_drop(name)


def _calls(client: httpx.Client, n: int) -> list[httpx.Response]:
    login = {"email": "someone@example.com", "password": "not the password"}
    headers = {**HEADERS, "X-Forwarded-For": f"10.9.0.{n % 250 + 1}"}
    return [
        client.get("/api/auth/me"),
        client.post("/api/auth/login", json=login, headers=headers),
        client.get("/api/catalogue"),
    ]


@pytest.mark.slow  # starts real agency or job-runner processes
@pytest.mark.skipif(not POSTGRES, reason="PostgreSQL is not running (CI always has it)")
def test_api_answers_503_while_postgres_is_away_and_recovers(
    server_behind_proxy: tuple[str, TcpProxy],
) -> None:
    base, proxy = server_behind_proxy
    with httpx.Client(base_url=base, headers=HEADERS, timeout=30) as client:
        before = [r.status_code for r in _calls(client, 0)]
        assert 500 not in before and 503 not in before, before

        proxy.close()
        for n in range(1, 4):
            responses = _calls(client, n)
            assert responses[1].status_code == 503  # the log-in counts the attempt first
            for response in responses:
                if response.request.url.path == "/api/auth/me" and response.status_code == 401:
                    continue  # no session cookie: answered without the database
                if response.request.url.path == "/api/catalogue" and response.status_code == 200:
                    continue  # served from the process's cache
                assert response.status_code == 503, (response.request.url, response.text)
                assert response.headers["Retry-After"] == "5"
                assert response.json() == {
                    "error": {"code": "unavailable", "message": UNAVAILABLE_MESSAGE}
                }
        assert client.get("/api/health").status_code == 503

        proxy.open()
        deadline = time.monotonic() + 10
        while client.get("/api/health").status_code != 200:
            assert time.monotonic() < deadline, "did not recover"
            time.sleep(0.2)
        for n in range(10, 30):
            statuses = [r.status_code for r in _calls(client, n)]
            assert 500 not in statuses and 503 not in statuses, statuses
