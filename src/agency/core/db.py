"""Database set-up: Tortoise ORM on SQLite (default) or PostgreSQL, with native migrations.

One migration tree (`agency.migrations`) applies on both databases: Tortoise renders its
operations per dialect at run time, which aerich's raw-SQL files cannot do.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import sqlite3
import stat
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import asyncpg  # type: ignore[import-untyped]
from tortoise import Tortoise, connections
from tortoise.backends.base import executor
from tortoise.backends.base.config_generator import expand_db_url
from tortoise.exceptions import BaseORMException, DBConnectionError
from tortoise.migrations.api.migrate import migrate as tortoise_migrate
from tortoise.migrations.executor import PlanStep

from agency.core import jobs, mail, operations, ratelimit, sqlite_client

log = logging.getLogger(__name__)

APP_LABEL = "models"
MIGRATIONS_PACKAGE = "agency.migrations"
CORE_MODELS: tuple[ModuleType, ...] = (jobs, mail, ratelimit, operations)
# SQLite waits this long for a lock held by another process instead of failing at once.
SQLITE_BUSY_TIMEOUT_MS = 5000
# Tortoise's SQLite backend with transactions that begin IMMEDIATE (see that module). Imported
# here, not only named, so that PyInstaller bundles it (Tortoise imports engines by name).
SQLITE_ENGINE = sqlite_client.__name__


def normalise_url(url: str) -> str:
    """Accept the usual spellings of a database URL and add SQLite's lock timeout."""
    if url.startswith("postgresql+asyncpg://"):
        url = "postgres://" + url.removeprefix("postgresql+asyncpg://")
    if url.startswith("sqlite://") and url != "sqlite://:memory:" and "busy_timeout" not in url:
        url += ("&" if "?" in url else "?") + f"busy_timeout={SQLITE_BUSY_TIMEOUT_MS}"
    return url


def connection_config(url: str) -> str | dict[str, Any]:
    """One connection's config: PostgreSQL by URL; SQLite through our engine, in WAL mode with
    busy_timeout (Tortoise applies each credential other than the path as a PRAGMA).

    synchronous=NORMAL, SQLite's recommended setting in WAL mode (and Rails' default): no fsync
    per commit, so a burst of writes does not hold readers up; the file is never corrupted, but
    a power cut or OS crash (not a process crash) may lose the last commits. A URL option such
    as `?synchronous=FULL` wins."""
    url = normalise_url(url)
    if not url.startswith("sqlite://"):
        return url
    config = expand_db_url(url)
    config["engine"] = SQLITE_ENGINE
    config["credentials"].setdefault("journal_mode", "WAL")
    config["credentials"].setdefault("synchronous", "NORMAL")
    return config


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL, or None for other databases and in-memory SQLite."""
    if not url.startswith("sqlite://") or url.startswith("sqlite://:memory:"):
        return None
    return Path(urlsplit(url).path if url.startswith("sqlite:///") else url[len("sqlite://") :])


def tortoise_config(url: str, model_modules: Iterable[ModuleType]) -> dict[str, Any]:
    """The Tortoise config dict: one app holding every module's models."""
    names = [module.__name__ for module in (*CORE_MODELS, *model_modules)]
    return {
        "connections": {"default": connection_config(url)},
        "apps": {
            APP_LABEL: {
                "models": names,
                "default_connection": "default",
                "migrations": MIGRATIONS_PACKAGE,
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


# The database holds password hashes and e-mail addresses, its backups too: their files are
# for the owner only (0600), like the secret key. SQLite gives the -wal, -shm and -journal files
# it creates the database file's mode, so creating that file 0600 first is enough.
PRIVATE_MODE = 0o600
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def private_file(path: Path) -> None:
    """Create `path` empty with mode 0600 if it does not exist; take the group's and others'
    access away from it if it does (a database written by an earlier version, 0644)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, PRIVATE_MODE)
    except OSError as exc:  # unreadable or not creatable: whoever opens it next says why
        log.warning("could not make %s private: %s", path, exc)
        return
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode) and mode & 0o077:
            os.fchmod(fd, PRIVATE_MODE)
            log.warning(
                "made %s readable by its owner only (it was %s)", path, oct(stat.S_IMODE(mode))
            )
    except OSError as exc:  # not our file, or a file system without modes: say so, go on
        log.warning("could not make %s private: %s", path, exc)
    finally:
        os.close(fd)


def _prepare(url: str) -> None:
    path = sqlite_path(url.split("?", 1)[0])
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    private_file(path)
    for suffix in SQLITE_SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            private_file(side)


async def init_db(url: str, model_modules: Sequence[ModuleType]) -> None:
    """Open the connections. The global fallback makes the ORM usable from every request task;
    Tortoise 1.x's own Quart helper omits it and every query then fails."""
    _prepare(url)
    # Tortoise caches SQL per connection *name*; a process that opens another database under
    # the same name (the tests switch between SQLite and PostgreSQL) must not reuse it.
    executor.EXECUTOR_CACHE.clear()
    await Tortoise.init(config=tortoise_config(url, model_modules), _enable_global_fallback=True)


async def close_db() -> None:
    await Tortoise.close_connections()


async def generate_schema() -> None:
    """Create tables straight from the models (tests on in-memory SQLite only)."""
    await Tortoise.generate_schemas(safe=True)


async def upgrade(
    url: str,
    model_modules: Sequence[ModuleType],
    progress: Callable[[str], object] | None = None,
) -> list[str]:
    """Apply every pending migration; returns the names applied."""
    _prepare(url)
    applied: list[str] = []

    def report(_connection: str, plan: list[PlanStep], _fake: bool, _dry: bool) -> None:
        for step in plan:
            name = f"{step.migration.app_label}.{step.migration.name}"
            applied.append(name)
            if progress is not None:
                progress(name)

    try:
        await tortoise_migrate(config=tortoise_config(url, model_modules), reporter=report)
    finally:
        await close_db()
    for name in applied:
        log.info("migration applied", extra={"migration": name})
    return applied


async def pending_migrations() -> list[str]:
    """The migrations not yet applied to the open database (`init_db`), by name."""
    from tortoise.migrations.executor import MigrationExecutor

    # Planning reads only the migration files and the table of applied ones: no model list.
    apps: dict[str, dict[str, Any]] = {
        APP_LABEL: {"models": [], "default_connection": "default", "migrations": MIGRATIONS_PACKAGE}
    }
    executor = MigrationExecutor(connections.get("default"), apps)
    return [f"{step.migration.app_label}.{step.migration.name}" for step in await executor.plan()]


async def applied_migrations() -> list[str]:
    """The migrations applied to the open database, by name."""
    from tortoise.migrations.recorder import MigrationRecorder

    return sorted(
        str(key) for key in await MigrationRecorder(connections.get("default")).applied_migrations()
    )


async def ping() -> bool:
    """True when the database answers a trivial query."""
    try:
        await connections.get("default").execute_query("SELECT 1")
    except Exception:
        log.exception("database ping failed")
        return False
    return True


# What says "the database cannot be reached right now", as opposed to a bug or a bad query.
_POSTGRES_UNREACHABLE = (
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08: connection lost, refused, failed
    asyncpg.CannotConnectNowError,  # starting up or shutting down
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)
_SOCKET_ERRNOS = {
    errno.ECONNREFUSED,
    errno.ECONNRESET,
    errno.ECONNABORTED,
    errno.EPIPE,
    errno.EHOSTUNREACH,
    errno.ENETUNREACH,
    errno.ETIMEDOUT,
}
_SQLITE_UNREACHABLE = ("unable to open database", "database is locked", "disk i/o error")
_ASYNCPG_CLOSED = ("connection is closed", "connection was closed", "pool is closing")


def is_unavailable(error: BaseException) -> bool:
    """True when `error`, or what it was raised from, says the database is out of reach (down,
    restarting, unreachable, its file not openable or locked past busy_timeout): a request that
    met it can succeed later, so it answers 503, not 500. Follows `raise ... from` causes, and
    the wrapped error of Tortoise's exceptions, never the context of an unrelated error."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if _unreachable(current):
            return True
        following = current.__cause__
        if following is None and isinstance(current, BaseORMException):
            wrapped = current.args[0] if current.args else None
            following = wrapped if isinstance(wrapped, BaseException) else current.__context__
        current = following
    return False


def _unreachable(error: BaseException) -> bool:
    if isinstance(error, (DBConnectionError, *_POSTGRES_UNREACHABLE, TimeoutError)):
        return True
    if isinstance(error, (ConnectionError, socket.gaierror)):
        return True
    if isinstance(error, OSError) and error.errno in _SOCKET_ERRNOS:
        return True
    message = str(error).lower()
    if isinstance(error, sqlite3.OperationalError):
        return message.startswith(_SQLITE_UNREACHABLE)
    if isinstance(error, asyncpg.InterfaceError):
        return any(text in message for text in _ASYNCPG_CLOSED)
    return False
