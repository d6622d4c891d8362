"""Readiness: whether this process should be sent traffic (`GET /api/health/ready`).

Three checks, each named with its state in the answer:
- database: it answers a trivial query;
- migrations: none is pending (a server started with `--no-migrate` on an older schema, or
  another machine upgraded the code first). A positive answer is kept for
  `MIGRATIONS_OK_FOR` seconds: migrations do not go back to pending, and the check reads the
  migration files and a table;
- jobs: a job runner is alive. In a process that runs jobs itself (`AGENCY_RUN_JOBS`), its own
  runner's loop went round within `LOOP_STALE_SECONDS`; otherwise some runner's heartbeat
  (`agency.core.operations`) is recent: an `agency worker` somewhere runs the queue.

Liveness (`GET /api/health/live`) checks nothing: the process answers.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Final

from agency.core import db, operations
from agency.core.jobs import JobRunner

log = logging.getLogger(__name__)

MIGRATIONS_OK_FOR: Final = 30.0
# A runner's loop goes round at least every poll (a second by default); one not seen going
# round for this long is stuck.
LOOP_STALE_SECONDS: Final = 30.0

_migrations_ok_until = 0.0


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    state: str


def reset() -> None:
    """Forget the cached positive migration check (tests)."""
    global _migrations_ok_until
    _migrations_ok_until = 0.0


async def _database() -> Check:
    ok = await db.ping()
    return Check("database", ok, "answers" if ok else "unreachable")


async def _migrations() -> Check:
    global _migrations_ok_until
    if time.monotonic() < _migrations_ok_until:
        return Check("migrations", True, "applied")
    try:
        pending = await db.pending_migrations()
    except Exception as error:
        log.warning("readiness: could not read the applied migrations: %s", type(error).__name__)
        return Check("migrations", False, "unknown")
    if pending:
        return Check("migrations", False, f"{len(pending)} pending")
    _migrations_ok_until = time.monotonic() + MIGRATIONS_OK_FOR
    return Check("migrations", True, "applied")


async def _jobs(runner: JobRunner | None, runs_jobs: bool) -> Check:
    if runs_jobs and runner is not None:
        last = runner.last_loop
        if last is not None and time.monotonic() - last < LOOP_STALE_SECONDS:
            return Check("jobs", True, "this process runs them")
        return Check("jobs", False, "this process's job runner is not running")
    try:
        alive = await operations.alive()
    except Exception as error:
        log.warning("readiness: could not read the job runners: %s", type(error).__name__)
        return Check("jobs", False, "unknown")
    if alive:
        return Check("jobs", True, f"{len(alive)} runner(s) alive")
    return Check("jobs", False, "no job runner seen recently")


async def readiness(runner: JobRunner | None, runs_jobs: bool) -> list[Check]:
    """The three checks; the later two are `not checked` while the database is away."""
    database = await _database()
    if not database.ok:
        return [
            database,
            Check("migrations", False, "not checked"),
            Check("jobs", False, "not checked"),
        ]
    return [database, await _migrations(), await _jobs(runner, runs_jobs)]
