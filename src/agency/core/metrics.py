"""Prometheus metrics: what this process records, in prometheus_client's multiprocess mode.

Every agency process of a machine (each `agency serve` worker, every `agency serve` and
`agency worker`) writes its own files into one directory (`metrics_dir`), and `/metrics` in any
of them adds up all the files (`agency.core.web.metrics`). One registry shared in memory cannot
span processes that granian forks and systemd starts separately; files can, and a counter of a
process that exited stays in the sum, so totals never go down while the machine runs.

Nothing is recorded until `configure` has run with a token (`metrics_token`): without one,
every function here returns at once, and the other processes' files are never touched. The
functions take only fixed words as labels (route templates, job kinds, limit names, outcomes):
never a path, an address, an id or a query string (see docs/monitoring.md).

prometheus_client picks where values live when a metric is created, so the metrics are made in
`configure`, after it has set `PROMETHEUS_MULTIPROC_DIR` and the multiprocess value class,
whatever imported prometheus_client before.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import resource
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final, Literal

SERVE: Final = "serve"
WORKER: Final = "worker"
Role = Literal["serve", "worker"]
# The methods counted by name; any other is "other" (a client may send any token).
METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# Latency buckets (seconds): the API answers in a millisecond or two, pages and speed-test
# starts in tens of milliseconds.
DURATION_BUCKETS: Final = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)
MULTIPROC_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"
_PAGE_SIZE: Final = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

_role: Role = SERVE


class _Metrics:
    """The metric objects of this process, made once `configure` chose the directory."""

    def __init__(self, directory: Path, role: Role, version: str) -> None:
        from prometheus_client import Counter, Gauge, Histogram, values

        directory.mkdir(parents=True, exist_ok=True)
        os.environ[MULTIPROC_ENV] = str(directory)
        # A fresh value class: its files are this process's, in this directory, even when an
        # earlier configure (a test's app) used another.
        values.ValueClass = values.MultiProcessValue()  # type: ignore[no-untyped-call]
        self.directory = directory
        self.role = role
        self.version = version
        self.http_requests = Counter(
            "agency_http_requests",
            "HTTP requests answered, by route template, method and status.",
            ["route", "method", "status"],
            registry=None,
        )
        self.http_duration = Histogram(
            "agency_http_request_duration_seconds",
            "Time to answer an HTTP request, by route template and method.",
            ["route", "method"],
            buckets=DURATION_BUCKETS,
            registry=None,
        )
        self.job_runs = Counter(
            "agency_job_runs",
            "Job runs ended, by kind and outcome (done, failed for good, retry).",
            ["kind", "outcome"],
            registry=None,
        )
        self.lease_expiries = Counter(
            "agency_job_lease_expiries",
            "Running jobs whose lease ran out (their runner died or stalled), taken over.",
            ["kind"],
            registry=None,
        )
        self.webhook_events = Counter(
            "agency_webhook_events",
            "Payment webhook events received, by outcome.",
            ["outcome"],
            registry=None,
        )
        self.rate_limit_refusals = Counter(
            "agency_rate_limit_refusals",
            "Requests refused by a rate limit, by limit name.",
            ["limit"],
            registry=None,
        )
        self.speed_tests = Counter(
            "agency_speed_tests",
            "Speed tests started (queued), done and failed, by provider.",
            ["event", "provider"],
            registry=None,
        )
        self.analyses = Counter(
            "agency_analyses",
            "Website analyses started (queued), done and failed, by report writer.",
            ["event", "writer"],
            registry=None,
        )
        self.db_errors = Counter(
            "agency_db_errors",
            "Database errors that reached a request's error handler or a job runner.",
            ["kind"],
            registry=None,
        )
        self.pool = Gauge(
            "agency_db_pool_connections",
            "PostgreSQL pool connections of the live processes, in use or idle.",
            ["state"],
            multiprocess_mode="livesum",
            registry=None,
        )
        self.memory = Gauge(
            "agency_process_resident_memory_bytes",
            "Resident memory of the live agency processes, by role.",
            ["role"],
            multiprocess_mode="livesum",
            registry=None,
        )
        self.processes = Gauge(
            "agency_processes",
            "Live agency processes recording metrics, by role.",
            ["role"],
            multiprocess_mode="livesum",
            registry=None,
        )
        self.build_info = Gauge(
            "agency_build_info",
            "The running version (1 for each version a live process runs).",
            ["version"],
            multiprocess_mode="livemax",
            registry=None,
        )
        # Requests since the last `flush`, by (route, method, status): [count, seconds summed,
        # per-bucket counts (the last one +Inf)]. Writing each request into the files costs
        # three locked writes (~2 us each); adding here costs a fraction of one, and `flush`
        # writes the sums every second (and before this process answers a scrape).
        self.http_pending: dict[tuple[str, str, int], list[Any]] = {}

    def flush(self) -> None:
        pending, self.http_pending = self.http_pending, {}
        for (route, method, status), (count, seconds, buckets) in pending.items():
            self.http_requests.labels(route, method, str(status)).inc(count)
            histogram = self.http_duration.labels(route, method)
            # prometheus_client 0.26's Histogram child: `_sum` and the non-cumulative
            # `_buckets` values that `observe` increments (one observe per request would
            # write the same figures, request by request).
            histogram._sum.inc(seconds)
            for index, hits in enumerate(buckets):
                if hits:
                    histogram._buckets[index].inc(hits)


_metrics: _Metrics | None = None


def set_role(role: Role) -> None:
    """What this process is (`agency worker` says so before building its app)."""
    global _role
    _role = role


def configure(token: str, directory: Path, version: str) -> bool:
    """Record this process's metrics into `directory` when `token` is set; returns whether it
    records. Safe to call again (a test's next app): it then starts afresh."""
    global _metrics
    _metrics = _Metrics(directory, _role, version) if token else None
    return _metrics is not None


def enabled() -> bool:
    return _metrics is not None


def directory() -> Path | None:
    """Where this process's metrics are written (None when it records none)."""
    return None if _metrics is None else _metrics.directory


def started() -> None:
    """This process serves (or runs jobs) from now on: counted as live, with its memory."""
    metrics = _metrics
    if metrics is None:
        return
    metrics.processes.labels(metrics.role).set(1)
    metrics.build_info.labels(metrics.version).set(1)
    refresh_process()


def stopped() -> None:
    """A clean exit: this process's live gauges (processes, memory, pool, version) leave the
    sums; its counters stay in them (prometheus_client's `mark_process_dead`)."""
    metrics = _metrics
    if metrics is None:
        return
    metrics.flush()
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(os.getpid(), str(metrics.directory))  # type: ignore[no-untyped-call]


def http_request(route: str, method: str, status: int, seconds: float) -> None:
    """One answered request: `route` is a route template or a fixed word, never a path.
    Written into the files at the next `flush` (within a second)."""
    metrics = _metrics
    if metrics is None:
        return
    if method not in METHODS:
        method = "other"
    key = (route, method, status)
    entry = metrics.http_pending.get(key)
    if entry is None:
        entry = metrics.http_pending[key] = [0, 0.0, [0] * (len(DURATION_BUCKETS) + 1)]
    entry[0] += 1
    entry[1] += seconds
    entry[2][bisect.bisect_left(DURATION_BUCKETS, seconds)] += 1


def flush() -> None:
    """Write the requests counted since the last flush into this process's files."""
    if _metrics is not None:
        _metrics.flush()


def job_run(kind: str, outcome: Literal["done", "failed", "retry"]) -> None:
    if _metrics is not None:
        _metrics.job_runs.labels(kind, outcome).inc()


def lease_expired(kinds: Iterable[str]) -> None:
    """Jobs (one kind per job) whose lease had run out, just taken over by a runner."""
    if _metrics is not None:
        for kind in kinds:
            _metrics.lease_expiries.labels(kind).inc()


def webhook_event(outcome: Literal["accepted", "duplicate", "ignored", "failed"]) -> None:
    if _metrics is not None:
        _metrics.webhook_events.labels(outcome).inc()


def rate_limit_refused(limit: str) -> None:
    """A refusal by the limit named `limit` (a `ratelimit.Limit`'s name, a fixed word)."""
    if _metrics is not None:
        _metrics.rate_limit_refusals.labels(limit).inc()


def speed_test(event: Literal["started", "done", "failed"], provider: str) -> None:
    if _metrics is not None:
        _metrics.speed_tests.labels(event, provider).inc()


def analysis(event: Literal["started", "done", "failed"], writer: str) -> None:
    if _metrics is not None:
        _metrics.analyses.labels(event, writer).inc()


def db_error(kind: Literal["unavailable", "error"]) -> None:
    if _metrics is not None:
        _metrics.db_errors.labels(kind).inc()


def is_database_error(error: BaseException) -> bool:
    """Whether `error` (or what it was raised from) came from the database driver or the ORM."""
    import sqlite3

    from tortoise.exceptions import BaseORMException

    kinds: tuple[type[BaseException], ...] = (BaseORMException, sqlite3.Error)
    with contextlib.suppress(ImportError):
        import asyncpg  # type: ignore[import-untyped]

        kinds = (*kinds, asyncpg.PostgresError, asyncpg.InterfaceError)
    current: BaseException | None = error
    for _ in range(5):
        if current is None:
            return False
        if isinstance(current, kinds):
            return True
        current = current.__cause__  # never an unrelated error's context
    return False


def resident_memory() -> int:
    """This process's resident memory in bytes (Linux: /proc; elsewhere its peak)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_SIZE
    except (OSError, IndexError, ValueError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak * 1024 if os.uname().sysname != "Darwin" else peak


def refresh_process() -> None:
    """Write this process's memory and database pool figures (every few seconds, and when
    this process answers a scrape)."""
    metrics = _metrics
    if metrics is None:
        return
    metrics.memory.labels(metrics.role).set(resident_memory())
    pool = _postgres_pool()
    if pool is not None:
        size, idle = pool
        metrics.pool.labels("in_use").set(size - idle)
        metrics.pool.labels("idle").set(idle)


def _postgres_pool() -> tuple[int, int] | None:
    """(connections open, idle) of this process's PostgreSQL pool, or None (SQLite, not open)."""
    try:
        from tortoise import connections

        client: Any = connections.get("default")
    except Exception:
        return None
    pool = getattr(client, "_pool", None)
    if pool is None or not hasattr(pool, "get_idle_size"):
        return None
    return int(pool.get_size()), int(pool.get_idle_size())
