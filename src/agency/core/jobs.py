"""A persistent job queue in the database, so work survives restarts and is shared safely by
several server processes: a job is claimed by one conditional UPDATE, which only one process
can win, on SQLite and PostgreSQL alike.

Schedules (work every N hours) use the same queue: each has a row in `job_schedule` holding when
its next run is due. A runner that finds it due moves it one interval on with a conditional
UPDATE (`... WHERE next_run_at <= now`) and, in the same transaction, queues the run as a job.
Only one process's UPDATE can match, so a schedule runs once per period however many server
processes share the database.

A job that fails is retried with back-off until it has had `max_attempts`; a handler that knows
retrying cannot help raises `PermanentFailure`, and one that must record the outcome of its last
try (a mail marked failed) asks `final_attempt()`."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import socket
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from tortoise import fields
from tortoise.exceptions import IntegrityError
from tortoise.models import Model
from tortoise.transactions import in_transaction

from agency.core.modules import JobHandler

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
# A running job whose worker vanished (crash, kill) is retried after this long.
LEASE = timedelta(minutes=5)
MAX_BACKOFF = timedelta(hours=1)
# How often a runner looks whether a schedule is due, and how often a scheduled run is tried.
SCHEDULE_CHECK_SECONDS = 15.0
SCHEDULED_ATTEMPTS = 3

# Whether the job being run is on its last attempt (set by `run_one` around the handler).
_final_attempt: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "agency_job_final_attempt", default=False
)


class PermanentFailure(Exception):
    """Raised by a handler when no retry can succeed: the job fails for good at once."""


def final_attempt() -> bool:
    """Whether the job now running will not be retried if it fails (False outside a job)."""
    return _final_attempt.get()


class Job(Model):
    id = fields.BigIntField(primary_key=True)
    kind = fields.CharField(max_length=64, db_index=True)
    payload: dict[str, Any] = fields.JSONField(default=dict)
    status = fields.CharField(max_length=16, default=QUEUED, db_index=True)
    attempts = fields.IntField(default=0)
    max_attempts = fields.IntField(default=5)
    run_at = fields.DatetimeField(db_index=True)
    locked_by = fields.CharField(max_length=128, null=True)
    locked_until = fields.DatetimeField(null=True)
    last_error = fields.TextField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "job"


class Schedule(Model):
    """When the next run of a periodic job is due (one row per schedule name)."""

    name = fields.CharField(max_length=64, primary_key=True)
    next_run_at = fields.DatetimeField()
    last_run_at = fields.DatetimeField(null=True)

    class Meta:
        table = "job_schedule"


def _now() -> datetime:
    return datetime.now(UTC)


def backoff(attempts: int) -> timedelta:
    """Wait before retry number `attempts`: 10 s, 40 s, 90 s, ... capped at an hour."""
    return min(timedelta(seconds=10 * attempts * attempts), MAX_BACKOFF)


async def enqueue(
    kind: str,
    payload: Mapping[str, Any] | None = None,
    *,
    delay: timedelta = timedelta(0),
    max_attempts: int = 5,
) -> int:
    """Queue a job; returns its id."""
    job = await Job.create(
        kind=kind, payload=dict(payload or {}), run_at=_now() + delay, max_attempts=max_attempts
    )
    return int(job.id)


async def get(job_id: int) -> Job | None:
    return await Job.get_or_none(id=job_id)


async def _claim(worker_id: str, kinds: list[str]) -> Job | None:
    """Take the oldest due job, or a running one whose lease ran out."""
    now = _now()
    candidates = (
        await Job.filter(kind__in=kinds, status=QUEUED, run_at__lte=now)
        .order_by("run_at", "id")
        .limit(5)
    )
    candidates += await Job.filter(kind__in=kinds, status=RUNNING, locked_until__lt=now).limit(2)
    for job in candidates:
        won = await Job.filter(id=job.id, status=job.status, attempts=job.attempts).update(
            status=RUNNING,
            attempts=job.attempts + 1,
            locked_by=worker_id,
            locked_until=now + LEASE,
        )
        if won:
            return await Job.get(id=job.id)
    return None


async def run_one(handlers: Mapping[str, JobHandler], worker_id: str) -> bool:
    """Run one due job if there is one; returns whether a job was run."""
    job = await _claim(worker_id, list(handlers))
    if job is None:
        return False
    final = _final_attempt.set(job.attempts >= job.max_attempts)
    try:
        await handlers[job.kind](job.payload)
    except Exception as exc:
        permanent = isinstance(exc, PermanentFailure)
        retry = job.attempts < job.max_attempts and not permanent
        log.warning(
            "job failed",
            extra={"job_id": job.id, "kind": job.kind, "attempt": job.attempts, "retry": retry},
            exc_info=not permanent,
        )
        await Job.filter(id=job.id, locked_by=worker_id).update(
            status=QUEUED if retry else FAILED,
            run_at=_now() + backoff(job.attempts),
            last_error=f"{type(exc).__name__}: {exc}"[:2000],
            locked_by=None,
            locked_until=None,
        )
    else:
        await Job.filter(id=job.id, locked_by=worker_id).update(
            status=DONE, last_error=None, locked_by=None, locked_until=None
        )
    finally:
        _final_attempt.reset(final)
    return True


async def schedule_due(
    schedules: Mapping[str, timedelta], now: datetime | None = None
) -> list[str]:
    """Queue one run of each schedule whose time has come; returns the names this call queued.

    Safe to call from any number of processes at once: a run is queued only by the caller whose
    conditional UPDATE moved the schedule on. A schedule seen for the first time is due at once.
    """
    if not schedules:
        return []
    now = now or _now()
    rows = {row.name: row for row in await Schedule.filter(name__in=list(schedules))}
    for name in schedules.keys() - rows.keys():
        with contextlib.suppress(IntegrityError):  # another process created it first
            rows[name] = await Schedule.create(name=name, next_run_at=now)
    queued = []
    for name, interval in schedules.items():
        row = rows.get(name) or await Schedule.get(name=name)
        next_run_at = row.next_run_at
        if row.last_run_at is not None and next_run_at - row.last_run_at > interval:
            # The interval was shortened: do not wait out the old, longer one. Counted from the
            # stored last run, never from this process's clock, which may lag another's.
            next_run_at = row.last_run_at + interval
            await Schedule.filter(name=name, next_run_at=row.next_run_at).update(
                next_run_at=next_run_at
            )
        if next_run_at > now:
            continue
        async with in_transaction():
            won = await Schedule.filter(name=name, next_run_at__lte=now).update(
                next_run_at=now + interval, last_run_at=now
            )
            if won:
                await Job.create(
                    kind=name,
                    payload={"scheduled_at": now.isoformat()},
                    run_at=now,
                    max_attempts=SCHEDULED_ATTEMPTS,
                )
        if won:
            queued.append(name)
            log.info("scheduled job queued", extra={"kind": name})
    return queued


class JobRunner:
    """Polls the queue in the background of a server process, and queues scheduled runs.

    handlers: the job kinds this runner runs. schedules: name -> interval of the periodic jobs
    it queues when due (each name must also be a kind in `handlers`). is_outage: tells an
    error that means the database is out of reach (the runner then logs one warning per outage
    instead of a traceback every poll).
    """

    def __init__(
        self,
        handlers: Mapping[str, JobHandler],
        poll_seconds: float = 1.0,
        schedules: Mapping[str, timedelta] | None = None,
        is_outage: Callable[[BaseException], bool] = lambda _error: False,
    ) -> None:
        self.handlers = dict(handlers)
        self.is_outage = is_outage
        self._in_outage = False
        self.poll_seconds = poll_seconds
        self.schedules = dict(schedules or {})
        missing = self.schedules.keys() - self.handlers.keys()
        if missing:
            raise ValueError(f"schedules without a handler: {sorted(missing)}")
        self._next_schedule_check = 0.0
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def start(self) -> None:
        if self.handlers and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="job-runner")

    def wake(self) -> None:
        """Look at the queue now instead of at the next poll."""
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def drain(self) -> int:
        """Run every due job now; returns how many ran (used by the CLI and tests)."""
        count = 0
        while await run_one(self.handlers, self.worker_id):
            count += 1
        return count

    async def _loop(self) -> None:
        while True:
            try:
                if self.schedules and time.monotonic() >= self._next_schedule_check:
                    self._next_schedule_check = time.monotonic() + SCHEDULE_CHECK_SECONDS
                    await schedule_due(self.schedules)
                await self.drain()
                if self._in_outage:
                    log.info("job runner: the database answers again")
                    self._in_outage = False
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not self.is_outage(error):
                    log.exception("job runner error")
                elif not self._in_outage:
                    self._in_outage = True
                    log.warning("job runner: the database is out of reach (%s); retrying", error)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
