"""A persistent job queue in the database, so work survives restarts and is shared safely by
several server and worker processes, on one machine or many: a job is claimed in a transaction
that only one process can win (`claim`: `FOR UPDATE SKIP LOCKED` on PostgreSQL, an IMMEDIATE
transaction on SQLite), and run by exactly one runner at a time.

A runner runs several jobs at once (asyncio tasks): `jobs_concurrency` of the kinds without a
limit of their own, plus up to its limit of each kind that declares one (`JobOptions`), and never
more of a kind than its per-host limit on one machine. A running job holds a lease that its
runner renews (heartbeat); a job whose runner died (crash, SIGKILL) is taken over by another
when the lease runs out: a minute unless its kind declares another.

A runner remembers what the database has not heard from it. A database cut can land between a
claim's commit and its answer (the rows are running, leased to this runner, which never saw
them), or take away a job's outcome or a stopped job's give-back: each is written again as soon
as the database answers (each poll, for `SETTLE_FOR` at most), so such jobs run again within a
poll of the database's return instead of waiting for their lease.

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
import re
import socket
import time
import weakref
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal, TypeVar

from tortoise import connections, fields
from tortoise.backends.base.client import TransactionalDBClient
from tortoise.exceptions import IntegrityError
from tortoise.expressions import F, Q
from tortoise.models import Model
from tortoise.transactions import in_transaction

from agency.core import error_reports, metrics, operations
from agency.core.errors import NotFound
from agency.core.modules import JobHandler, JobOptions

log = logging.getLogger(__name__)

QUEUED: Final = "queued"
RUNNING: Final = "running"
DONE: Final = "done"
FAILED: Final = "failed"
# A running job whose worker vanished (crash, kill) is retried after this long, unless its
# kind declares its own lease (`JobOptions.lease`). Short, so that a dead worker's e-mail is
# sent within about a minute; the heartbeat renews it every third while a job runs, so a slow
# one (an SMTP server taking its time) is never taken over from a live worker.
LEASE = timedelta(seconds=60)
# A heartbeat that failed (the database away) tries again this soon, not a third of the lease
# later, so a job's lease is renewed within a second or so of the database's return.
HEARTBEAT_RETRY_SECONDS = 1.0
# How long a runner keeps trying to write what a database outage kept from it (a claim's
# give-back, a job's outcome) before leaving those jobs to their lease.
SETTLE_FOR = timedelta(minutes=15)
# Jobs of the kinds without a limit of their own that one runner runs at once.
DEFAULT_CONCURRENCY = 16
MAX_BACKOFF = timedelta(hours=1)
# How often a runner looks whether a schedule is due, and how often a scheduled run is tried.
SCHEDULE_CHECK_SECONDS = 15.0
SCHEDULED_ATTEMPTS = 3
# After a wake-up, how long the runner waits for more before it claims (see `_loop`).
WAKE_SETTLE_SECONDS = 0.1
# How long `stop` lets a claim in flight finish before cancelling the loop anyway (a database
# that does not answer must not hold a shutdown).
STOP_CLAIM_SECONDS = 5.0

# Whether the job being run is on its last attempt (set in each job's task by the runner).
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


# ---------------------------------------------------------------------------------------------
# Tracked runs: a feature's own row (a speed test, an analysis, a generation, a site's check)
# that a job works on, with `status` (queued, running, done, failed), `error`, `created_at`,
# `finished_at` and, when a job runs it, `started_at`. One lifecycle for all of them:
# `status_of` reads the status for the API, `start_run`/`TrackedRun.start` mark a row running
# by a compare-and-swap, the run then writes its end (`finish`, `fail`) or goes back to the
# queue (`requeue`) only while it still owns the row, and `fail_stale` ends a row left
# unfinished longer than any job could take.

Status = Literal["queued", "running", "done", "failed"]


def status_of(value: str) -> Status:
    """A tracked row's status as the API shows it (an unknown value reads as failed)."""
    known: tuple[Status, ...] = ("queued", "running", "done", "failed")
    for status in known:
        if value == status:
            return status
    return "failed"


def run_alive(row: Any, run_limit: timedelta, now: datetime | None = None) -> bool:
    """The stale-run rule: a row running, started less than `run_limit` ago, is held by a live
    runner; one started longer ago is a dead runner's and may be taken over."""
    now = now or _now()
    return row.status == RUNNING and row.started_at is not None and row.started_at > now - run_limit


def is_stale(row: Any, stale_after: timedelta, now: datetime | None = None) -> bool:
    """Unfinished (queued or running) though asked for longer than `stale_after` ago: no job
    can still end it."""
    now = now or _now()
    return row.status in (QUEUED, RUNNING) and row.created_at < now - stale_after


async def fail_stale(
    model_class: type[Model], stale_after: timedelta, message: str, /, **match: Any
) -> int:
    """Mark failed (with `message`) the rows matching `match` that `is_stale` says no job can
    end any more; returns how many were."""
    now = _now()
    return await model_class.filter(
        status__in=[QUEUED, RUNNING], created_at__lt=now - stale_after, **match
    ).update(status=FAILED, error=message, finished_at=now)


_PUBLIC_ID = re.compile(r"[0-9a-f]{32}")
TrackedRow = TypeVar("TrackedRow", bound=Model)


async def read_tracked(
    model_class: type[TrackedRow],
    public_id: str,
    *,
    stale_after: timedelta,
    stale_message: str,
    not_found: str,
) -> TrackedRow:
    """The tracked row a public id (32 hex digits) names, as the API reads it: `NotFound` with
    `not_found` when there is none, and a row no job can end any more (`is_stale`) failed with
    `stale_message` first."""
    row = None
    if _PUBLIC_ID.fullmatch(public_id):
        row = await model_class.get_or_none(public_id=public_id)
    if row is None:
        raise NotFound(not_found)
    if is_stale(row, stale_after):
        await fail_stale(model_class, stale_after, stale_message, id=row.pk)
        left: Any = row  # every tracked model has `status`; Model does not declare it
        log.warning(
            "%s %s was left %s; marked failed", model_class.__name__, public_id, left.status
        )
        row = await model_class.get(id=row.pk)
    return row


async def start_run(
    model_class: type[Model], row: Any, run_limit: timedelta, /, **also: Any
) -> datetime | None:
    """Mark a tracked row as running by this run, and return the run's `started_at`; the run's
    later writes match on it, so a runner holding a stale copy of the row writes nothing.

    None when another runner holds the row (`run_alive`: a dead runner's row is older) or took
    it between the caller's read and this update (a compare-and-swap on status and
    `started_at`). `also`: more columns to set with it."""
    started = _now()
    if run_alive(row, run_limit, started):
        return None
    won = await model_class.filter(id=row.id, status=row.status, started_at=row.started_at).update(
        status=RUNNING, started_at=started, **also
    )
    return started if won else None


@dataclass(frozen=True)
class TrackedRun:
    """One run of a job on a tracked row (`start`). Its writes match on the row still running
    with this run's `started_at`: after another runner took the row over, or after it ended,
    they write nothing and say so (False)."""

    model_class: type[Model]
    row_id: int
    started: datetime

    @classmethod
    async def start(
        cls, model_class: type[Model], row: Any, run_limit: timedelta, /, **also: Any
    ) -> TrackedRun | None:
        """`start_run` as a `TrackedRun`; None when another runner holds the row."""
        started = await start_run(model_class, row, run_limit, **also)
        return None if started is None else cls(model_class, int(row.id), started)

    def _mine(self) -> Any:
        return self.model_class.filter(id=self.row_id, status=RUNNING, started_at=self.started)

    async def finish(self, **columns: Any) -> bool:
        """The run succeeded: status done, no error, `finished_at` now, and `columns`."""
        return bool(
            await self._mine().update(status=DONE, error=None, finished_at=_now(), **columns)
        )

    async def fail(self, message: str) -> bool:
        """The run failed for good: status failed, `message` the error the user sees."""
        return bool(await self._mine().update(status=FAILED, error=message, finished_at=_now()))

    async def requeue(self) -> bool:
        """The run was cancelled (its runner stops, the job goes back to the queue) or will be
        retried: the row is queued again, for the job's next run."""
        return bool(await self._mine().update(status=QUEUED))


async def enqueue(
    kind: str,
    payload: Mapping[str, Any] | None = None,
    *,
    delay: timedelta = timedelta(0),
    max_attempts: int = 5,
) -> int:
    """Queue a job; returns its id. The runners of this process are woken once the job can be
    seen (`wake_local_runners`): at once, or when the transaction it was queued in commits."""
    job = await Job.create(
        kind=kind, payload=dict(payload or {}), run_at=_now() + delay, max_attempts=max_attempts
    )
    if delay <= timedelta(0):
        after_commit(wake_local_runners)
    return int(job.id)


# The runners started in this process and not stopped (`JobRunner.start`, `stop`).
_local_runners: weakref.WeakSet[JobRunner] = weakref.WeakSet()


def wake_local_runners() -> None:
    """Wake the runners of this process that run on this event loop: each looks at the queue
    at once (after `WAKE_SETTLE_SECONDS`) instead of at its next poll."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    for runner in list(_local_runners):
        if runner.loop is loop:
            runner.wake()


def after_commit(callback: Callable[[], None]) -> None:
    """Call `callback` when what the caller wrote is committed: at once outside a transaction,
    after the outermost transaction's commit inside one, never if it rolls back. (A runner
    woken before the commit would find nothing yet and wait for its next poll.)"""
    client: Any = connections.get("default")
    if not isinstance(client, TransactionalDBClient):
        callback()
        return
    while isinstance(getattr(client, "_parent", None), TransactionalDBClient):
        client = client._parent  # a nested transaction (a savepoint): its outermost one commits
    callbacks: list[Callable[[], None]] | None = getattr(client, "_agency_after_commit", None)
    if callbacks is None:
        callbacks = []
        commit = client.commit

        async def commit_then_call() -> None:
            await commit()
            for call in callbacks:
                call()

        try:
            client.commit = commit_then_call
            client._agency_after_commit = callbacks
        except AttributeError:  # a client that takes no attributes: call it now, harmless
            callback()
            return
    if callback not in callbacks:
        callbacks.append(callback)


async def get(job_id: int) -> Job | None:
    return await Job.get_or_none(id=job_id)


def host_prefix() -> str:
    """What every worker id of this machine starts with (the per-host limits count by it)."""
    return f"{socket.gethostname()}:"


class Budget:
    """How many more jobs of each kind a runner may claim now.

    per_kind: kind -> at most this many more. shared_kinds: the kinds that also draw on one
    common allowance, `shared` (the process's `jobs_concurrency` slots).
    """

    def __init__(self, per_kind: Mapping[str, int], shared_kinds: set[str], shared: int) -> None:
        self.per_kind = {kind: max(0, n) for kind, n in per_kind.items()}
        self.shared_kinds = frozenset(shared_kinds)
        self.shared = max(0, shared)

    def kinds(self) -> list[str]:
        return [
            kind
            for kind, n in self.per_kind.items()
            if n > 0 and (kind not in self.shared_kinds or self.shared > 0)
        ]

    def total(self) -> int:
        own = sum(n for kind, n in self.per_kind.items() if kind not in self.shared_kinds)
        shared = sum(n for kind, n in self.per_kind.items() if kind in self.shared_kinds)
        return own + min(shared, self.shared)

    def take(self, kind: str) -> bool:
        """Count one job of `kind` as claimed, if the budget allows it."""
        if self.per_kind.get(kind, 0) <= 0:
            return False
        if kind in self.shared_kinds:
            if self.shared <= 0:
                return False
            self.shared -= 1
        self.per_kind[kind] -= 1
        return True


def _due(now: datetime) -> Q:
    """Queued and due, or running with its lease run out (its worker died)."""
    return Q(status=QUEUED, run_at__lte=now) | Q(status=RUNNING, locked_until__lt=now)


LOST_MESSAGE = "its worker stopped while running it (lease expired), on its last attempt too"


async def claim(
    worker_id: str,
    budget: Budget,
    options: Mapping[str, JobOptions] | None = None,
    *,
    claiming: set[int] | None = None,
    skip: Collection[int] = (),
) -> list[Job]:
    """Take due jobs within `budget` (oldest first) for `worker_id`; returns them, running.

    PostgreSQL: `SELECT ... FOR UPDATE SKIP LOCKED` in a transaction, so workers claiming at
    the same time (on any machine) each take other rows instead of waiting for one another.
    SQLite has no row locks: the transaction begins IMMEDIATE (see `sqlite_client`), which
    makes one process at a time the writer, so the rows it reads stay what it read until it
    commits. A kind with a per-host limit counts the runs locked by this machine's workers
    inside the same transaction (on PostgreSQL behind an advisory lock for host and kind), so
    two processes of one machine never both take the last place.
    A job lost with its worker is run again; one lost on every attempt and its extra one is
    failed for good.

    claiming: receives the ids of the jobs taken before the transaction commits, so a caller
    whose commit's answer is lost (a connection cut) knows which rows may be leased to it.
    skip: ids never taken (the caller's own runs, still going here after their lease ran out
    during a database outage: taken again they would run twice in one process).
    """
    options = options or {}
    kinds = budget.kinds()
    if not kinds:
        return []
    now = _now()
    # A cheap look first: an idle queue costs one read, and no write lock on SQLite.
    due = Job.filter(_due(now), kind__in=kinds)
    if skip:
        due = due.exclude(id__in=list(skip))
    if not await due.exists():
        return []
    postgres = connections.get("default").capabilities.dialect == "postgres"
    host = host_prefix()
    async with in_transaction() as tx:
        for kind in kinds:
            per_host = options[kind].per_host if kind in options else None
            if per_host is None:
                continue
            if postgres:
                await tx.execute_query(
                    "SELECT pg_advisory_xact_lock(hashtext($1))", [f"agency.jobs|{host}|{kind}"]
                )
            here = (
                await Job.filter(
                    kind=kind, status=RUNNING, locked_by__startswith=host, locked_until__gte=now
                )
                .using_db(tx)
                .count()
            )
            budget.per_kind[kind] = min(budget.per_kind[kind], per_host - here)
        kinds = budget.kinds()
        if not kinds:
            return []
        query = Job.filter(_due(now), kind__in=kinds)
        if skip:
            query = query.exclude(id__in=list(skip))
        query = query.order_by("run_at", "id").limit(budget.total()).using_db(tx)
        if postgres:
            query = query.select_for_update(skip_locked=True)
        rows = await query
        lost = [r.id for r in rows if r.status == RUNNING and r.attempts > r.max_attempts]
        if lost:
            await (
                Job.filter(id__in=lost)
                .using_db(tx)
                .update(status=FAILED, last_error=LOST_MESSAGE, locked_by=None, locked_until=None)
            )
            log.warning("jobs lost with their workers on every attempt", extra={"jobs": lost})
        picked: dict[str, list[int]] = {}
        for row in rows:
            if row.id not in lost and budget.take(row.kind):
                picked.setdefault(row.kind, []).append(row.id)
        if claiming is not None:
            claiming.update(i for group in picked.values() for i in group)
        for kind, ids in picked.items():
            lease = _lease(options.get(kind))
            await (
                Job.filter(id__in=ids)
                .using_db(tx)
                .update(
                    status=RUNNING,
                    attempts=F("attempts") + 1,
                    locked_by=worker_id,
                    locked_until=now + lease,
                )
            )
        ids = [i for group in picked.values() for i in group]
        claimed = await Job.filter(id__in=ids).order_by("run_at", "id").using_db(tx) if ids else []
        # Rows still running when read had their lease run out: taken over here, or failed.
        expired = [r.kind for r in rows if r.status == RUNNING and (r.id in lost or r.id in ids)]
    metrics.lease_expired(expired)
    return list(claimed)


def _lease(options: JobOptions | None) -> timedelta:
    return options.lease if options is not None and options.lease is not None else LEASE


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
    """Runs the queue's jobs in the background of a process, several at once, and queues
    scheduled runs.

    handlers: the job kinds this runner runs. schedules: name -> interval of the periodic jobs
    it queues when due (each name must also be a kind in `handlers`). is_outage: tells an
    error that means the database is out of reach (the runner then logs one warning per outage
    instead of a traceback every poll). options: how some kinds run (`JobOptions`: their own
    limit, a per-host limit, a lease). concurrency: how many jobs of the kinds without a limit
    of their own run at once (the setting `jobs_concurrency`); a kind with a limit runs up to
    it besides, so a burst of one kind never holds up another's queue.

    Each running job has a heartbeat renewing its lease every third of it; a job whose lease
    was taken over meanwhile (this process stalled longer than the lease) is cancelled here,
    and its outcome is not recorded.

    What a database outage kept it from writing waits in the runner and is written at the start
    of each poll (`_settle`): the jobs a claim took whose answer was lost, and the jobs stopped
    here whose give-back failed, go back to the queue (due at once, the attempt not counted);
    a job's outcome that could not be recorded (done, or failed and due for its retry) is
    recorded.
    """

    def __init__(
        self,
        handlers: Mapping[str, JobHandler],
        poll_seconds: float = 1.0,
        schedules: Mapping[str, timedelta] | None = None,
        is_outage: Callable[[BaseException], bool] = lambda _error: False,
        *,
        options: Mapping[str, JobOptions] | None = None,
        concurrency: int = DEFAULT_CONCURRENCY,
    ) -> None:
        self.handlers = dict(handlers)
        self.is_outage = is_outage
        self._in_outage = False
        self.poll_seconds = poll_seconds
        self.schedules = dict(schedules or {})
        missing = self.schedules.keys() - self.handlers.keys()
        if missing:
            raise ValueError(f"schedules without a handler: {sorted(missing)}")
        self.options = dict(options or {})
        unknown = self.options.keys() - self.handlers.keys()
        if unknown:
            raise ValueError(f"job options without a handler: {sorted(unknown)}")
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.concurrency = concurrency
        self._next_schedule_check = 0.0
        self.worker_id = f"{host_prefix()}{os.getpid()}:{id(self):x}"
        self._task: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the one it runs on (`start`)
        self._wake = asyncio.Event()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._running: Counter[str] = Counter()
        self._lost: set[int] = set()
        self._stopping = False
        # Written when the database answers again (see `_settle`): jobs leased to this runner
        # that it is not running, and outcomes of jobs it ran (job id -> the columns to set).
        self._give_back: set[int] = set()
        self._unrecorded: dict[int, dict[str, Any]] = {}
        self._unsettled_since: float | None = None
        self._settle_failing = False
        # The heartbeat row (`agency.core.operations`): what kind of process runs this runner,
        # since when, when it is next written; `last_loop`: when the loop last went round
        # (monotonic; the readiness check of a server that runs its own jobs reads it).
        self.role: operations.Role = "worker"
        self.started_at: datetime | None = None
        self._next_beat = 0.0
        self._beat_failing = False
        self.last_loop: float | None = None

    @property
    def running(self) -> int:
        """How many jobs this runner is running now."""
        return len(self._tasks)

    def start(self, role: operations.Role = "worker") -> None:
        """Run in the background of this event loop; `enqueue` wakes the runner from now on.
        role: what the process is (its heartbeat says so): `serve` in a server's processes."""
        if self.handlers and self._task is None:
            self.role = role
            self.started_at = _now()
            self._next_beat = 0.0
            self.loop = asyncio.get_running_loop()
            self._task = self.loop.create_task(self._loop(), name="job-runner")
            _local_runners.add(self)

    def wake(self) -> None:
        """Look at the queue now instead of at the next poll."""
        self._wake.set()

    def lease(self, kind: str) -> timedelta:
        """How long a job of `kind` stays leased to its runner without a heartbeat."""
        return _lease(self.options.get(kind))

    @property
    def unsettled(self) -> int:
        """How many jobs wait for the database to hear their give-back or outcome."""
        return len(self._give_back) + len(self._unrecorded)

    async def stop(self, grace: float = 0.0) -> None:
        """Stop claiming; give running jobs `grace` seconds to finish, then cancel them and
        put them back in the queue (due at once, the interrupted attempt not counted), so
        another runner takes them without waiting for their lease."""
        _local_runners.discard(self)
        if self._task is not None:
            # Not a plain cancel: one landing while a claim commits would leave the claimed
            # rows running with no task here, stuck until their lease ran out. The loop stops
            # at its next turn, after starting what a claim in flight took.
            self._stopping = True
            self._wake.set()
            await asyncio.wait({self._task}, timeout=STOP_CLAIM_SECONDS)
            if not self._task.done():
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
            self._stopping = False
            await self._forget()
        tasks = list(self._tasks.values())
        if tasks:
            if grace > 0:
                await asyncio.wait(tasks, timeout=grace)
            unfinished = [task for task in tasks if not task.done()]
            for task in unfinished:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if unfinished:
                log.info("job runner: %d running job(s) put back in the queue", len(unfinished))
        await self._settle_before_exit()

    async def _settle_before_exit(self) -> None:
        """One last try at what an outage kept from the database; the rest waits for its
        lease (a stop must not wait on a database that does not answer)."""
        if not self.unsettled:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(STOP_CLAIM_SECONDS):
                await self._settle()
        if self.unsettled:
            log.warning(
                "job runner stopped with %d job(s) the database did not hear back about; "
                "they run again when their lease runs out",
                self.unsettled,
                extra={"jobs": sorted(self._give_back | self._unrecorded.keys())},
            )

    async def poll(self) -> int:
        """Write what an outage held back (`_settle`), then claim due jobs up to the free slots
        and start them; returns how many started."""
        await self._settle()
        taking: set[int] = set()
        try:
            claimed = await claim(
                self.worker_id,
                self._budget(),
                self.options,
                claiming=taking,
                skip=self._tasks.keys() | self._unrecorded.keys(),
            )
        except BaseException:
            # The commit may have reached the database and only its answer been lost (the
            # connection cut on the way back): those rows are running, leased to this runner,
            # which will not run them. They go back as soon as the database answers. (If the
            # commit never arrived, the give-back matches nothing.)
            if taking:
                log.warning(
                    "job runner: a claim failed after taking %d job(s); they go back to the "
                    "queue when the database answers",
                    len(taking),
                    extra={"jobs": sorted(taking)},
                )
                self._defer_give_back(taking)
            raise
        for job in claimed:
            self._give_back.discard(job.id)  # taken again (its lease ran out): it runs now
            self._start(job)
        return len(claimed)

    async def drain(self) -> int:
        """Run every due job now and wait for them; returns how many ran (the CLI, tests)."""
        count = 0
        while True:
            count += await self.poll()
            if not self._tasks:
                return count
            await asyncio.wait(list(self._tasks.values()), return_when=asyncio.FIRST_COMPLETED)

    def _budget(self) -> Budget:
        limited = {k: o.limit for k, o in self.options.items() if o.limit is not None}
        shared_kinds = self.handlers.keys() - limited.keys()
        per_kind = {
            kind: (limited[kind] - self._running[kind]) if kind in limited else self.concurrency
            for kind in self.handlers
        }
        shared = self.concurrency - sum(self._running[kind] for kind in shared_kinds)
        return Budget(per_kind, set(shared_kinds), shared)

    def _start(self, job: Job) -> None:
        self._running[job.kind] += 1
        task = asyncio.get_running_loop().create_task(self._run(job), name=f"job-{job.id}")
        self._tasks[job.id] = task
        task.add_done_callback(lambda _task: self._finished(job))

    def _finished(self, job: Job) -> None:
        self._tasks.pop(job.id, None)
        self._lost.discard(job.id)
        self._running[job.kind] -= 1
        self._wake.set()

    async def _run(self, job: Job) -> None:
        _final_attempt.set(job.attempts >= job.max_attempts)  # this task's own context
        this = asyncio.current_task()
        assert this is not None
        heartbeat = asyncio.get_running_loop().create_task(
            self._heartbeat(job, this), name=f"job-{job.id}-heartbeat"
        )
        try:
            await self.handlers[job.kind](job.payload)
        except asyncio.CancelledError:
            if job.id in self._lost:
                return  # another runner has it now: its outcome is that runner's to record
            heartbeat.cancel()
            await self._release(job)
            raise
        except Exception as exc:
            heartbeat.cancel()
            await self._record(job, exc)
        else:
            heartbeat.cancel()
            await self._record(job, None)
        finally:
            heartbeat.cancel()

    async def _record(self, job: Job, exc: Exception | None) -> None:
        if exc is None:
            outcome: dict[str, Any] = {"status": DONE, "last_error": None}
            metrics.job_run(job.kind, "done")
        else:
            permanent = isinstance(exc, PermanentFailure)
            retry = job.attempts < job.max_attempts and not permanent
            metrics.job_run(job.kind, "retry" if retry else "failed")
            log.warning(
                "job failed",
                extra={"job_id": job.id, "kind": job.kind, "attempt": job.attempts, "retry": retry},
                exc_info=exc if not permanent else None,
            )
            if not retry and not permanent and not self.is_outage(exc):
                # Reported once, on the last attempt (see agency.core.error_reports).
                error_reports.capture(exc, job_kind=job.kind)
            # A handler that met a database outage fails like any other: its normal retry.
            outcome = {
                "status": QUEUED if retry else FAILED,
                "run_at": _now() + backoff(job.attempts),
                "last_error": f"{type(exc).__name__}: {exc}"[:2000],
            }
        outcome.update(locked_by=None, locked_until=None)
        try:
            await Job.filter(id=job.id, locked_by=self.worker_id).update(**outcome)
        except Exception as error:
            # Most likely the database that the handler met away as well: recorded when it
            # answers again (`_settle`), rather than the job left running until its lease ends.
            log.warning(
                "job outcome not recorded yet (%s); written when the database answers",
                error,
                extra={"job_id": job.id, "kind": job.kind},
            )
            self._defer_outcome(job.id, outcome)

    async def _release(self, job: Job) -> None:
        try:
            await self._give_back_now([job.id])
        except Exception as error:
            log.warning(
                "job not put back in the queue yet (%s); put back when the database answers",
                error,
                extra={"job_id": job.id},
            )
            self._defer_give_back([job.id])

    async def _give_back_now(self, ids: list[int]) -> int:
        """Put jobs leased to this runner back in the queue: due at once, the attempt not
        counted (it never ran, or was cut short here). Returns how many were."""
        return await Job.filter(id__in=ids, locked_by=self.worker_id, status=RUNNING).update(
            status=QUEUED,
            attempts=F("attempts") - 1,
            run_at=_now(),
            locked_by=None,
            locked_until=None,
        )

    def _defer_give_back(self, ids: Collection[int]) -> None:
        self._give_back.update(ids)
        self._unsettled()

    def _defer_outcome(self, job_id: int, outcome: dict[str, Any]) -> None:
        self._unrecorded[job_id] = outcome
        self._unsettled()

    def _unsettled(self) -> None:
        if self._unsettled_since is None:
            self._unsettled_since = time.monotonic()
        self._wake.set()  # try at once: the outage may already be over

    async def _settle(self) -> None:
        """Write the give-backs and outcomes an outage held back. Failing (the database still
        away), they wait for the next poll, for `SETTLE_FOR` at most: after that, their lease
        (long run out) lets any runner take them over. Never raises: a claim may still
        succeed."""
        if not self.unsettled:
            return
        try:
            for job_id, outcome in list(self._unrecorded.items()):
                await Job.filter(id=job_id, locked_by=self.worker_id).update(**outcome)
                del self._unrecorded[job_id]
                log.info("job outcome recorded after all", extra={"job_id": job_id})
            self._give_back -= self._tasks.keys()  # running here after all: never given back
            ids = sorted(self._give_back)
            if ids:
                count = await self._give_back_now(ids)
                self._give_back.difference_update(ids)
                log.info(
                    "job runner: %d job(s) it held but did not run put back in the queue",
                    count,
                    extra={"jobs": ids},
                )
        except Exception as error:
            since = self._unsettled_since or time.monotonic()
            if time.monotonic() - since > SETTLE_FOR.total_seconds():
                log.error(
                    "job runner: gave up writing %d job(s) back after %s; their lease lets "
                    "another runner take them over (%s)",
                    self.unsettled,
                    SETTLE_FOR,
                    error,
                    extra={"jobs": sorted(self._give_back | self._unrecorded.keys())},
                )
                self._give_back.clear()
                self._unrecorded.clear()
            elif not self._settle_failing:
                self._settle_failing = True
                log.warning(
                    "job runner: %d job(s) wait for the database to hear back (%s); retrying "
                    "each poll",
                    self.unsettled,
                    error,
                )
            if self.unsettled:
                return
        self._unsettled_since = None
        self._settle_failing = False

    async def _heartbeat(self, job: Job, task: asyncio.Task[None]) -> None:
        lease = self.lease(job.kind)
        every = lease.total_seconds() / 3
        failing = False
        while True:
            await asyncio.sleep(min(HEARTBEAT_RETRY_SECONDS, every) if failing else every)
            try:
                kept = await Job.filter(id=job.id, locked_by=self.worker_id, status=RUNNING).update(
                    locked_until=_now() + lease
                )
            except Exception as error:
                if not failing:  # once per outage, not every retry
                    log.warning("job heartbeat failed: %s", error, extra={"job_id": job.id})
                failing = True
                continue
            failing = False
            if not kept:
                log.warning(
                    "job lease lost to another runner; stopped here",
                    extra={"job_id": job.id, "kind": job.kind},
                )
                self._lost.add(job.id)
                task.cancel()
                return

    async def _beat(self) -> None:
        """Write this runner's heartbeat when it is due. Never raises: a heartbeat that cannot
        be written (the database away, the table not migrated yet) must not stop the jobs."""
        if time.monotonic() < self._next_beat:
            return
        self._next_beat = time.monotonic() + operations.BEAT_SECONDS
        try:
            await operations.beat(self.worker_id, self.role, self.started_at or _now())
        except Exception as error:
            if not self._beat_failing:  # once until it works again
                self._beat_failing = True
                log.warning("job runner: heartbeat not written (%s)", error)
            self._next_beat = time.monotonic() + HEARTBEAT_RETRY_SECONDS
            return
        self._beat_failing = False

    async def _forget(self) -> None:
        """A clean stop removes the heartbeat row (a killed runner's ages out instead)."""
        try:
            async with asyncio.timeout(STOP_CLAIM_SECONDS):
                await operations.forget(self.worker_id)
        except Exception as error:
            log.info("job runner: heartbeat row left behind (%s)", error)

    async def _loop(self) -> None:
        while not self._stopping:
            self._wake.clear()
            self.last_loop = time.monotonic()
            await self._beat()
            try:
                if self.schedules and time.monotonic() >= self._next_schedule_check:
                    self._next_schedule_check = time.monotonic() + SCHEDULE_CHECK_SECONDS
                    await schedule_due(self.schedules)
                await self.poll()
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
            if self._stopping:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
                if self._stopping:
                    return
                # Woken (a job queued or finished): let a burst of such wake-ups settle, so
                # that 200 requests queuing tests, or 64 tests finishing together, make a few
                # claims of many jobs rather than one claim (a write transaction) per job.
                await asyncio.sleep(WAKE_SETTLE_SECONDS)
