"""What operators look at to know the program is alive: the job runners' heartbeats and the
record of database backups (`agency status`, `GET /api/health/ready`).

Each job runner (in an `agency serve` process that runs jobs, or an `agency worker`) keeps one
row in `job_runner`, written when it starts and again every `BEAT_SECONDS` by its loop, and
deleted when it stops cleanly. A runner whose row was not written for `ALIVE_WITHIN` is taken
for dead (killed, its machine gone); rows unseen for `FORGET_AFTER` are deleted by retention.

`agency db backup` records each run in `backup_run`: when, whether it worked, the size of the
file and the database's kind; never the file's path nor the database URL (they may hold a
user name or a password)."""

from __future__ import annotations

import contextlib
import os
import socket
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

from tortoise import fields
from tortoise.exceptions import IntegrityError
from tortoise.models import Model

# A runner writes its row this often; one not written for ALIVE_WITHIN (three beats missed)
# is dead, and one not written for FORGET_AFTER is deleted by retention.
BEAT_SECONDS: Final = 10.0
ALIVE_WITHIN: Final = timedelta(seconds=3 * BEAT_SECONDS)
FORGET_AFTER: Final = timedelta(days=1)
Role = Literal["serve", "worker"]
ROLES: Final[tuple[Role, ...]] = ("serve", "worker")


def _now() -> datetime:
    return datetime.now(UTC)


class JobRunnerBeat(Model):
    """One job runner's heartbeat: who it is and when it was last seen looping."""

    worker_id = fields.CharField(max_length=128, primary_key=True)
    host = fields.CharField(max_length=255)
    pid = fields.IntField()
    role = fields.CharField(max_length=16)
    started_at = fields.DatetimeField()
    seen_at = fields.DatetimeField(db_index=True)

    class Meta:
        table = "job_runner"


class BackupRun(Model):
    """One run of `agency db backup`: when it ended, whether it worked and how large the copy."""

    id = fields.IntField(primary_key=True)
    finished_at = fields.DatetimeField(db_index=True)
    ok = fields.BooleanField()
    size = fields.BigIntField(null=True)
    backend = fields.CharField(max_length=16)
    seconds = fields.FloatField(default=0.0)

    class Meta:
        table = "backup_run"


async def beat(worker_id: str, role: Role, started_at: datetime) -> None:
    """Write the runner's heartbeat (its row, created on the first beat)."""
    now = _now()
    if await JobRunnerBeat.filter(worker_id=worker_id).update(seen_at=now):
        return
    with contextlib.suppress(IntegrityError):  # created meanwhile: the beat is there
        await JobRunnerBeat.create(
            worker_id=worker_id,
            host=socket.gethostname()[:255],
            pid=os.getpid(),
            role=role,
            started_at=started_at,
            seen_at=now,
        )


async def forget(worker_id: str) -> None:
    """The runner stopped cleanly: its row goes."""
    await JobRunnerBeat.filter(worker_id=worker_id).delete()


async def alive(now: datetime | None = None) -> list[JobRunnerBeat]:
    """The runners seen within `ALIVE_WITHIN`, the most recently seen first."""
    now = now or _now()
    return await JobRunnerBeat.filter(seen_at__gte=now - ALIVE_WITHIN).order_by("-seen_at")


async def prune(now: datetime) -> int:
    """Delete the rows of runners unseen for `FORGET_AFTER`; returns how many."""
    return await JobRunnerBeat.filter(seen_at__lt=now - FORGET_AFTER).delete()


async def record_backup(ok: bool, backend: str, size: int | None, seconds: float) -> None:
    await BackupRun.create(
        finished_at=_now(), ok=ok, backend=backend[:16], size=size, seconds=round(seconds, 3)
    )


async def last_backup() -> BackupRun | None:
    return await BackupRun.all().order_by("-finished_at", "-id").first()
