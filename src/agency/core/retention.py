"""Data kept only as long as it is needed: an hourly job deletes each kind after its time.

Core deletes its own tables (finished and failed jobs, sent and undelivered e-mail, old
rate-limit counters); each module deletes its own through the `retention` hook of its `Module`
descriptor (auth: expired sessions, used or expired reset links; billing: old webhook events;
leads: leads 730 days, the privacy page's 24 months, after they were sent). The periods are
settings (`AGENCY_RETENTION_*`, in days). `agency db prune` runs the same at once.

Accounts are not retention data: they stay until they are deleted (by their owner or an admin).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from agency.core import jobs, mail, operations, ratelimit
from agency.core.modules import Periodic, RetentionHook
from agency.core.settings import Settings

log = logging.getLogger(__name__)

JOB_KIND = "retention"
INTERVAL = timedelta(hours=1)


def days(count: int) -> timedelta:
    return timedelta(days=count)


async def prune_core(settings: Settings, now: datetime) -> dict[str, int]:
    """Delete core's rows that are past their time; returns how many of each kind."""
    undelivered = [mail.QUEUED, mail.OUTBOX, mail.FAILED]
    cutoff_seconds = int(now.timestamp()) - settings.retention_rate_limits_days * 86400
    return {
        "jobs.done": await jobs.Job.filter(
            status=jobs.DONE, updated_at__lt=now - days(settings.retention_jobs_done_days)
        ).delete(),
        "jobs.failed": await jobs.Job.filter(
            status=jobs.FAILED, updated_at__lt=now - days(settings.retention_jobs_failed_days)
        ).delete(),
        "mail.sent": await mail.OutboundMail.filter(
            status=mail.SENT, sent_at__lt=now - days(settings.retention_mail_sent_days)
        ).delete(),
        "mail.failed": await mail.OutboundMail.filter(
            status__in=undelivered,
            created_at__lt=now - days(settings.retention_mail_failed_days),
        ).delete(),
        "ratelimit.counters": await ratelimit.RateCounter.filter(
            updated_at__lt=cutoff_seconds
        ).delete(),
        # Job runners unseen for a day: killed ones (a clean stop deletes its own row).
        "jobs.runners": await operations.prune(now),
    }


async def prune(
    settings: Settings, hooks: Sequence[RetentionHook[Any]], now: datetime | None = None
) -> dict[str, int]:
    """Delete everything past its time, core's and every module's; returns rows per kind."""
    now = now or datetime.now(UTC)
    started = time.perf_counter()
    removed = await prune_core(settings, now)
    for hook in hooks:
        removed.update(await hook(settings, now))
    extra: dict[str, Any] = {
        "removed": removed,
        "ms": round(1000 * (time.perf_counter() - started)),
    }
    log.info("retention: old rows deleted", extra=extra)
    return removed


def periodic(hooks: Sequence[RetentionHook[Any]]) -> Periodic[Settings]:
    """The hourly job that applies retention with the given modules' hooks."""

    async def run(settings: Settings) -> dict[str, int]:
        return await prune(settings, hooks)

    return Periodic(name=JOB_KIND, interval=INTERVAL, run=run)
