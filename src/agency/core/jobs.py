"""A persistent job queue in the database, so work survives restarts and is shared safely by
several server processes: a job is claimed by one conditional UPDATE, which only one process
can win, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from tortoise import fields
from tortoise.models import Model

from agency.core.modules import JobHandler

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
# A running job whose worker vanished (crash, kill) is retried after this long.
LEASE = timedelta(minutes=5)
MAX_BACKOFF = timedelta(hours=1)


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
    try:
        await handlers[job.kind](job.payload)
    except Exception as exc:
        retry = job.attempts < job.max_attempts
        log.warning(
            "job failed",
            extra={"job_id": job.id, "kind": job.kind, "attempt": job.attempts, "retry": retry},
            exc_info=True,
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
    return True


class JobRunner:
    """Polls the queue in the background of a server process."""

    def __init__(self, handlers: Mapping[str, JobHandler], poll_seconds: float = 1.0) -> None:
        self.handlers = dict(handlers)
        self.poll_seconds = poll_seconds
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
                await self.drain()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("job runner error")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
