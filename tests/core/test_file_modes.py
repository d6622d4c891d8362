"""The database and its backups are their owner's only: `agency.db` and
the backup files were created 0644 under the usual umask, readable by every local user, and hold
password hashes and e-mail addresses. They are created 0600 now (as the secret key is), SQLite's
-wal and -shm files take that mode from the database, and a database left 0644 by an earlier
version is made 0600 when the program next opens it."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from agency.core import db
from tests.conftest import MODEL_MODULES, run_agency, server_env


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def side_files(path: Path) -> list[Path]:
    return [
        side
        for suffix in ("-wal", "-shm", "-journal")
        if (side := path.with_name(path.name + suffix)).exists()
    ]


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The umask most systems start with (022): files are 0644 unless the program says else.
    The `agency` subprocesses inherit it."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_db_upgrade_creates_the_database_0600(tmp_path: Path) -> None:
    path = tmp_path / "data" / "agency.db"
    result = run_agency(tmp_path, "db", "upgrade", **server_env(tmp_path, f"sqlite://{path}"))
    assert result.returncode == 0, result.stderr
    assert mode(path) == 0o600
    for side in side_files(path):
        assert mode(side) == 0o600, side


async def test_the_wal_and_shm_files_are_0600_while_the_database_is_open(tmp_path: Path) -> None:
    path = tmp_path / "agency.db"
    await db.init_db(f"sqlite://{path}", MODEL_MODULES)
    try:
        await db.generate_schema()  # writes: the -wal and -shm files exist from here on
        sides = side_files(path)
        assert {side.name for side in sides} >= {"agency.db-wal", "agency.db-shm"}
        assert [mode(side) for side in sides] == [0o600] * len(sides)
        assert mode(path) == 0o600
    finally:
        await db.close_db()


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_a_database_left_world_readable_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "data" / "agency.db"
    path.parent.mkdir()
    with sqlite3.connect(path) as connection:  # as an earlier version left it
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE earlier (x)")
    path.chmod(0o644)
    result = run_agency(tmp_path, "db", "upgrade", **server_env(tmp_path, f"sqlite://{path}"))
    assert result.returncode == 0, result.stderr
    assert mode(path) == 0o600
    assert "readable by its owner only (it was 0o644)" in result.stderr


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_backup_and_restore_write_0600_files(
    database_url: str, backend: str, tmp_path: Path
) -> None:
    env = server_env(tmp_path, database_url)
    backup_file = tmp_path / "backups" / "agency.backup"
    result = run_agency(tmp_path, "db", "backup", str(backup_file), **env)
    assert result.returncode == 0, result.stderr
    assert mode(backup_file) == 0o600
    again = run_agency(tmp_path, "db", "backup", "--overwrite", str(backup_file), **env)
    assert again.returncode == 0, again.stderr
    assert mode(backup_file) == 0o600
    if backend == "sqlite":  # a restore into a new SQLite file creates the database
        restored = tmp_path / "restored" / "agency.db"
        restore_env = {**env, "AGENCY_DATABASE_URL": f"sqlite://{restored}"}
        result = run_agency(tmp_path, "db", "restore", str(backup_file), **restore_env)
        assert result.returncode == 0, result.stderr
        assert mode(restored) == 0o600
        for side in side_files(restored):
            assert mode(side) == 0o600, side


def test_private_file_creates_or_tightens(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    db.private_file(fresh)
    assert mode(fresh) == 0o600 and fresh.read_bytes() == b""
    shared = tmp_path / "shared"
    shared.write_bytes(b"kept")
    shared.chmod(0o664)
    db.private_file(shared)
    assert mode(shared) == 0o600 and shared.read_bytes() == b"kept"
    owner_only = tmp_path / "owner-only"
    owner_only.write_bytes(b"")
    owner_only.chmod(0o400)  # stricter than ours: left alone
    db.private_file(owner_only)
    assert mode(owner_only) == 0o400
