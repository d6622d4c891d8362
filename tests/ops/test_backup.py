"""`agency db backup` while a server writes, and `agency db restore` into an empty database, on
SQLite and PostgreSQL: the data is there, consistent, and `db upgrade` has nothing to do."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest

from tests.conftest import agency_servers, postgres_create, postgres_drop, run_agency, server_env

HEADERS = {"X-Agency-Request": "1"}


def count(url: str, table: str) -> int:
    if url.startswith("sqlite://"):
        with sqlite3.connect(url.removeprefix("sqlite://")) as connection:
            return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    async def fetch() -> int:
        connection = await asyncpg.connect(url.replace("postgres://", "postgresql://", 1))
        try:
            return int(await connection.fetchval(f"SELECT count(*) FROM {table}"))
        finally:
            await connection.close()

    return asyncio.run(fetch())


@pytest.fixture
def empty_database(backend: str, tmp_path: Path) -> Iterator[str]:
    """A database with no tables on the test's backend."""
    if backend == "sqlite":
        yield f"sqlite://{tmp_path / 'restored' / 'agency.db'}"
        return
    name = f"agency_restore_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    url = postgres_create(name)
    yield url
    postgres_drop(name)


class Writer(threading.Thread):
    """Signs up users one after another (each is a user and a profile in one transaction)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stop = threading.Event()
        self.created: list[str] = []
        self.errors: list[str] = []

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=30) as client:
            n = 0
            while not self.stop.is_set():
                n += 1
                email = f"writer{n}@example.com"
                response = client.post(
                    "/api/auth/signup",
                    json={
                        "email": email,
                        "password": "correct horse",
                        "first_name": "Ada",
                        "last_name": "Lovelace",
                    },
                    # a new client address each time: the sign-up limit is per address
                    headers={**HEADERS, "X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"},
                )
                if response.status_code == 201:
                    self.created.append(email)
                else:
                    self.errors.append(f"{response.status_code} {response.text}")

    def wait_for(self, users: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while len(self.created) < users:
            assert not self.errors, self.errors
            assert time.monotonic() < deadline, "the server does not sign users up"
            time.sleep(0.05)


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """A real server process on the test's database; yields its URL and the agency env."""
    env = server_env(tmp_path, database_url, TRUSTED_PROXIES="1")
    with agency_servers(tmp_path, env) as [url]:
        yield url, env


@pytest.mark.slow  # starts real agency or job-runner processes
def test_backup_while_the_server_writes_then_restore_into_an_empty_database(
    server: tuple[str, dict[str, str]],
    database_url: str,
    empty_database: str,
    backend: str,
    tmp_path: Path,
) -> None:
    url, env = server
    backup_file = tmp_path / "backups" / f"agency.{backend}.backup"
    writer = Writer(url)
    writer.start()
    try:
        writer.wait_for(3)
        before = len(writer.created)
        result = run_agency(tmp_path, "db", "backup", str(backup_file), **env)
        after = len(writer.created)
        writer.wait_for(after + 2)  # still writing after the backup
    finally:
        writer.stop.set()
        writer.join(timeout=30)
    assert result.returncode == 0, result.stderr
    assert "backed up" in result.stderr and str(backup_file) in result.stderr
    assert not writer.errors, writer.errors
    assert backup_file.stat().st_size > 0
    assert not backup_file.with_name(backup_file.name + ".partial").exists()

    restore_env = {**env, "AGENCY_DATABASE_URL": empty_database}
    restored = run_agency(tmp_path, "db", "restore", str(backup_file), **restore_env)
    assert restored.returncode == 0, restored.stderr
    assert "restored" in restored.stderr

    users = count(empty_database, "auth_user")
    # One consistent snapshot taken while sign-ups went on: every user has its profile, and
    # the copy holds at least the users made before the backup began, at most those made by
    # the time it ended (plus the one in flight).
    assert users == count(empty_database, "auth_profile")
    assert before <= users <= after + 1
    assert users < count(database_url, "auth_user")  # the server wrote on after the copy
    listed = run_agency(tmp_path, "users", "list", **restore_env)
    assert listed.returncode == 0, listed.stderr
    for email in writer.created[:before]:
        assert email in listed.stdout
    upgrade = run_agency(tmp_path, "db", "upgrade", **restore_env)
    assert upgrade.returncode == 0, upgrade.stderr
    assert "(0 migration(s) applied)" in upgrade.stderr

    # A database that is not empty is refused, and left as it was.
    again = run_agency(tmp_path, "db", "restore", str(backup_file), **restore_env)
    assert again.returncode == 1
    assert "is not empty" in again.stderr and "Restore only into an empty database" in again.stderr
    assert count(empty_database, "auth_user") == users


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_backup_refuses_to_overwrite_a_file_unless_asked(tmp_path: Path) -> None:
    assert run_agency(tmp_path, "db", "upgrade").returncode == 0
    target = tmp_path / "copy.db"
    target.write_text("precious")
    refused = run_agency(tmp_path, "db", "backup", str(target))
    assert refused.returncode == 1
    assert "already exists" in refused.stderr and "--overwrite" in refused.stderr
    assert target.read_text() == "precious"
    done = run_agency(tmp_path, "db", "backup", str(target), "--overwrite")
    assert done.returncode == 0, done.stderr
    assert target.read_bytes().startswith(b"SQLite format 3\x00")


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_restore_names_the_wrong_kind_of_file(tmp_path: Path) -> None:
    not_a_backup = tmp_path / "notes.txt"
    not_a_backup.write_text("hello")
    result = run_agency(tmp_path, "db", "restore", str(not_a_backup))
    assert result.returncode == 1
    assert "neither a SQLite database nor a pg_dump backup" in result.stderr
    missing = run_agency(tmp_path, "db", "restore", str(tmp_path / "nope.db"))
    assert missing.returncode == 1 and "there is no backup file" in missing.stderr


@pytest.mark.slow  # runs the `agency` command in a subprocess
@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_sqlite_backup_is_not_restored_into_postgresql(
    empty_database: str, tmp_path: Path
) -> None:
    assert run_agency(tmp_path, "db", "upgrade").returncode == 0
    backup_file = tmp_path / "sqlite.backup"
    assert run_agency(tmp_path, "db", "backup", str(backup_file)).returncode == 0
    result = run_agency(
        tmp_path, "db", "restore", str(backup_file), AGENCY_DATABASE_URL=empty_database
    )
    assert result.returncode == 1
    assert "is a SQLite backup and the configured database is PostgreSQL" in result.stderr


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_without_pg_dump_the_error_says_how_to_install_it(tmp_path: Path) -> None:
    empty_path = tmp_path / "empty-path"
    empty_path.mkdir()
    result = run_agency(
        tmp_path,
        "db",
        "backup",
        str(tmp_path / "pg.backup"),
        AGENCY_DATABASE_URL="postgres://someone:secret@127.0.0.1:1/nowhere",
        PATH=str(empty_path),
    )
    assert result.returncode == 1
    assert "pg_dump was not found" in result.stderr
    assert "apt-get install postgresql-client" in result.stderr
    assert "secret" not in result.stderr


def test_the_tools_get_the_password_in_the_environment_not_in_the_url() -> None:
    from agency.ops.backup import _libpq

    url, env = _libpq("postgres://ada:p%40ss%3Aword@db.example:5433/agency?ssl=require&maxsize=5")
    assert url == "postgresql://ada@db.example:5433/agency"
    assert env["PGPASSWORD"] == "p@ss:word"
    assert env["PGSSLMODE"] == "require"
    url, env = _libpq("postgres://postgres@[::1]/agency?sslmode=verify-full")
    assert url == "postgresql://postgres@[::1]/agency"
    assert env["PGSSLMODE"] == "verify-full"
    assert "PGPASSWORD" not in env or env["PGPASSWORD"] == os.environ.get("PGPASSWORD")
