"""`agency db backup` and `agency db restore`.

SQLite: a consistent copy taken with SQLite's online backup API while the server keeps running
(readers and writers are not stopped; the copy is one snapshot of the database). Restoring copies
it back with the same API into a database file that has no tables yet.

PostgreSQL: `pg_dump --format=custom` through the configured URL, restored with `pg_restore`
into a database that has no tables yet. The password goes to the tools in `PGPASSWORD`, never
on their command line. When the tools are missing, the error says how to install them.

A backup holds password hashes and e-mail addresses: its file is created 0600 (owner only)
before anything is written to it, as the database file is; so is a SQLite database restored
into a new file.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from agency.core.db import PRIVATE_MODE, private_file, sqlite_path

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"
SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
PG_TOOLS_HINT = (
    "{tool} was not found. Install PostgreSQL's client tools in a version at least the server's "
    "(Debian/Ubuntu: apt-get install postgresql-client; macOS: brew install libpq), or put them "
    "on PATH."
)


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class Result:
    path: Path
    size: int
    tables: int


def _is_sqlite(url: str) -> bool:
    return url.startswith("sqlite://")


def _sqlite_file(url: str) -> Path:
    path = sqlite_path(url.split("?", 1)[0])
    if path is None:
        raise BackupError("an in-memory SQLite database cannot be backed up")
    return path


def _sqlite_tables(connection: sqlite3.Connection) -> int:
    row = connection.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchone()
    return int(row[0])


def _file_kind(path: Path) -> str:
    with path.open("rb") as handle:
        head = handle.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        return "sqlite"
    if head.startswith(PGDUMP_MAGIC):
        return "postgres"
    return "unknown"


def _check_target(target: Path, overwrite: bool) -> None:
    if target.exists() and not overwrite:
        raise BackupError(f"{target} already exists; choose another file or pass --overwrite")
    target.parent.mkdir(parents=True, exist_ok=True)


# --- SQLite ----------------------------------------------------------------------------------


def backup_sqlite(url: str, target: Path, *, overwrite: bool = False) -> Result:
    source_path = _sqlite_file(url)
    if not source_path.is_file():
        raise BackupError(f"there is no database at {source_path}")
    _check_target(target, overwrite)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    private_file(partial)  # SQLite writes into it, and gives its journal the same mode
    source = sqlite3.connect(source_path, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            # pages=-1: the whole database in one step, under one read transaction, so the copy
            # is one consistent snapshot even while server processes write (WAL readers do not
            # block writers).
            source.backup(copy, pages=-1)
            copy.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
            tables = _sqlite_tables(copy)
            check = copy.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            copy.close()
    finally:
        source.close()
    if check != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(f"the copy failed SQLite's integrity check: {check}")
    partial.replace(target)
    return Result(target, target.stat().st_size, tables)


def restore_sqlite(url: str, source_file: Path) -> Result:
    target_path = _sqlite_file(url)
    target_path.parent.mkdir(parents=True, exist_ok=True)
    private_file(target_path)
    source = sqlite3.connect(source_file)
    try:
        try:
            tables = _sqlite_tables(source)
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{source_file} is not a readable SQLite database: {exc}") from exc
        target = sqlite3.connect(target_path, timeout=30)
        try:
            if _sqlite_tables(target):
                raise BackupError(
                    f"the database {target_path} is not empty. Restore only into an empty "
                    "database: stop the server, move the file (and its -wal and -shm files) "
                    "away or point AGENCY_DATABASE_URL at a new file, then restore again."
                )
            source.backup(target, pages=-1)
            target.execute("PRAGMA journal_mode=WAL")  # as the program opens it
        finally:
            target.close()
    finally:
        source.close()
    return Result(target_path, target_path.stat().st_size, tables)


# --- PostgreSQL ------------------------------------------------------------------------------


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A URL for libpq's tools without the password and without the driver's query options,
    and the environment carrying the password and the TLS mode (`?ssl=` / `?sslmode=`)."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "postgresql+asyncpg"):
        raise BackupError(f"unsupported database URL scheme {parts.scheme!r}")
    netloc = parts.hostname or ""
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if parts.port:
        netloc += f":{parts.port}"
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    env = dict(os.environ)
    if parts.password is not None:
        env["PGPASSWORD"] = unquote(parts.password)
    query = parse_qs(parts.query)
    ssl = (query.get("sslmode") or query.get("ssl") or [""])[-1].lower()
    if ssl in SSL_MODES:
        env["PGSSLMODE"] = ssl
    elif ssl in ("true", "1"):
        env["PGSSLMODE"] = "require"
    return urlunsplit(("postgresql", netloc, parts.path, "", "")), env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(PG_TOOLS_HINT.format(tool=name))
    return found


def _run(command: list[str], env: dict[str, str]) -> None:
    # umask: whatever file the tool creates is its owner's only.
    done = subprocess.run(
        command,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        umask=0o777 & ~PRIVATE_MODE,
    )
    if done.returncode != 0:
        tool = Path(command[0]).name
        raise BackupError(f"{tool} failed (exit {done.returncode}):\n{done.stderr.strip()}")


def _postgres_tables(libpq_url: str, env: dict[str, str]) -> int:
    done = subprocess.run(
        [
            _tool("psql"),
            "--no-psqlrc",
            "--tuples-only",
            "--no-align",
            "--dbname",
            libpq_url,
            "--command",
            "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN "
            "('pg_catalog', 'information_schema')",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BackupError(f"psql could not read the database:\n{done.stderr.strip()}")
    return int(done.stdout.strip())


def backup_postgres(url: str, target: Path, *, overwrite: bool = False) -> Result:
    libpq_url, env = _libpq(url)
    pg_dump = _tool("pg_dump")
    _check_target(target, overwrite)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    private_file(partial)  # pg_dump truncates and fills it, keeping its mode
    # pg_dump reads in one REPEATABLE READ transaction: a consistent snapshot while the server
    # keeps writing. --no-owner/--no-privileges: the dump restores under any role.
    try:
        _run(
            [
                pg_dump,
                "--format=custom",
                "--no-owner",
                "--no-privileges",
                "--file",
                str(partial),
                "--dbname",
                libpq_url,
            ],
            env,
        )
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)
    return Result(target, target.stat().st_size, _postgres_tables(libpq_url, env))


def restore_postgres(url: str, source_file: Path) -> Result:
    libpq_url, env = _libpq(url)
    pg_restore = _tool("pg_restore")
    if _postgres_tables(libpq_url, env):
        raise BackupError(
            "the database is not empty. Restore only into an empty database: create a new one "
            "(createdb NAME) and point AGENCY_DATABASE_URL at it, then restore again."
        )
    _run(
        [
            pg_restore,
            "--no-owner",
            "--no-privileges",
            "--exit-on-error",
            "--single-transaction",
            "--dbname",
            libpq_url,
            str(source_file),
        ],
        env,
    )
    return Result(source_file, source_file.stat().st_size, _postgres_tables(libpq_url, env))


# --- Entry points ----------------------------------------------------------------------------


def backup(url: str, target: Path, *, overwrite: bool = False) -> Result:
    """Write a consistent copy of the database to `target`."""
    if _is_sqlite(url):
        return backup_sqlite(url, target, overwrite=overwrite)
    return backup_postgres(url, target, overwrite=overwrite)


def restore(url: str, source_file: Path) -> Result:
    """Load a backup into the configured database, which must have no tables yet."""
    if not source_file.is_file():
        raise BackupError(f"there is no backup file at {source_file}")
    kind = _file_kind(source_file)
    wanted = "sqlite" if _is_sqlite(url) else "postgres"
    if kind == "unknown":
        raise BackupError(f"{source_file} is neither a SQLite database nor a pg_dump backup")
    if kind != wanted:
        names = {"sqlite": "SQLite", "postgres": "PostgreSQL"}
        raise BackupError(
            f"{source_file} is a {names[kind]} backup and the configured database is "
            f"{names[wanted]}; restore it into a {names[kind]} database"
        )
    if wanted == "sqlite":
        return restore_sqlite(url, source_file)
    return restore_postgres(url, source_file)


def record_run(url: str, ok: bool, size: int | None, seconds: float) -> str | None:
    """Note a backup run in the database's `backup_run` table (`agency status` shows the last
    one): when, whether it worked, the file's size; never its path. Returns why it could not
    be noted (the database away, its tables not migrated yet), or None."""
    import asyncio

    from agency.core import db, operations

    path = sqlite_path(url.split("?", 1)[0]) if _is_sqlite(url) else None
    if _is_sqlite(url) and (path is None or not path.exists()):
        return "no database file"  # never create an empty database to note a failure in

    async def write() -> None:
        await db.init_db(url, [])
        try:
            backend = "sqlite" if _is_sqlite(url) else "postgres"
            await operations.record_backup(ok, backend, size, seconds)
        finally:
            await db.close_db()

    try:
        asyncio.run(write())
    except Exception as exc:
        return type(exc).__name__
    return None
