"""Speed checks of a website: the customer's 'Run speed test', the schedule that tests every
live site (`monitor`, a `Periodic` of the module), and the alert when a score drops.

A check starts a test through `speedtest.api` (the speedtest module runs it as its own job) and
is followed until that test ends: by the job `sites.follow_check`, queued again every few
seconds while the test runs, and by any read of the check (the customer's page polls it), so
the page sees the end at once. Whichever sees the end first finishes the check, by a
compare-and-swap on its status: the score is written to `Website.page_speed` once, and the
alert is sent once.

One running check per site: starting one claims `Website.checking_since` by a compare-and-swap
(a claim older than `CHECK_STALE` is taken over), so two clicks or a click and the schedule
cannot start two; the loser gets 409.

Going live (`went_live`, called by the status change in its transaction) records the moment
in `Website.went_live_at`, clears the old site's score and queues the job `sites.launch_check`,
which starts the first test of the live site (a `launch` check). From then on only tests asked
for at or after that moment count as the site's score; reuse of an earlier result is refused
(`not_before`), so the pre-live score never shows as the live one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from tortoise.expressions import Q
from tortoise.transactions import in_transaction

from agency.core import jobs, mail
from agency.core.errors import AppError, Conflict, NotFound, TooManyRequests
from agency.modules.auth import api as auth_api
from agency.modules.notifications import api as notifications_api
from agency.modules.sites.models import (
    DONE,
    FAILED,
    LAUNCH,
    LIVE,
    MANUAL,
    MONITOR,
    RUNNING,
    SpeedCheck,
    Website,
)
from agency.modules.sites.schemas import CheckKind, CheckStatus, SpeedCheckOut
from agency.modules.sites.settings import SitesSettings
from agency.modules.speedtest import api as speedtest_api

log = logging.getLogger(__name__)

FOLLOW_KIND = "sites.follow_check"
MONITOR_KIND = "sites.monitor"
LAUNCH_KIND = "sites.launch_check"
# The launch job waits this long and tries again while an older test of the site still runs,
# or the speed test's per-domain limit refuses; it gives up after LAUNCH_TRIES.
LAUNCH_RETRY = timedelta(minutes=2)
LAUNCH_TRIES = 30
# How often the schedule looks for live sites due a test (each is tested every
# `sites_monitor_interval_hours`).
MONITOR_TICK = timedelta(minutes=15)
MONITOR_BATCH = 500
FOLLOW_EVERY = timedelta(seconds=5)
# A check still running after this is over: its test can no longer end (speedtest marks a
# test failed 30 minutes after it was asked for).
CHECK_STALE = timedelta(minutes=45)
STRATEGY = "mobile"
SOURCES = {MANUAL: "dashboard", MONITOR: "monitoring", LAUNCH: "monitoring"}
DROP_BELOW = 90
DROP_BY = 10
DROP_TEMPLATE = "site_score_drop"

MSG_RUNNING = "A speed test of this website is already running."
MSG_STALE = "The speed test did not finish. Please try again."
MSG_LOST = "The speed test could not be found."
MSG_LAUNCH_GAVE_UP = "We could not test the live website yet. Please run a speed test."


def _now() -> datetime:
    return datetime.now(UTC)


def dropped(previous: int | None, score: int) -> bool:
    """A monitored score worth telling the owner about: it fell below 90 (from 90 or more), or
    by 10 points or more since the previous test."""
    if previous is None:
        return False
    return (previous >= DROP_BELOW > score) or previous - score >= DROP_BY


def measures_live_site(site: Website, asked_at: datetime) -> bool:
    """Whether a test asked for at `asked_at` measured the site as it is: any test when the
    moment it went live is unknown, else one asked for at or after it."""
    return site.went_live_at is None or asked_at >= site.went_live_at


def check_out(check: SpeedCheck, test_status: str | None = None) -> SpeedCheckOut:
    status: CheckStatus = "running"
    kind: CheckKind = "manual"
    if check.kind == MONITOR:
        kind = "monitor"
    elif check.kind == LAUNCH:
        kind = "launch"
    if check.status == DONE:
        status = "done"
    elif check.status == FAILED:
        status = "failed"
    elif test_status == "queued":
        status = "queued"
    return SpeedCheckOut(
        id=check.id,
        kind=kind,
        status=status,
        score=check.score,
        error=check.error if check.status == FAILED else None,
        created_at=check.created_at,
        finished_at=check.finished_at,
    )


# ---------------------------------------------------------------------------------------------
# Starting


async def start_check(site: Website, kind: str, settings: SitesSettings) -> SpeedCheckOut:
    """Start a speed test of the site (409 when one is running); queuing its test wakes the job
    runner (`jobs.enqueue`). The speedtest module's refusals (an address it will not test, its
    per-domain limit) pass through as they are."""
    now = _now()
    claimed = await Website.filter(
        Q(checking_since=None) | Q(checking_since__lt=now - CHECK_STALE), id=site.id
    ).update(checking_since=now)
    if not claimed:
        raise Conflict(MSG_RUNNING, code="speed_test_running")
    await _fail_stale(site)
    try:
        test = await speedtest_api.start_speed_test(
            site.domain, STRATEGY, settings, source=SOURCES[kind], not_before=site.went_live_at
        )
    except BaseException:
        await Website.filter(id=site.id, checking_since=now).update(checking_since=None)
        raise
    async with in_transaction():
        check = await SpeedCheck.create(
            website_id=site.id,
            test_id=test.id,
            kind=kind,
            status=RUNNING,
            previous_score=site.page_speed,
        )
        if test.status in ("queued", "running"):
            await jobs.enqueue(FOLLOW_KIND, {"check_id": check.id}, delay=FOLLOW_EVERY)
    if test.status not in ("queued", "running"):  # a recent result reused: over at once
        score = test.result.score if test.result else None
        await finish(check, test.status, score, test.error, settings)
        check = await SpeedCheck.get(id=check.id)
    return check_out(check, test.status)


async def _fail_stale(site: Website) -> None:
    await jobs.fail_stale(SpeedCheck, CHECK_STALE, MSG_STALE, website_id=site.id)


# ---------------------------------------------------------------------------------------------
# Following


async def follow(check: SpeedCheck, settings: SitesSettings) -> str | None:
    """Look at a running check's test and finish the check when it has ended; returns the
    test's status (None when it is gone)."""
    if check.status != RUNNING:
        return check.status
    try:
        test = await speedtest_api.get_speed_test(check.test_id)
    except NotFound:
        await finish(check, FAILED, None, MSG_LOST, settings)
        return None
    if test.status in ("queued", "running"):
        if jobs.is_stale(check, CHECK_STALE):
            await finish(check, FAILED, None, MSG_STALE, settings)
            return FAILED
        return test.status
    score = test.result.score if test.result else None
    await finish(check, test.status, score, test.error, settings)
    return test.status


async def finish(
    check: SpeedCheck, status: str, score: int | None, error: str | None, settings: SitesSettings
) -> None:
    """End a running check once: its score becomes the site's, and a monitored drop is told to
    the owner (in the same transaction, so never twice, never lost)."""
    async with in_transaction():
        if status == DONE and score is not None:
            won = await SpeedCheck.filter(id=check.id, status=RUNNING).update(
                status=DONE, score=score, finished_at=_now()
            )
        else:
            won = await SpeedCheck.filter(id=check.id, status=RUNNING).update(
                status=FAILED, error=error or MSG_STALE, finished_at=_now()
            )
        if not won:
            return
        site = await Website.get(id=check.website_id)  # type: ignore[attr-defined]
        changes: dict[str, Any] = {"checking_since": None}
        if score is not None and status == DONE and measures_live_site(site, check.created_at):
            changes["page_speed"] = score
        await Website.filter(id=site.id).update(**changes)
        if (
            status == DONE
            and score is not None
            and check.kind == MONITOR
            and site.deleted_at is None
            and dropped(check.previous_score, score)
        ):
            await _tell_drop(site, check.previous_score or 0, score, settings)


async def _tell_drop(site: Website, previous: int, score: int, settings: SitesSettings) -> None:
    link = f"/dashboard/websites/{site.id}"
    account = await auth_api.get_account(site.user_id)
    if account is None:
        return
    rating = speedtest_api.speed_rating(score)
    await mail.send_mail(
        account.email,
        DROP_TEMPLATE,
        {
            "name": account.first_name or "there",
            "domain": site.domain,
            "score": score,
            "previous": previous,
            "rating": rating,
            "below": score < DROP_BELOW,
            "url": f"{settings.public_url}{link}",
        },
    )
    await notifications_api.notify(
        site.user_id,
        kind=notifications_api.SCORE_DROPPED,
        title=f"{site.domain}'s speed score dropped to {score}",
        body=f"It was {previous} at the previous test ({rating} now).",
        link=link,
    )


async def latest_check(site: Website, settings: SitesSettings) -> SpeedCheckOut | None:
    """The site's latest check, followed first when it is running (the page's poll)."""
    check = await SpeedCheck.filter(website_id=site.id).order_by("-id").first()
    if check is None:
        return None
    test_status = await follow(check, settings)
    check = await SpeedCheck.get(id=check.id)
    return check_out(check, test_status)


def follow_handler(settings: SitesSettings) -> Callable[[dict[str, Any]], Awaitable[None]]:
    async def handle(payload: dict[str, Any]) -> None:
        check = await SpeedCheck.get_or_none(id=int(payload.get("check_id") or 0))
        if check is None:
            return
        status = await follow(check, settings)
        if status in ("queued", "running"):
            await jobs.enqueue(FOLLOW_KIND, {"check_id": check.id}, delay=FOLLOW_EVERY)

    return handle


# ---------------------------------------------------------------------------------------------
# Going live


async def went_live(site: Website, now: datetime) -> None:
    """The site was delivered (called in the status change's transaction): record the moment,
    clear the old site's score, and queue the first test of the live site."""
    await Website.filter(id=site.id).update(went_live_at=now, page_speed=None)
    site.went_live_at, site.page_speed = now, None
    await jobs.enqueue(LAUNCH_KIND, {"website_id": site.id, "tries": 0})


async def _measured_since_live(site: Website) -> bool:
    """A check asked for since the site went live exists (the launch one, or the owner's)."""
    return await SpeedCheck.filter(
        website_id=site.id, created_at__gte=site.went_live_at, status__in=(RUNNING, DONE)
    ).exists()


async def launch(payload: dict[str, Any], settings: SitesSettings) -> None:
    """The job `sites.launch_check`: start the first test of a site that went live, unless one
    was started since; again later while an older test runs or the per-domain limit refuses;
    an address the speed test will not test ends as a failed check the owner sees."""
    site = await Website.get_or_none(id=int(payload.get("website_id") or 0))
    if site is None or site.deleted_at is not None or site.status != LIVE:
        return
    if site.went_live_at is None or await _measured_since_live(site):
        return
    tries = int(payload.get("tries") or 0) + 1
    try:
        await start_check(site, LAUNCH, settings)
    except (Conflict, TooManyRequests) as exc:
        if tries < LAUNCH_TRIES:
            await jobs.enqueue(
                LAUNCH_KIND, {"website_id": site.id, "tries": tries}, delay=LAUNCH_RETRY
            )
            return
        await _launch_failed(site, MSG_LAUNCH_GAVE_UP, exc.message)
    except AppError as exc:
        await _launch_failed(site, exc.message, exc.message)


async def _launch_failed(site: Website, shown: str, reason: str) -> None:
    log.warning("first test of live site %s not started: %s", site.domain, reason)
    await SpeedCheck.create(
        website_id=site.id,
        test_id="",
        kind=LAUNCH,
        status=FAILED,
        previous_score=None,
        error=shown,
        finished_at=_now(),
    )


def launch_handler(settings: SitesSettings) -> Callable[[dict[str, Any]], Awaitable[None]]:
    async def handle(payload: dict[str, Any]) -> None:
        await launch(payload, settings)

    return handle


# ---------------------------------------------------------------------------------------------
# Monitoring


async def due_sites(settings: SitesSettings, now: datetime | None = None) -> list[Website]:
    """Live sites whose last monitored test is older than the interval (or that have none)."""
    now = now or _now()
    cutoff = now - timedelta(hours=settings.sites_monitor_interval_hours)
    return (
        await Website.filter(
            Q(monitored_at=None) | Q(monitored_at__lte=cutoff), status=LIVE, deleted_at=None
        )
        .order_by("id")
        .limit(MONITOR_BATCH)
    )


async def monitor(settings: SitesSettings) -> int:
    """The schedule's run: start a test of every live site that is due; returns how many
    started. A site with a test running is left for the next run."""
    started = 0
    for site in await due_sites(settings):
        try:
            await start_check(site, MONITOR, settings)
        except Conflict:
            continue
        except AppError as exc:  # an address speedtest refuses, its per-domain limit
            log.warning("monitored test of %s not started: %s", site.domain, exc.message)
        else:
            started += 1
        await Website.filter(id=site.id).update(monitored_at=_now())
    return started


async def run_here(check: SpeedCheckOut, settings: SitesSettings) -> SpeedCheckOut:
    """Run a started check's test in this process (`agency sites speedtest --all`) and finish
    the check; returns it as it ended."""
    row = await SpeedCheck.get(id=check.id)
    if row.status == RUNNING:
        try:
            await speedtest_api.run_queued_speed_test(settings, row.test_id)
        except Exception:  # the test records its failure; the check reads it below
            log.info("speed test of check %s did not succeed here", row.id)
        await follow(row, settings)
    return check_out(await SpeedCheck.get(id=check.id))


@dataclass(frozen=True)
class SiteTestResult:
    domain: str
    score: int | None
    error: str | None


async def test_live_sites(
    settings: SitesSettings,
    *,
    at_once: int,
    begin: Callable[[int], None],
    testing: Callable[[str], None],
    tested: Callable[[SiteTestResult], None],
) -> list[SiteTestResult]:
    """`agency sites speedtest --all`: a monitored check of every live site, `at_once` at a
    time, each test run in this process; the callbacks drive a progress display."""
    sites = await Website.filter(status=LIVE, deleted_at=None).order_by("id")
    begin(len(sites))
    gate = asyncio.Semaphore(at_once)
    results: dict[int, SiteTestResult] = {}

    async def one(site: Website) -> None:
        async with gate:
            testing(site.domain)
            try:
                check = await run_here(await start_check(site, MONITOR, settings), settings)
                await Website.filter(id=site.id).update(monitored_at=_now())
                result = SiteTestResult(site.domain, check.score, check.error)
                if check.status != "done":
                    result = SiteTestResult(site.domain, None, check.error or check.status)
            except AppError as exc:
                result = SiteTestResult(site.domain, None, exc.message)
            results[site.id] = result
            tested(result)

    await asyncio.gather(*(one(site) for site in sites))
    return [results[site.id] for site in sites]
