"""The AI website analysis: the visitor's real page fetched, audited and written up,
with a speed test beside it, as a job.

`start_analysis` checks what the page sent in the spec's order (§5: URL present, e-mail
present, the strict domain rule, then the one e-mail rule), counts the per-address and
per-domain limits, refuses a name on our own network, keeps the e-mail as a lead of its page,
starts a speed test of the domain through the speed-test service (no e-mail of its own: the
analysis report carries its result) and stores a `queued` row with the job `insights.analysis`.

The job (`run_analysis`) marks the row running by a compare-and-swap on `started_at` (a second
runner with the same job does nothing), fetches the page with `agency.net.safe_fetch` (never
our own network; `analysis_unsafe_fetch_overrides` and private addresses only with the unsafe
test setting), audits it (`page_audit.audit_html`) and writes the report: with the configured
AI model (`analysis_ai.ai_report`) or, without one or when the provider fails, by the rules
(`analysis_rules.rules_report`). The visitor reads what the report is based on in plain words
(`NOTE_AI`, `NOTE_RULES`, from `generated_by`); why the rules wrote it (no model configured, or
the provider's failure) is logged with the analysis id and kept in the row's `generated_note`
for the admin (`GET /api/admin/analyses/{id}`), never shown on the page. The row is then
`done` (or `failed` with a message for people). Then it waits, bounded, for the speed test and
queues the report e-mail once (`report_sent` flips by a compare-and-swap; left out when the
mailbox had its reports for the day, `speedtest_api.report_allowed`). A job re-run after a
crash continues where the row stands; a row still unfinished long after any job could have
ended reads as failed.

`get_analysis` computes the scores (`analysis_scores.derive_scores`) and the critical issues
(`analysis_rules.critical_issues`) when read, from the stored facts and the speed test's
current result: never from the report, so the AI's prose cannot move a number.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal

from tortoise.transactions import in_transaction

from agency.core import jobs, mail, metrics, ratelimit
from agency.core.errors import AppError, NotFound, ValidationFailed
from agency.core.jobs import DONE, FAILED, QUEUED
from agency.core.modules import JobOptions
from agency.core.ratelimit import Limit
from agency.core.text import bare_domain, single_label_domain
from agency.modules.analysis.models import Analysis
from agency.modules.analysis.schemas import (
    AdminAnalysisOut,
    AnalysisOut,
    AnalysisReportOut,
    AnalysisScoresOut,
    AnalysisStarted,
    AnalysisVariant,
    PageFactsOut,
)
from agency.modules.analysis.service import (
    analysis_ai,
    analysis_rules,
    analysis_scores,
    page_audit,
)
from agency.modules.analysis.settings import AnalysisSettings
from agency.modules.leads import api as leads_api
from agency.modules.speedtest import api as speedtest_api
from agency.modules.speedtest.api import SpeedResultOut, SpeedTestOut
from agency.net import ai, safe_fetch
from agency.net.addresses import Resolver, Unresolvable, UnsafeAddress, resolve_public

log = logging.getLogger(__name__)

JOB_KIND = "insights.analysis"

# The four pages, in the spec's order (DECISIONS.md route mapping), and the variant each shows.
VARIANTS: Final[dict[str, AnalysisVariant]] = {
    "ai-analysis": "general",
    "business-analysis": "lead",
    "technical-analysis": "technical",
    "agency-analysis": "agency",
}
SOURCE_OF: Final[dict[str, str]] = {variant: source for source, variant in VARIANTS.items()}

# Each page's own messages (spec §5).
MSG_URL: Final[dict[str, str]] = {
    "general": "Please enter a website URL",
    "lead": "Please enter your website URL",
    "technical": "Please enter your website URL",
    "agency": "Please enter your client's website URL",
}
MSG_EMAIL: Final[dict[str, str]] = {
    "general": leads_api.MSG_EMAIL,  # 'Please enter your email address'
    "lead": leads_api.MSG_EMAIL,
    "technical": leads_api.MSG_EMAIL,
    "agency": "Please enter your agency email address",
}
MSG_DOMAIN: Final = speedtest_api.MSG_DOMAIN  # 'Please enter a valid domain (e.g., example.com)'
MSG_UNSAFE: Final = safe_fetch.MSG_REFUSED  # 'This address cannot be analysed.'
MSG_UNREACHABLE: Final = safe_fetch.MSG_UNREACHABLE
MSG_UNKNOWN_SOURCE: Final = speedtest_api.MSG_UNKNOWN_SOURCE
MSG_GENERIC: Final = "Failed to analyze the website. Please try again."
MSG_NOT_FOUND: Final = "This analysis does not exist."

# What the visitor reads about how the report was made: plain words, no provider, no failure.
NOTE_AI: Final = (
    "Written with AI from the facts found on your page and its speed test. "
    "The scores come from those facts alone."
)
NOTE_RULES: Final = "Based on the facts found on your page and its speed test."
# Without a speed test (it could not run, or it failed) the note does not name one.
NOTE_AI_NO_SPEED: Final = (
    "Written with AI from the facts found on your page. The scores come from those facts alone."
)
NOTE_RULES_NO_SPEED: Final = "Based on the facts found on your page."
# Why, for the admin (kept in the row's `generated_note`, and logged).
DETAIL_AI: Final = "Written by the AI model {model}."
DETAIL_NO_AI: Final = "Written by the rules: no AI model is configured."
DETAIL_AI_FAILED: Final = "Written by the rules: the AI provider failed ({reason})."


def visitor_note(generated_by: str | None, *, speed_test: bool = True) -> str | None:
    """What the page and the e-mail say the report is based on (`speed_test`: one ran or is
    running beside it)."""
    if generated_by == "ai":
        return NOTE_AI if speed_test else NOTE_AI_NO_SPEED
    if generated_by == "rules":
        return NOTE_RULES if speed_test else NOTE_RULES_NO_SPEED
    return None


def notice(email: str) -> str:
    """The note the page shows once the e-mail is registered (spec §4)."""
    return f"You'll receive your detailed analysis report at {email}"


# A visitor may start 10 analyses an hour; one domain is analysed at most 20 times an hour.
ANALYSES_PER_ADDRESS = Limit("analysis-ip", limit=10, window=60 * 60, per_address=True)
ANALYSES_PER_DOMAIN = Limit("analysis-domain", limit=20, window=60 * 60)
# One retry, for a run lost with its worker (the row says where it stands).
JOB_ATTEMPTS = 2
# A row still queued or running this long after it was created reads as failed.
STALE_AFTER = timedelta(minutes=30)
# The fetcher's limits (security-and-apis.md §A3).
FETCH_TIMEOUT = 10.0
FETCH_MAX_BYTES = 2_000_000
FETCH_MAX_REDIRECTS = 5
# After the report, the e-mail waits this long at most for the speed test, asking every
# SPEED_POLL_SECONDS; a speed test still unfinished then is left out of the e-mail.
SPEED_POLL_SECONDS = 1.0
LEASE = timedelta(seconds=60)
PER_PROCESS = 32
REPORT_TEMPLATE = "analysis_report"


# ---------------------------------------------------------------------------------------------
# What the pages send


def valid_domain(raw: str) -> bool:
    """The analysis pages' strict rule (spec §5): what `bare_domain` leaves (scheme, www. and
    one trailing slash removed) is one name and a top-level part (`single_label_domain`)."""
    return single_label_domain(bare_domain(raw))


@dataclass(frozen=True)
class Request:
    variant: AnalysisVariant
    domain: str  # lower case, e.g. customer-site.com
    email: str


def check_request(source: str, raw_url: str, raw_email: str) -> Request:
    """A page's fields in the spec's order with that page's messages; raises
    `ValidationFailed` naming the field."""
    variant = VARIANTS.get(source)
    if variant is None:
        raise ValidationFailed(MSG_UNKNOWN_SOURCE, fields={"source": MSG_UNKNOWN_SOURCE})
    if not raw_url.strip():
        raise ValidationFailed(MSG_URL[variant], fields={"url": MSG_URL[variant]})
    if not raw_email.strip():
        raise ValidationFailed(MSG_EMAIL[variant], fields={"email": MSG_EMAIL[variant]})
    if not valid_domain(raw_url):
        raise ValidationFailed(MSG_DOMAIN, fields={"url": MSG_DOMAIN})
    return Request(variant, bare_domain(raw_url).lower(), leads_api.lead_email(raw_email))


# ---------------------------------------------------------------------------------------------
# Starting an analysis


async def check_address(domain: str, settings: AnalysisSettings, resolver: Resolver | None) -> None:
    """Refuse a name that points at our machine or network now (the fetcher checks again,
    and connects only to the address it checked)."""
    if settings.speedtest_unsafe_allow_private_targets:
        return
    try:
        await resolve_public(domain, resolver)
    except UnsafeAddress as exc:
        log.info("analysis refused: %s", exc)
        raise ValidationFailed(MSG_UNSAFE, fields={"url": MSG_UNSAFE}) from exc
    except Unresolvable as exc:
        raise ValidationFailed(MSG_UNREACHABLE, fields={"url": MSG_UNREACHABLE}) from exc


async def start_analysis(
    *,
    url: str,
    email: str,
    source: str,
    client_ip: str,
    settings: AnalysisSettings,
    newsletter: bool = False,
    resolver: Resolver | None = None,
) -> AnalysisStarted:
    """A visitor's analysis from one of the four pages (queuing its job wakes the runner). The
    e-mail gets the report; it joins the newsletter only with `newsletter` (the page's opt-in
    box ticked), once the analysis has been queued."""
    asked = check_request(source, url, email)
    await ratelimit.enforce(ANALYSES_PER_ADDRESS, client_ip)
    await check_address(asked.domain, settings, resolver)
    await ratelimit.enforce(ANALYSES_PER_DOMAIN, asked.domain)
    # The e-mail is registered first (spec §4): a lead of its page, one per visit.
    await leads_api.remember_lead(asked.email, source, asked.domain, settings)
    speed = await _start_speed_test(asked.domain, source, settings)
    async with in_transaction():
        row = await Analysis.create(
            public_id=uuid.uuid4().hex,
            variant=asked.variant,
            source=source,
            domain=asked.domain,
            url=f"https://{asked.domain}/",
            email=asked.email,
            status=QUEUED,
            speed_test_public_id=speed.id if speed else None,
        )
        await jobs.enqueue(JOB_KIND, {"analysis_id": row.public_id}, max_attempts=JOB_ATTEMPTS)
    metrics.analysis("started", planned_writer(settings))
    outcome = await leads_api.newsletter_opt_in(settings, asked.email, newsletter, source)
    return AnalysisStarted(**(await out(row)).model_dump(), newsletter=outcome)


async def _start_speed_test(
    domain: str, source: str, settings: AnalysisSettings
) -> SpeedTestOut | None:
    """The speed test beside the audit (a recent result of the domain is reused); the analysis
    goes on without one when it cannot start (its own per-domain limit)."""
    try:
        target = speedtest_api.target_for("clinic-speed-test", domain)
        return await speedtest_api.begin(target, "mobile", settings, source=source, email=None)
    except AppError as exc:
        log.info("analysis of %s: no speed test (%s)", domain, exc.message)
        return None


# ---------------------------------------------------------------------------------------------
# Reading an analysis


async def _read(public_id: str) -> Analysis:
    return await jobs.read_tracked(
        Analysis,
        public_id,
        stale_after=STALE_AFTER,
        stale_message=MSG_GENERIC,
        not_found=MSG_NOT_FOUND,
    )


async def get_analysis(public_id: str) -> AnalysisOut:
    return await out(await _read(public_id))


async def speed_test_of(row: Analysis) -> SpeedTestOut | None:
    if not row.speed_test_public_id:
        return None
    try:
        return await speedtest_api.get_speed_test(row.speed_test_public_id)
    except NotFound:
        return None  # deleted with its retention


def variant_of(row: Analysis) -> AnalysisVariant:
    for source, variant in VARIANTS.items():
        if row.variant == variant or row.source == source:
            return variant
    return "general"


def _generated_by(value: str | None) -> Literal["ai", "rules"] | None:
    return "ai" if value == "ai" else "rules" if value == "rules" else None


async def out(row: Analysis) -> AnalysisOut:
    """The analysis as the API shows it: scores and critical issues computed now."""
    variant = variant_of(row)
    speed_test = await speed_test_of(row)
    speed = speed_test.result if speed_test else None
    facts = PageFactsOut.model_validate(row.facts) if row.facts else None
    report = AnalysisReportOut.model_validate(row.report) if row.report else None
    done = row.status == DONE and report is not None
    scores = analysis_scores.derive_scores(facts, speed, variant) if done and facts else None
    issues = analysis_rules.critical_issues(facts, speed, variant) if done else []
    return AnalysisOut(
        id=row.public_id,
        status=jobs.status_of(row.status),
        variant=variant,
        domain=row.domain,
        email=row.email,
        notice=notice(row.email),
        created_at=row.created_at,
        report=report if done else None,
        scores=scores,
        facts=facts if done else None,
        critical_issues=issues,
        generated_by=_generated_by(row.generated_by) if done else None,
        generated_note=(
            visitor_note(row.generated_by, speed_test=_measured(speed_test)) if done else None
        ),
        speed_test=speed_test,
        error=row.error if row.status == FAILED else None,
    )


def _measured(test: SpeedTestOut | None) -> bool:
    return test is not None and test.status != FAILED


async def get_admin_analysis(public_id: str) -> AdminAnalysisOut:
    """The analysis as the admin sees it: what the visitor sees, and how its report was
    written (the AI model, or why the rules wrote it)."""
    row = await _read(public_id)
    seen = await out(row)
    return AdminAnalysisOut(**seen.model_dump(), generated_detail=row.generated_note)


# ---------------------------------------------------------------------------------------------
# The work: fetch, audit, report (shared by the job and `agency analyze`)


@dataclass(frozen=True)
class Written:
    facts: PageFactsOut
    report: AnalysisReportOut
    generated_by: Literal["ai", "rules"]
    detail: str  # for the admin: the model, or why the rules wrote it


def fetch_plan(domain: str, settings: AnalysisSettings) -> tuple[list[str], bool]:
    """The addresses to try in order (https, then http when https cannot be reached), and
    whether private addresses are allowed (only with the unsafe test setting)."""
    allow_private = settings.speedtest_unsafe_allow_private_targets
    override = settings.analysis_unsafe_fetch_overrides.get(domain.lower())
    if override and allow_private:
        return [override], True
    return [f"https://{domain}/", f"http://{domain}/"], allow_private


async def fetch(
    domain: str,
    settings: AnalysisSettings,
    *,
    resolver: Resolver | None = None,
    allow_private: bool | None = None,
) -> safe_fetch.FetchedPage:
    """The domain's home page, by the fetcher's rules; raises `safe_fetch.FetchError`."""
    urls, allowed = fetch_plan(domain, settings)
    last: safe_fetch.FetchError | None = None
    for url in urls:
        try:
            return await safe_fetch.fetch_page(
                url,
                resolver=resolver,
                allow_private=allowed if allow_private is None else allow_private,
                timeout=FETCH_TIMEOUT,
                max_bytes=FETCH_MAX_BYTES,
                max_redirects=FETCH_MAX_REDIRECTS,
            )
        except safe_fetch.FetchFailed as exc:
            if exc.message != safe_fetch.MSG_UNREACHABLE:
                raise
            last = exc
    assert last is not None
    raise last


async def write_report(
    settings: AnalysisSettings,
    facts: PageFactsOut,
    variant: AnalysisVariant,
    domain: str,
    *,
    analysis_id: str = "-",
) -> Written:
    """The report by the configured AI model, or by the rules (no model, or it failed: logged
    as a warning with the analysis id, and kept in `detail` for the admin)."""
    if not ai.configured(settings):
        report = analysis_rules.rules_report(facts, variant, domain)
        return Written(facts, report, "rules", DETAIL_NO_AI)
    try:
        report = await analysis_ai.ai_report(settings, facts, variant, domain)
    except ai.AIError as exc:
        log.warning(
            "analysis %s of %s: the AI provider failed (%s: %s); the rules wrote the report",
            analysis_id,
            domain,
            exc.kind,
            exc.message,
        )
        report = analysis_rules.rules_report(facts, variant, domain)
        return Written(facts, report, "rules", DETAIL_AI_FAILED.format(reason=exc.message))
    return Written(facts, report, "ai", DETAIL_AI.format(model=ai.model_name(settings)))


async def analyse(
    domain: str,
    variant: AnalysisVariant,
    settings: AnalysisSettings,
    *,
    resolver: Resolver | None = None,
    allow_private: bool | None = None,
    analysis_id: str = "-",
) -> Written:
    page = await fetch(domain, settings, resolver=resolver, allow_private=allow_private)
    facts = await page_audit.audit_in_thread(
        page.html, final_url=page.final_url, http_status=page.status
    )
    return await write_report(settings, facts, variant, domain, analysis_id=analysis_id)


# ---------------------------------------------------------------------------------------------
# The job


def run_limit(settings: AnalysisSettings) -> timedelta:
    """The longest one run may take: the fetch (two tries), and the AI step with its retries."""
    ai_part = settings.ai_timeout * (settings.ai_max_retries + 1) if ai.configured(settings) else 0
    return timedelta(seconds=2 * FETCH_TIMEOUT + ai_part + 30)


def speed_wait(settings: AnalysisSettings) -> timedelta:
    """How long the e-mail waits for the speed test (its two attempts and the queue)."""
    return 2 * speedtest_api.run_limit(settings) + timedelta(seconds=30)


def job_options(_settings: AnalysisSettings) -> dict[str, JobOptions]:
    return {JOB_KIND: JobOptions(limit=PER_PROCESS, lease=LEASE)}


def job_handler(settings: AnalysisSettings) -> Callable[[dict[str, Any]], Awaitable[None]]:
    async def handle(payload: dict[str, Any]) -> None:
        await run_analysis(settings, str(payload.get("analysis_id", "")))

    return handle


async def run_analysis(settings: AnalysisSettings, public_id: str) -> None:
    """The job: analyse one queued row, then e-mail the report (see the module docstring)."""
    row = await Analysis.get_or_none(public_id=public_id)
    if row is None or row.status == FAILED:
        return
    if row.status != DONE:
        run = await jobs.TrackedRun.start(Analysis, row, run_limit(settings))
        if run is None:
            return  # another runner is on it
        written = await _produce(settings, row, run)
        won = await run.finish(
            facts=written.facts.model_dump(mode="json"),
            report=written.report.model_dump(mode="json"),
            generated_by=written.generated_by,
            generated_note=written.detail,
        )
        if not won:
            return
        metrics.analysis("done", "ai" if written.generated_by == "ai" else "rules")
    await _send_report_once(settings, await Analysis.get(id=row.id))


async def _produce(settings: AnalysisSettings, row: Analysis, run: jobs.TrackedRun) -> Written:
    try:
        return await asyncio.wait_for(
            analyse(row.domain, variant_of(row), settings, analysis_id=row.public_id),
            run_limit(settings).total_seconds(),
        )
    except asyncio.CancelledError:
        # The runner stops (its job goes back to the queue): so does the analysis.
        await run.requeue()
        raise
    except safe_fetch.FetchError as exc:
        log.info("analysis %s of %s failed: %s", row.public_id, row.domain, exc)
        if await run.fail(exc.message):
            metrics.analysis("failed", planned_writer(settings))
        raise jobs.PermanentFailure(exc.message) from exc
    except Exception as exc:
        log.exception("analysis %s of %s failed unexpectedly", row.public_id, row.domain)
        if await run.fail(MSG_GENERIC):
            metrics.analysis("failed", planned_writer(settings))
        raise jobs.PermanentFailure(MSG_GENERIC) from exc


def planned_writer(settings: AnalysisSettings) -> str:
    """Who is to write the report, for the metrics: the AI model when one is configured."""
    return "ai" if ai.configured(settings) else "rules"


async def wait_for_speed_test(row: Analysis, settings: AnalysisSettings) -> SpeedTestOut | None:
    """The speed test once it has finished, or as it stands when the wait is over."""
    deadline = _now() + speed_wait(settings)
    while True:
        test = await speed_test_of(row)
        if test is None or test.status in (DONE, FAILED) or _now() >= deadline:
            return test
        await asyncio.sleep(SPEED_POLL_SECONDS)


async def _send_report_once(settings: AnalysisSettings, row: Analysis) -> None:
    if row.report_sent or row.status != DONE:
        return
    test = await wait_for_speed_test(row, settings)
    analysis = await out(row)
    context = report_context(analysis, test.result if test else None)
    async with in_transaction():
        won = await Analysis.filter(id=row.id, report_sent=False).update(report_sent=True)
        # The mailbox's daily allowance of reports is shared with the speed tests'.
        if won and await speedtest_api.report_allowed(row.email, "analysis", row.public_id):
            await mail.send_mail(row.email, REPORT_TEMPLATE, context, unsubscribable=True)


# ---------------------------------------------------------------------------------------------
# The report e-mail


# How each page names the four scores and the report's parts (the spec's analysis-shared).
SCORE_NAMES: Final = analysis_scores.SCORE_NAMES
SECTION_NAMES: Final[dict[str, tuple[str, str, str]]] = {
    "general": ("Strategy Overview", "Sales Funnel Analysis", "Customer Journey Analysis"),
    "lead": ("Strategy Overview", "Sales Funnel Analysis", "Customer Journey Analysis"),
    "technical": (
        "Technical Architecture Overview",
        "Performance Analysis",
        "Your stack, layer by layer",
    ),
    "agency": ("Growth Strategy Overview", "Revenue Opportunities", "Growth Roadmap"),
}
COLUMN_NAMES: Final[dict[str, tuple[str, str, str]]] = {
    "general": ("AI Customer Support", "AI SEO Opportunities", "AI Personalization"),
    "lead": ("AI Customer Support", "AI SEO Opportunities", "AI Personalization"),
    "technical": ("Transport and headers", "Third-party scripts", "Forms and data"),
    "agency": ("Premium Services", "Growth Services", "Client Services"),
}
HEADINGS: Final[dict[str, str]] = {
    "general": "Your AI website analysis",
    "lead": "Your website report",
    "technical": "Your technical analysis",
    "agency": "Your client's growth analysis",
}


def score_rows(
    scores: AnalysisScoresOut, variant: AnalysisVariant
) -> list[tuple[str, int | None, str]]:
    """(name, score, label) of the four scores the page shows, in its order."""
    first, second, third = SCORE_NAMES[variant]
    third_score = scores.security if variant == "technical" else scores.ai_readiness
    rows: list[tuple[str, int | None, str]] = [("Speed", scores.speed, "")]
    rows += [(first, scores.strategy, ""), (second, scores.funnel, ""), (third, third_score, "")]
    return [
        (name, value, "" if value is None else analysis_scores.score_label(value, variant))
        for name, value, _ in rows
    ]


def report_context(analysis: AnalysisOut, speed: SpeedResultOut | None) -> dict[str, Any]:
    """What the report e-mail says about a done analysis."""
    report = analysis.report
    if report is None:
        raise ValueError("only a done analysis has a report")
    variant = analysis.variant
    if analysis.facts is None:
        raise ValueError("only a done analysis has facts")
    scores = analysis_scores.derive_scores(analysis.facts, speed, variant)
    overview_name, funnel_name, journey_name = SECTION_NAMES[variant]
    columns = zip(
        COLUMN_NAMES[variant],
        (
            report.ai_opportunities.customer_support,
            report.ai_opportunities.seo,
            report.ai_opportunities.personalization,
        ),
        strict=True,
    )
    return {
        "heading": HEADINGS[variant],
        "domain": analysis.domain,
        "scores": [
            {"name": name, "value": "-" if value is None else f"{value}/100", "label": label}
            for name, value, label in score_rows(scores, variant)
        ],
        "speed_index": None if speed is None else f"{speed.speed_index_ms / 1000:.1f} s",
        "critical_issues": analysis_rules.critical_issues(analysis.facts, speed, variant),
        "overview_name": overview_name,
        "overview": report.overview,
        "funnel_name": funnel_name,
        "stages": [s.model_dump() for s in report.sales_funnel.stages],
        "journey_name": journey_name,
        "touchpoints": [t.model_dump() for t in report.customer_journey.touchpoints],
        "columns": [{"name": name, "entries": items} for name, items in columns if items],
        "generated_note": analysis.generated_note or "",
    }


# ---------------------------------------------------------------------------------------------
# The CLI


async def run_now(
    domain: str, variant: AnalysisVariant, settings: AnalysisSettings
) -> tuple[AdminAnalysisOut, SpeedResultOut | None, str | None]:
    """`agency analyze`: fetch, audit and report in this process, beside the speed provider's
    run (no queue, no database). Like `agency speedtest` it skips the address rule: the
    operator may analyse a site on their own network. Returns the analysis, the speed result
    and the speed test's failure message; raises `ValidationFailed` or `safe_fetch.FetchError`."""
    target = speedtest_api.target_for("clinic-speed-test", domain)
    host = target.domain
    speed_task = asyncio.create_task(speedtest_api.run_now(host, "mobile", None, settings))
    try:
        written = await analyse(host, variant, settings, allow_private=True)
    except BaseException:
        speed_task.cancel()
        raise
    speed: SpeedResultOut | None = None
    speed_error: str | None = None
    try:
        speed = await speed_task
    except speedtest_api.SpeedTestFailed as exc:
        speed_error = exc.message
    except Exception:
        log.exception("agency analyze: the speed test failed")
        speed_error = speedtest_api.MSG_GENERIC
    now = _now()
    analysis = AdminAnalysisOut(
        id="",
        status="done",
        variant=variant,
        domain=host,
        email="",
        notice="",
        created_at=now,
        report=written.report,
        scores=analysis_scores.derive_scores(written.facts, speed, variant),
        facts=written.facts,
        critical_issues=analysis_rules.critical_issues(written.facts, speed, variant),
        generated_by=written.generated_by,
        generated_note=visitor_note(written.generated_by, speed_test=speed is not None),
        speed_test=None,
        error=None,
        generated_detail=written.detail,
    )
    return analysis, speed, speed_error


def _now() -> datetime:
    return datetime.now(UTC)


async def prune(settings: AnalysisSettings, now: datetime) -> dict[str, int]:
    """Retention: the analyses (which carry the e-mail) go `retention_leads_days` after they
    were asked for."""
    cutoff = now - timedelta(days=settings.retention_leads_days)
    return {"insights.analyses": await Analysis.filter(created_at__lt=cutoff).delete()}
