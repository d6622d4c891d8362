"""`agency status`: what an operator looks at first, in one place.

The version; the database (its URL without credentials, its kind, whether it answers); the
migrations (applied, pending); the job queue per kind (queued, running, failed for good, how
long the oldest due job has waited); the job runners alive (their heartbeats,
`agency.core.operations`); the mail outbox (waiting, sent, failed); each module's own facts
(`Module.status`: billing's last Stripe webhook); the last retention run (its schedule row and
its last job); the last `agency db backup`; and what `agency doctor` reports.

Needs attention (`attention`, and the command exits 1) when:
- the database does not answer;
- a migration is pending;
- no job runner is alive (no heartbeat within `operations.ALIVE_WITHIN`);
- a due job has waited longer than `QUEUE_LATE` (the runners do not keep up, or are stuck);
- the last backup failed, or the last one is older than `BACKUP_STALE`;
- the last payment webhook failed;
- the last retention run failed, or none ran for `RETENTION_STALE`;
- with AGENCY_ENV=production: something `agency doctor` says production needs is missing.
Nothing is an alarm that only says the install is new (no backup, no webhook yet).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final, TypeVar
from urllib.parse import urlsplit, urlunsplit

from tortoise import connections

from agency import __version__
from agency.core import db, jobs, mail, operations, retention
from agency.core.modules import Module
from agency.core.settings import Settings
from agency.ops import doctor

T = TypeVar("T")
QUEUE_LATE: Final = timedelta(minutes=15)
BACKUP_STALE: Final = timedelta(days=2)
RETENTION_STALE: Final = timedelta(hours=3)
CONNECT_SECONDS: Final = 10.0
_MAIL_STATES: Final = {
    mail.QUEUED: "waiting",
    mail.OUTBOX: "waiting",
    mail.SENT: "sent",
    mail.FAILED: "failed",
}


def safe_url(url: str) -> str:
    """The database URL without a password (the user name stays: it says which role)."""
    if url.startswith("sqlite"):
        return url.split("?", 1)[0]
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat(timespec="seconds") if moment else None


def _seconds(value: datetime | str | None, now: datetime) -> float:
    """Seconds from `value` (a time, or one in ISO form) to `now`; 0 for none or the future."""
    if value is None:
        return 0.0
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, round((now - moment).total_seconds(), 1))


async def _queue(now: datetime) -> dict[str, Any]:
    kinds: dict[str, dict[str, Any]] = {}
    rows = await jobs.Job.filter(status__in=[jobs.QUEUED, jobs.RUNNING, jobs.FAILED]).values(
        "kind", "status", "run_at"
    )
    for row in rows:
        kind = kinds.setdefault(
            row["kind"], {"queued": 0, "running": 0, "failed": 0, "oldest_due_seconds": 0.0}
        )
        kind[row["status"]] += 1
        if row["status"] == jobs.QUEUED and row["run_at"] <= now:
            kind["oldest_due_seconds"] = max(
                kind["oldest_due_seconds"], _seconds(row["run_at"], now)
            )
    return {
        "queued": sum(k["queued"] for k in kinds.values()),
        "running": sum(k["running"] for k in kinds.values()),
        "failed": sum(k["failed"] for k in kinds.values()),
        "kinds": dict(sorted(kinds.items())),
    }


async def _mail() -> dict[str, int]:
    counts = {"waiting": 0, "sent": 0, "failed": 0}
    for status in await mail.OutboundMail.all().values_list("status", flat=True):
        state = _MAIL_STATES.get(str(status))
        if state is not None:
            counts[state] += 1
    return counts


async def _runners() -> dict[str, Any]:
    alive = [
        {
            "worker_id": row.worker_id,
            "host": row.host,
            "pid": row.pid,
            "role": row.role,
            "started_at": _iso(row.started_at),
            "seen_at": _iso(row.seen_at),
        }
        for row in await operations.alive()
    ]
    return {"alive": len(alive), "list": alive}


async def _retention() -> dict[str, Any]:
    schedule = await jobs.Schedule.get_or_none(name=retention.JOB_KIND)
    last_job = await jobs.Job.filter(kind=retention.JOB_KIND).order_by("-created_at", "-id").first()
    return {
        "last_run_at": _iso(schedule.last_run_at) if schedule else None,
        "next_run_at": _iso(schedule.next_run_at) if schedule else None,
        "last_outcome": last_job.status if last_job else None,
    }


async def _backup() -> dict[str, Any] | None:
    run = await operations.last_backup()
    if run is None:
        return None
    return {
        "finished_at": _iso(run.finished_at),
        "ok": run.ok,
        "size": run.size,
        "backend": run.backend,
        "seconds": run.seconds,
    }


def _doctor(settings: Settings, modules: Sequence[Module[Any]]) -> dict[str, Any]:
    items = doctor.report(settings, modules)
    return {
        "ready": [item.topic for item in items if item.ready],
        "missing_for_production": [item.topic for item in doctor.missing_for_production(items)],
        "optional_missing": [item.topic for item in items if not item.ready and not item.required],
    }


async def _connect(url: str, model_modules: Sequence[Any]) -> str | None:
    """Open the database; None when it answers, else what kind of error kept it away."""
    try:
        async with asyncio.timeout(CONNECT_SECONDS):
            await db.init_db(url, model_modules)
            await connections.get("default").execute_query("SELECT 1")
    except Exception as error:
        return type(error).__name__
    return None


async def _section(report: dict[str, Any], name: str, work: Awaitable[T]) -> T | None:
    """`work`'s result; None when it fails (a table not migrated yet), the error's kind kept
    in `report["errors"]`."""
    try:
        return await work
    except Exception as error:
        report.setdefault("errors", {})[name] = type(error).__name__
        return None


async def _migrations() -> dict[str, Any]:
    return {"applied": len(await db.applied_migrations()), "pending": await db.pending_migrations()}


async def _facts(module: Module[Any], settings: Settings) -> dict[str, Any]:
    assert module.status is not None
    return dict(await module.status(settings))


async def gather(settings: Settings, modules: Sequence[Module[Any]]) -> dict[str, Any]:
    """Everything `agency status` shows, as JSON-able data, with `attention`: what needs it."""
    now = datetime.now(UTC)
    url = settings.effective_database_url
    model_modules = [m.models for m in modules if m.models is not None]
    report: dict[str, Any] = {
        "version": __version__,
        "env": settings.env,
        "database": {
            "url": safe_url(url),
            "backend": "sqlite" if url.startswith("sqlite") else "postgres",
            "reachable": False,
            "error": None,
        },
    }
    error = await _connect(url, model_modules)
    try:
        if error is None:
            report["database"]["reachable"] = True
            report["migrations"] = await _section(report, "migrations", _migrations())
            report["jobs"] = await _section(report, "jobs", _queue(now))
            report["runners"] = await _section(report, "runners", _runners())
            report["mail"] = await _section(report, "mail", _mail())
            facts: dict[str, Any] = {}
            for module in modules:
                if module.status is not None:
                    facts[module.name] = await _section(
                        report, module.name, _facts(module, settings)
                    )
            report["modules"] = facts
            report["retention"] = await _section(report, "retention", _retention())
            report["backup"] = await _section(report, "backup", _backup())
        else:
            report["database"]["error"] = error
    finally:
        with contextlib.suppress(Exception):
            await db.close_db()
    report["doctor"] = _doctor(settings, modules)
    report["attention"] = attention(report, now)
    return report


def attention(report: dict[str, Any], now: datetime) -> list[str]:
    """What needs the operator's attention, one sentence each (see the module's docstring)."""
    found: list[str] = []
    if not report["database"]["reachable"]:
        found.append(f"the database does not answer ({report['database']['error']})")
    else:
        migrations = report["migrations"]
        if migrations is not None and migrations["pending"]:
            count = len(migrations["pending"])
            found.append(f"{count} migration(s) pending: run `agency db upgrade`")
        else:  # with migrations pending, a table not there yet is no news
            for name in sorted(report.get("errors", {})):
                found.append(f"{name}: could not be read ({report['errors'][name]})")
        runners = report["runners"]
        if runners is not None and not runners["alive"]:
            found.append("no job runner is alive (no `agency serve` running jobs, no worker)")
        queue = report["jobs"]
        late = [
            kind
            for kind, figures in (queue["kinds"] if queue else {}).items()
            if figures["oldest_due_seconds"] > QUEUE_LATE.total_seconds()
        ]
        if late:
            found.append(f"jobs wait longer than {QUEUE_LATE}: {', '.join(late)}")
        backup = report["backup"]
        if backup is not None:
            if not backup["ok"]:
                found.append("the last backup failed")
            elif _seconds(backup["finished_at"], now) > BACKUP_STALE.total_seconds():
                found.append(f"the last backup is older than {BACKUP_STALE.days} days")
        for name, facts in report["modules"].items():
            webhook = (facts or {}).get("last_webhook")
            if isinstance(webhook, dict) and webhook.get("outcome") == "failed":
                found.append(f"{name}: the last webhook event failed ({webhook.get('type')})")
        runs = report["retention"]
        if runs is not None and runs["last_outcome"] == jobs.FAILED:
            found.append("the last retention run failed")
        elif (
            runs is not None
            and runs["last_run_at"] is not None
            and _seconds(runs["last_run_at"], now) > RETENTION_STALE.total_seconds()
        ):
            found.append(f"retention has not run for {RETENTION_STALE}")
    missing = report["doctor"]["missing_for_production"]
    if report["env"] == "production" and missing:
        found.append(f"production needs: {', '.join(missing)} (`agency doctor`)")
    return found
