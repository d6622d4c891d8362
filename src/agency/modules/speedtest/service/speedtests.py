"""The speed test: a visitor's domain tested by the configured page-speed provider, as a job.

`start_speed_test` checks what the page sent (each page's rule, spec §5), refuses an address on
our machine or network (`agency.net.addresses`), counts the per-address and per-domain limits,
keeps the e-mail as a lead, and either answers at once from a result of the same domain and
strategy younger than `speedtest_reuse_minutes` (a new row, `done`, so the visitor still gets a
report) or stores a `queued` row and queues the job `insights.speed_test`. The job
(`run_speed_test`) marks the row running, runs the provider, stores the result or the spec's
message (§8) and queues the report e-mail. Any server process may run it: the job queue gives it
to one runner, and the row moves queued/running -> running by a compare-and-swap on
`started_at`, so a runner holding a stale copy cannot run it too. A job re-run after a crash
(its lease expired) runs it again; a row still unfinished long after any job could have ended
reads as failed (`STALE_AFTER`), so nothing hangs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from tortoise.functions import Count
from tortoise.transactions import in_transaction

from agency.core import jobs, mail, metrics, ratelimit
from agency.core.errors import TooManyRequests, ValidationFailed
from agency.core.jobs import DONE, FAILED, QUEUED
from agency.core.modules import JobOptions
from agency.core.ratelimit import Limit
from agency.core.text import bare_domain, strip_scheme, valid_host
from agency.modules.leads import api as leads_api
from agency.modules.speedtest.models import SpeedTest
from agency.modules.speedtest.schemas import (
    FieldMetricOut,
    OpportunityOut,
    Rating,
    SpeedResultOut,
    SpeedTestOut,
    SpeedTestStarted,
    TestedThisMonthOut,
)
from agency.modules.speedtest.service import speed_providers
from agency.modules.speedtest.service.speed_providers import (
    MSG_GENERIC,
    MSG_UNREACHABLE,
    SpeedReport,
    SpeedTestFailed,
)
from agency.modules.speedtest.settings import SpeedtestSettings
from agency.net.addresses import (
    Resolver,
    Unresolvable,
    UnsafeAddress,
    parse_ip_literal,
    resolve_public,
)

log = logging.getLogger(__name__)

JOB_KIND = "insights.speed_test"
SOURCES = ("speed-test", "clinic-speed-test", "coach-speed-test")
GENERIC_PAGE = "speed-test"
STRATEGIES = ("mobile", "desktop")

MSG_URL = "Please enter a website URL"
MSG_EMAIL = leads_api.MSG_EMAIL  # 'Please enter your email address'
MSG_EMAIL_INVALID = leads_api.MSG_EMAIL_INVALID
EXAMPLE_HOST = "example.com"
MSG_DOMAIN = f"Please enter a valid domain (e.g., {EXAMPLE_HOST})"
MSG_UNSAFE = "This address cannot be tested."
MSG_UNKNOWN_SOURCE = "This page is not known."
MSG_STRATEGY = "'strategy' must be mobile or desktop."


# A visitor may start 10 tests an hour; one host is tested at most 20 times an hour, whatever
# the port (`domain_subject`; results reused within `speedtest_reuse_minutes` are not counted:
# they cost nothing).
TESTS_PER_ADDRESS = Limit("speedtest-ip", limit=10, window=60 * 60, per_address=True)
TESTS_PER_DOMAIN = Limit("speedtest-domain", limit=20, window=60 * 60)
# Report e-mails (speed tests' and analyses' together) one mailbox receives in a day, whoever
# asks and from wherever (`recipient_subject`): the pages send to any address typed, and without
# this a visitor could have us mail a stranger hundreds of reports. Over it the test still runs
# and shows on the page; only the e-mail is left out.
REPORTS_PER_RECIPIENT = Limit("report-mail", limit=3, window=24 * 60 * 60)
# The job gets one retry for a failure worth retrying (a timeout, the provider's 5xx).
JOB_ATTEMPTS = 2
# A row still queued or running this long after it was created can have no job left working on
# it (two attempts, each bounded by the provider's timeout, plus the queue): it reads as failed.
STALE_AFTER = timedelta(minutes=30)
# The provider's run is cut off this long after its own timeout should have ended it.
RUN_GRACE_SECONDS = 30.0
REPORT_TEMPLATE = "speed_report"
REPORT_OPPORTUNITIES = 3


# ---------------------------------------------------------------------------------------------
# What the pages send


_PORT = re.compile(r"[0-9]{1,5}")


def valid_generic_domain(raw: str) -> bool:
    """The generic page's rule: what `bare_domain` leaves (scheme, www. and one trailing slash
    removed) is a labelled host whose top-level part has at least 2 letters (`valid_host`)."""
    return valid_host(bare_domain(raw))


@dataclass(frozen=True)
class Target:
    """What a test tests: the host (with a port when one was given) and the URL to ask for."""

    domain: str  # the host, lower-case, as the history key (":port" kept)
    hostname: str  # the host alone, for the address check
    url: str  # https:// unless the visitor typed http://


def host_of(rest: str) -> tuple[str, str] | None:
    """(host with port, host) of what is left after the scheme: the path, query and fragment
    are dropped; the host must be a host name (`valid_host`) or an IP literal, with an
    optional port; None when it is neither (spaces, user names, empty)."""
    value = re.split(r"[/?#]", rest, maxsplit=1)[0].lower().rstrip(".")
    if not value or "@" in value or any(c.isspace() for c in value):
        return None
    host, port = value, ""
    if value.startswith("["):
        end = value.find("]")
        host, tail = value[: end + 1], value[end + 1 :]
        if end < 0 or (tail and not tail.startswith(":")):
            return None
        port = tail[1:] if tail else ""
        if port == "" and tail:
            return None
    elif value.count(":") == 1:
        host, port = value.split(":")
        if not port:
            return None
    if port and not (_PORT.fullmatch(port) and 1 <= int(port) <= 65535):
        return None
    literal = parse_ip_literal(host)
    if literal is None and not valid_host(host):
        return None
    if literal is not None:
        host = f"[{literal}]" if literal.version == 6 else str(literal)
    domain = f"{host}:{port}" if port else host
    return (domain, host.strip("[]")) if len(domain) <= 261 else None


def domain_subject(hostname: str) -> str:
    """What the per-domain limit counts for a target's host: the host alone, lower-case, with no
    trailing dot (never the port: each of a host's 65535 ports would have had its own 20 tests
    an hour), and an IPv6 literal as its /64 network, like a client address."""
    host = hostname.strip().strip("[]").rstrip(".").lower()
    return ratelimit.address_subject(host)


def target_for(source: str, raw_url: str) -> Target:
    """The host a page's URL field names, by that page's rule; raises `ValidationFailed` (field
    url) when the field is empty or names no testable host."""
    if not raw_url.strip():
        raise ValidationFailed(MSG_URL, fields={"url": MSG_URL})
    if source == GENERIC_PAGE:
        if not valid_generic_domain(raw_url):
            raise ValidationFailed(MSG_DOMAIN, fields={"url": MSG_DOMAIN})
        rest = bare_domain(raw_url)
    else:
        rest = strip_scheme(raw_url)
    found = host_of(rest)
    if found is None:
        raise ValidationFailed(MSG_DOMAIN, fields={"url": MSG_DOMAIN})
    domain, hostname = found
    scheme = "http" if raw_url.strip().lower().startswith("http://") else "https"
    return Target(domain=domain, hostname=hostname, url=f"{scheme}://{domain}")


def check_request(source: str, raw_url: str, raw_email: str) -> tuple[Target, str]:
    """A page's fields in the spec's order (URL present, e-mail present, domain format), then
    the one e-mail rule; returns the target and the e-mail as stored."""
    if source not in SOURCES:
        raise ValidationFailed(MSG_UNKNOWN_SOURCE, fields={"source": MSG_UNKNOWN_SOURCE})
    if not raw_url.strip():
        raise ValidationFailed(MSG_URL, fields={"url": MSG_URL})
    if not raw_email.strip():
        raise ValidationFailed(MSG_EMAIL, fields={"email": MSG_EMAIL})
    target = target_for(source, raw_url)
    return target, leads_api.lead_email(raw_email)


def rating(score: int) -> Rating:
    """The spec's thresholds: 90 and above Excellent, 70-89 Needs Improvement, below 70 Poor."""
    if score >= 90:
        return "Excellent"
    if score >= 70:
        return "Needs Improvement"
    return "Poor"


# ---------------------------------------------------------------------------------------------
# Starting a test


async def check_address(
    target: Target, settings: SpeedtestSettings, resolver: Resolver | None
) -> None:
    """Refuse a target on our machine or network (unless the unsafe test setting is on)."""
    if settings.speedtest_unsafe_allow_private_targets:
        return
    try:
        await resolve_public(target.hostname, resolver)
    except UnsafeAddress as exc:
        log.info("speed test refused: %s", exc)
        raise ValidationFailed(MSG_UNSAFE, fields={"url": MSG_UNSAFE}) from exc
    except Unresolvable as exc:
        raise ValidationFailed(MSG_UNREACHABLE, fields={"url": MSG_UNREACHABLE}) from exc


async def start_speed_test(
    *,
    url: str,
    email: str,
    source: str,
    strategy: str,
    client_ip: str,
    settings: SpeedtestSettings,
    newsletter: bool = False,
    resolver: Resolver | None = None,
) -> SpeedTestStarted:
    """A visitor's test from one of the three pages (queuing its job wakes the runner). The
    e-mail gets the report; it joins the newsletter only with `newsletter` (the page's opt-in
    box ticked), and only once the test has been started."""
    target, address = check_request(source, url, email)
    if strategy not in STRATEGIES:
        raise ValidationFailed(MSG_STRATEGY, fields={"strategy": MSG_STRATEGY})
    await ratelimit.enforce(TESTS_PER_ADDRESS, client_ip)
    await check_address(target, settings, resolver)
    await leads_api.remember_lead(address, source, target.domain, settings)
    test = await begin(target, strategy, settings, source=source, email=address)
    outcome = await leads_api.newsletter_opt_in(settings, address, newsletter, source)
    return SpeedTestStarted(**test.model_dump(), notice=report_notice(address), newsletter=outcome)


def report_notice(email: str) -> str:
    """What the page confirms once a test has started (spec §2: the report in about 60 s)."""
    return f"Your speed report will arrive at {email} in about 60 seconds."


async def start_for_domain(
    domain: str,
    strategy: str,
    settings: SpeedtestSettings,
    *,
    email: str | None = None,
    source: str = "dashboard",
    resolver: Resolver | None = None,
    not_before: datetime | None = None,
) -> SpeedTestOut:
    """Another module's test of a domain (a customer's website): the clinic pages' lenient
    rule, the address rule, reuse and the per-domain limit; a report only when `email` is
    given. `not_before`: reuse only a test asked for at or after that moment (a site that went
    live then is a new site). Queuing its job wakes the job runner."""
    target = target_for("clinic-speed-test", domain)
    if strategy not in STRATEGIES:
        raise ValidationFailed(MSG_STRATEGY, fields={"strategy": MSG_STRATEGY})
    await check_address(target, settings, resolver)
    address = leads_api.lead_email(email) if email else None
    return await begin(
        target, strategy, settings, source=source, email=address, not_before=not_before
    )


async def begin(
    target: Target,
    strategy: str,
    settings: SpeedtestSettings,
    *,
    source: str,
    email: str | None,
    not_before: datetime | None = None,
) -> SpeedTestOut:
    """Answer from a recent result, or store a queued test and queue its job."""
    reused = await reuse(
        target, strategy, settings, source=source, email=email, not_before=not_before
    )
    if reused is not None:
        return reused
    await ratelimit.enforce(TESTS_PER_DOMAIN, domain_subject(target.hostname))
    async with in_transaction():
        test = await SpeedTest.create(
            public_id=uuid.uuid4().hex,
            domain=target.domain,
            url=target.url,
            strategy=strategy,
            provider=settings.speedtest_provider,
            status=QUEUED,
            source=source,
            email=email,
        )
        await jobs.enqueue(JOB_KIND, {"speed_test_id": test.public_id}, max_attempts=JOB_ATTEMPTS)
    metrics.speed_test("started", test.provider)
    return out(test)


async def reuse(
    target: Target,
    strategy: str,
    settings: SpeedtestSettings,
    *,
    source: str,
    email: str | None,
    not_before: datetime | None = None,
) -> SpeedTestOut | None:
    """A new `done` test carrying the last result of the same domain and strategy, when that
    is younger than `speedtest_reuse_minutes` (0: never reused) and, with `not_before`, was
    asked for at or after it; its report is queued too."""
    if settings.speedtest_reuse_minutes <= 0:
        return None
    since = _now() - timedelta(minutes=settings.speedtest_reuse_minutes)
    recent = SpeedTest.filter(
        domain=target.domain, strategy=strategy, status=DONE, finished_at__gte=since
    )
    if not_before is not None:
        recent = recent.filter(created_at__gte=not_before)
    last = await recent.order_by("-finished_at", "-id").first()
    if last is None:
        return None
    now = _now()
    async with in_transaction():
        test = await SpeedTest.create(
            public_id=uuid.uuid4().hex,
            domain=target.domain,
            url=target.url,
            strategy=strategy,
            provider=last.provider,
            status=DONE,
            source=source,
            email=email,
            score=last.score,
            speed_index_ms=last.speed_index_ms,
            total_blocking_time_ms=last.total_blocking_time_ms,
            lcp_ms=last.lcp_ms,
            layout_shift=last.layout_shift,
            fcp_ms=last.fcp_ms,
            field_data=last.field_data,
            opportunities=last.opportunities,
            reused_from=last.reused_from or last.id,
            started_at=now,
            finished_at=now,
        )
        await send_report(test)
    return out(test)


# ---------------------------------------------------------------------------------------------
# Reading tests


async def get_speed_test(public_id: str) -> SpeedTestOut:
    test = await jobs.read_tracked(
        SpeedTest,
        public_id,
        stale_after=STALE_AFTER,
        stale_message=MSG_GENERIC,
        not_found="This speed test does not exist.",
    )
    return out(test)


async def latest_result(domain: str, strategy: str = "mobile") -> SpeedTestOut | None:
    """The newest finished (done) test of a domain, or None."""
    test = (
        await SpeedTest.filter(domain=domain.lower(), strategy=strategy, status=DONE)
        .order_by("-finished_at", "-id")
        .first()
    )
    return out(test) if test else None


async def history(domain: str, strategy: str = "mobile", limit: int = 100) -> list[SpeedTestOut]:
    """A domain's done tests, oldest first (the last `limit`), for a chart. Reused answers are
    left out: they repeat a measurement, they are not one."""
    tests = (
        await SpeedTest.filter(
            domain=domain.lower(), strategy=strategy, status=DONE, reused_from=None
        )
        .order_by("-finished_at", "-id")
        .limit(limit)
    )
    return [out(test) for test in reversed(tests)]


def month_start(now: datetime) -> datetime:
    """The first instant of `now`'s calendar month (UTC)."""
    at = now.astimezone(UTC)
    return at.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def next_month(start: datetime) -> datetime:
    return (
        start.replace(year=start.year + 1, month=1)
        if start.month == 12
        else start.replace(month=start.month + 1)
    )


# How long before it finished a test can have been asked for, at most (it reads failed after
# `STALE_AFTER`): the month's tests were created after its start less this.
CREATED_BEFORE_FINISHED = 2 * STALE_AFTER


async def tested_this_month(now: datetime | None = None) -> TestedThisMonthOut:
    """The speed-test pages' figure: the distinct websites (domains) whose test completed
    (done, finished) in the current calendar month, UTC. Failed and unfinished tests do not
    count, nor do answers reused from an earlier test (they measured nothing new). The
    indexed `created_at` bounds the rows read to the month's (a test finishes within minutes
    of being asked for: `STALE_AFTER`)."""
    start = month_start(now or _now())
    end = next_month(start)
    rows = (
        await SpeedTest.filter(
            created_at__gte=start - CREATED_BEFORE_FINISHED,
            created_at__lt=end,
            status=DONE,
            reused_from=None,
            finished_at__gte=start,
            finished_at__lt=end,
        )
        .annotate(websites=Count("domain", distinct=True))
        .values("websites")
    )
    websites = int(rows[0]["websites"] or 0) if rows else 0
    return TestedThisMonthOut(month=start.strftime("%Y-%m"), websites=websites)


def result_of(test: SpeedTest) -> SpeedResultOut | None:
    if test.status != DONE or test.score is None:
        return None
    return SpeedResultOut(
        score=test.score,
        rating=rating(test.score),
        speed_index_ms=test.speed_index_ms or 0,
        total_blocking_time_ms=test.total_blocking_time_ms or 0,
        largest_contentful_paint_ms=test.lcp_ms,
        cumulative_layout_shift=test.layout_shift,
        first_contentful_paint_ms=test.fcp_ms,
        field_data=[FieldMetricOut.model_validate(item) for item in test.field_data],
        opportunities=[OpportunityOut.model_validate(item) for item in test.opportunities],
        provider="lighthouse" if test.provider == "lighthouse" else "psi",
    )


def out(test: SpeedTest) -> SpeedTestOut:
    return SpeedTestOut(
        id=test.public_id,
        status=jobs.status_of(test.status),
        domain=test.domain,
        strategy="desktop" if test.strategy == "desktop" else "mobile",
        created_at=test.created_at,
        result=result_of(test),
        error=test.error if test.status == FAILED else None,
    )


# ---------------------------------------------------------------------------------------------
# The job


def report_result(report: SpeedReport) -> SpeedResultOut:
    """A provider's report as the API shows it."""
    return SpeedResultOut(
        score=report.score,
        rating=rating(report.score),
        speed_index_ms=report.speed_index_ms,
        total_blocking_time_ms=report.total_blocking_time_ms,
        largest_contentful_paint_ms=report.largest_contentful_paint_ms,
        cumulative_layout_shift=report.cumulative_layout_shift,
        first_contentful_paint_ms=report.first_contentful_paint_ms,
        field_data=[
            FieldMetricOut(name=m.name, percentile=m.percentile, category=m.category)
            for m in report.field_data
        ],
        opportunities=[
            OpportunityOut(title=o.title, savings_ms=o.savings_ms)
            for o in report.opportunities[:REPORT_OPPORTUNITIES]
        ],
        provider=report.provider,
    )


async def run_provider(
    settings: SpeedtestSettings, url: str, strategy: str, provider_name: str | None = None
) -> SpeedReport:
    """One run of the configured provider (or the one named), bounded in time."""
    name: speed_providers.ProviderName = settings.speedtest_provider
    if provider_name is not None:
        name = "lighthouse" if provider_name == "lighthouse" else "psi"
    provider = speed_providers.provider_for(settings, name)
    chosen: speed_providers.Strategy = "desktop" if strategy == "desktop" else "mobile"
    return await asyncio.wait_for(provider.run(url, chosen), run_limit(settings).total_seconds())


# Speed tests mostly wait on PageSpeed Insights: many at once per process, in slots of their
# own. Local Lighthouse drives a browser: one run per CPU core on a machine, the rest queue.
PSI_PER_PROCESS = 64
# The job's lease outlasts one run: a runner renews it while the test runs, so only a dead
# runner's test is taken over, and by then its row is older than a run (`run_speed_test`).
LEASE_MARGIN = timedelta(seconds=5)


def job_options(settings: SpeedtestSettings) -> dict[str, JobOptions]:
    lease = run_limit(settings) + LEASE_MARGIN
    if settings.speedtest_provider == "lighthouse":
        cores = os.cpu_count() or 1
        return {JOB_KIND: JobOptions(limit=cores, per_host=cores, lease=lease)}
    return {JOB_KIND: JobOptions(limit=PSI_PER_PROCESS, lease=lease)}


def job_handler(settings: SpeedtestSettings) -> Callable[[dict[str, Any]], Awaitable[None]]:
    async def handle(payload: dict[str, Any]) -> None:
        await run_speed_test(settings, str(payload.get("speed_test_id", "")))

    return handle


async def recheck_address(test: SpeedTest, settings: SpeedtestSettings) -> None:
    """Local Lighthouse drives a browser on our machine: the name is looked up again right
    before the run, so one that pointed elsewhere when the test was asked for and now points
    at our network (DNS rebinding) is refused. (PageSpeed Insights fetches from Google's
    machines: nothing of ours to reach.)"""
    if (
        settings.speedtest_provider != "lighthouse"
        or settings.speedtest_unsafe_allow_private_targets
    ):
        return
    found = host_of(test.domain)
    try:
        await resolve_public(found[1] if found else test.domain)
    except UnsafeAddress as exc:
        log.warning("speed test %s refused at run time: %s", test.public_id, exc)
        raise SpeedTestFailed(MSG_UNSAFE) from exc
    except Unresolvable as exc:
        raise SpeedTestFailed(MSG_UNREACHABLE) from exc


def run_limit(settings: SpeedtestSettings) -> timedelta:
    """The longest one run of the provider may take (`run_provider` cuts it off then)."""
    return timedelta(seconds=settings.pagespeed_timeout + RUN_GRACE_SECONDS)


async def run_speed_test(settings: SpeedtestSettings, public_id: str) -> None:
    """The job: run one queued test and store its outcome (see the module docstring)."""
    test = await SpeedTest.get_or_none(public_id=public_id)
    if test is None or test.status in (DONE, FAILED):
        return  # gone, or finished by an earlier run of this job
    run = await jobs.TrackedRun.start(SpeedTest, test, run_limit(settings))
    if run is None:
        return  # another runner is on it
    try:
        await recheck_address(test, settings)
        report = await run_provider(settings, test.url, test.strategy)
    except asyncio.CancelledError:
        # The runner stops (its job goes back to the queue): so does the test.
        await run.requeue()
        raise
    except SpeedTestFailed as exc:
        if exc.retryable and not jobs.final_attempt():
            await run.requeue()
            raise  # the job queue tries once more after its back-off
        if await run.fail(exc.message):
            metrics.speed_test("failed", test.provider)
        raise jobs.PermanentFailure(exc.message) from exc
    except Exception as exc:
        log.exception("speed test %s: the provider failed unexpectedly", public_id)
        if await run.fail(MSG_GENERIC):
            metrics.speed_test("failed", test.provider)
        raise jobs.PermanentFailure(MSG_GENERIC) from exc
    await _finish_done(test, report, run)


async def _finish_done(test: SpeedTest, report: SpeedReport, run: jobs.TrackedRun) -> None:
    result = report_result(report)
    async with in_transaction():
        won = await run.finish(
            provider=report.provider,
            score=result.score,
            speed_index_ms=result.speed_index_ms,
            total_blocking_time_ms=result.total_blocking_time_ms,
            lcp_ms=result.largest_contentful_paint_ms,
            layout_shift=result.cumulative_layout_shift,
            fcp_ms=result.first_contentful_paint_ms,
            field_data=[m.model_dump() for m in result.field_data],
            opportunities=[o.model_dump() for o in result.opportunities],
        )
        if won:
            await send_report(await SpeedTest.get(id=test.id))
    if won:
        metrics.speed_test("done", report.provider)


# ---------------------------------------------------------------------------------------------
# The report e-mail


def seconds_text(ms: float | None) -> str:
    """A time in ms as the visitor reads it, to a tenth of a second with halves rounded up:
    250 -> "0.3 s", 3180 -> "3.2 s". The web UI's `seconds()` (speed-test.ts) is the same rule,
    so the page and the report e-mail say the same number; both are checked against one table,
    `webui/test/fixtures/figure-cases.json`. (Not `f"{ms / 1000:.1f}"`: that rounds
    half to even on a binary fraction, 250 ms to "0.2 s" where the page said "0.3 s".)"""
    if ms is None:
        return "-"
    tenths = int((Decimal(str(ms)) / 100).to_integral_value(rounding=ROUND_HALF_UP))
    return f"{tenths // 10}.{tenths % 10} s"


def milliseconds_text(ms: float) -> str:
    """1234 -> "1,234 ms", halves rounded up: the web UI's `milliseconds()`."""
    whole = int(Decimal(str(ms)).to_integral_value(rounding=ROUND_HALF_UP))
    return f"{whole:,} ms"


_FIELD_NAMES = {
    "LCP": "Largest contentful paint",
    "INP": "Interaction to next paint",
    "CLS": "Cumulative layout shift",
}
_CATEGORIES = {"FAST": "good", "AVERAGE": "needs improvement", "SLOW": "poor"}


def layout_shift_text(value: float) -> str:
    """CLS to two decimals as the web UI's `layoutShift()` (toFixed) does: halves of the exact
    binary value up (0.125 -> "0.13", where `f"{0.125:.2f}"` gives "0.12")."""
    return str(Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _field_value(name: str, percentile: float) -> str:
    """A real-visitor figure as the result page shows it: CLS plain, LCP in s, INP in ms."""
    if name == "CLS":
        return layout_shift_text(percentile)
    return seconds_text(percentile) if name == "LCP" else milliseconds_text(percentile)


def report_context(test: SpeedTest) -> dict[str, Any]:
    """What the report e-mail says about a done test."""
    result = result_of(test)
    if result is None:
        raise ValueError("only a done test has a report")
    field_data = [
        {
            "name": _FIELD_NAMES.get(m.name, m.name),
            "value": _field_value(m.name, m.percentile),
            "category": _CATEGORIES.get(m.category.upper(), m.category.lower()),
        }
        for m in result.field_data
    ]
    return {
        "domain": test.domain,
        "strategy": test.strategy,
        "score": result.score,
        "rating": result.rating,
        "fast": result.score >= 90,
        "speed_index": seconds_text(result.speed_index_ms),
        "blocking_time": milliseconds_text(result.total_blocking_time_ms),
        "lcp": seconds_text(result.largest_contentful_paint_ms),
        "cls": "-"
        if result.cumulative_layout_shift is None
        else layout_shift_text(result.cumulative_layout_shift),
        "fcp": seconds_text(result.first_contentful_paint_ms),
        "field_data": field_data,
        "opportunities": [
            {"title": o.title, "saving": seconds_text(o.savings_ms)}
            for o in result.opportunities[:REPORT_OPPORTUNITIES]
        ],
    }


async def send_report(test: SpeedTest) -> None:
    """Queue the visitor's report (nothing when the test has no e-mail, or its mailbox had its
    reports for the day)."""
    if test.email and await report_allowed(test.email, "speed test", test.public_id):
        context = report_context(test)
        await mail.send_mail(test.email, REPORT_TEMPLATE, context, unsubscribable=True)


# The mailbox an address delivers to: the mail layer's rule, which its opt-outs follow too.
recipient_subject = mail.mailbox


async def report_allowed(email: str, what: str, public_id: str) -> bool:
    """Count one report e-mail to this mailbox, or say no (and log it) when it had
    `REPORTS_PER_RECIPIENT` in the last day."""
    try:
        await ratelimit.enforce(REPORTS_PER_RECIPIENT, recipient_subject(email))
    except TooManyRequests:
        log.info(
            "%s report not e-mailed: the recipient had %d reports in the last day",
            what,
            REPORTS_PER_RECIPIENT.limit,
            extra={"public_id": public_id},
        )
        return False
    return True


# ---------------------------------------------------------------------------------------------
# The CLI


async def run_now(
    domain: str, strategy: str, provider_name: str | None, settings: SpeedtestSettings
) -> SpeedResultOut:
    """`agency speedtest`: the provider run in this process, no queue, no address rule (the
    operator may test a site on their own network); raises `SpeedTestFailed` or
    `ValidationFailed`."""
    target = target_for("clinic-speed-test", domain)
    report = await run_provider(settings, target.url, strategy, provider_name)
    return report_result(report)


def _now() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------------------------------------
# A person's data and retention


async def export_for_email(email: str) -> list[dict[str, Any]]:
    """The tests whose report went to this e-mail, newest first, with the e-mail."""
    tests = await SpeedTest.filter(email=email).order_by("-created_at")
    return [{**out(test).model_dump(mode="json"), "email": test.email} for test in tests]


async def forget_email(email: str) -> None:
    """The tests stay as the domain's history, without the e-mail."""
    await SpeedTest.filter(email=email).update(email=None)


async def prune(settings: SpeedtestSettings, now: datetime) -> dict[str, int]:
    """Retention: the e-mail on a test goes `retention_leads_days` after it was given (the test
    stays, as the domain's history)."""
    cutoff = now - timedelta(days=settings.retention_leads_days)
    forgotten = await SpeedTest.filter(created_at__lt=cutoff, email__not_isnull=True).update(
        email=None
    )
    return {"insights.speed_test_emails": forgotten}
