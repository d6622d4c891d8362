"""Websites: create one (a purchase with a domain), the owner's list, detail and removal, the
agency's list and status changes (going live e-mails and notifies the owner), user data."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from tortoise.transactions import in_transaction

from agency.core import mail
from agency.core.errors import NotFound, ValidationFailed
from agency.core.sql import fits_int_id
from agency.core.text import bare_host
from agency.modules.audit import api as audit_api
from agency.modules.auth import api as auth_api
from agency.modules.catalogue import api as catalogue_api
from agency.modules.notifications import api as notifications_api
from agency.modules.sites.models import (
    BUILDING,
    CANCELLED,
    FAILED,
    LIVE,
    MANUAL,
    PAUSED,
    STATUSES,
    SpeedCheck,
    Website,
)
from agency.modules.sites.schemas import (
    AdminWebsiteOut,
    AnalyticsOut,
    ScorePoint,
    SiteAnalytics,
    SpeedCheckOut,
    WebsiteDetail,
    WebsiteOut,
)
from agency.modules.sites.service import checks
from agency.modules.sites.settings import SitesSettings
from agency.modules.speedtest import api as speedtest_api
from agency.modules.speedtest.api import SpeedResultOut

log = logging.getLogger(__name__)

MSG_DOMAIN = "Please enter a valid domain (e.g., example.com)"
MSG_NOT_FOUND = "This website does not exist."
MSG_NO_CHECK = "This website has no speed test yet."
MSG_STATUS = "The status must be building, live, paused or cancelled."
LIVE_TEMPLATE = "site_live"
HISTORY_POINTS = 52  # a year of weekly tests

# What each status means to the customer, and what happens next.
STATUS_TEXT = {
    BUILDING: "We are building your website. We will e-mail you the moment it is live.",
    LIVE: "Your website is live. We test its speed regularly and tell you if the score drops.",
    PAUSED: "Work on your website is paused. Write to support when you want us to pick it up.",
    CANCELLED: "This website's service has been cancelled. Write to support to start it again.",
}
GENERIC_DELIVERY = "Your website is delivered within the time your plan promises."
# The revision (`agency.core.web.revisions`, migration 0039) moved by any write to the websites
# or their speed checks, which `list_websites` draws its answer from ('measuring').
REVISION = "sites.websites"


def clean_domain(raw: str) -> str:
    """A bare host name: scheme, `www.`, path and trailing dot removed, lower-case
    (`agency.core.text.bare_host`)."""
    value = bare_host(raw)
    if value is None:
        raise ValidationFailed(MSG_DOMAIN, fields={"domain": MSG_DOMAIN})
    return value


def out(site: Website, *, launch_failed: bool = False) -> WebsiteOut:
    """The site as the cards show it. `launch_failed`: the first test of the live site failed
    (then it is no longer being measured: the owner runs one)."""
    return WebsiteOut(
        id=site.id,
        domain=site.domain,
        page_speed=site.page_speed,
        status=site.status,
        created_at=site.created_at,
        went_live_at=site.went_live_at,
        measuring=awaiting_live_score(site) and not launch_failed,
    )


def awaiting_live_score(site: Website) -> bool:
    """Live, with the moment it went live known, and no score of the live site yet."""
    return site.status == LIVE and site.went_live_at is not None and site.page_speed is None


async def outs(sites: list[Website]) -> list[WebsiteOut]:
    """The sites as the cards show them: the live ones still waiting for their first score are
    'measuring' unless their latest check since going live failed."""
    waiting = [s for s in sites if awaiting_live_score(s)]
    failed: set[int] = set()
    for site in waiting:
        check = (
            await SpeedCheck.filter(website_id=site.id, created_at__gte=site.went_live_at)
            .order_by("-id")
            .first()
        )
        if check is not None and check.status == FAILED:
            failed.add(site.id)
    return [out(site, launch_failed=site.id in failed) for site in sites]


async def create_website(
    user_id: int, domain: str, status: str = BUILDING, *, plan_key: str | None = None
) -> WebsiteOut:
    """Add a website for a user, or return the one they already have for that domain."""
    domain = clean_domain(domain)
    existing = await Website.get_or_none(user_id=user_id, domain=domain, deleted_at=None)
    if existing is not None:
        if plan_key and not existing.plan_key:
            await Website.filter(id=existing.id).update(plan_key=plan_key)
        return out(existing)
    site = await Website.create(user_id=user_id, domain=domain, status=status, plan_key=plan_key)
    return out(site)


async def list_websites(user_id: int) -> list[WebsiteOut]:
    """The user's websites that are not deleted, newest first."""
    sites = await Website.filter(user_id=user_id, deleted_at=None).order_by("-created_at", "-id")
    return await outs(list(sites))


async def own_site(user_id: int, site_id: int) -> Website:
    """The user's (not deleted) website; another user's or a removed one is a 404."""
    site = None
    if fits_int_id(site_id):
        site = await Website.get_or_none(id=site_id, user_id=user_id, deleted_at=None)
    if site is None:
        raise NotFound(MSG_NOT_FOUND)
    return site


async def history(domain: str) -> list[ScorePoint]:
    tests = await speedtest_api.speed_history(domain, limit=HISTORY_POINTS)
    return [
        ScorePoint(at=t.created_at, score=t.result.score) for t in tests if t.result is not None
    ]


async def _latest(site: Website) -> tuple[SpeedResultOut | None, datetime | None]:
    """The latest done test of the site's domain; the stored score follows it. Once the site
    went live, only a test asked for since then, and measured then (not a reused answer)."""
    if site.went_live_at is None:
        latest = await speedtest_api.latest_speed_test(site.domain)
    else:
        since = [
            t
            for t in await speedtest_api.speed_history(site.domain, limit=HISTORY_POINTS)
            if checks.measures_live_site(site, t.created_at)
        ]
        latest = since[-1] if since else None
    if latest is None or latest.result is None:
        return None, None
    if site.page_speed != latest.result.score:
        await Website.filter(id=site.id).update(page_speed=latest.result.score)
        site.page_speed = latest.result.score
    return latest.result, latest.created_at


async def _delivery(plan_key: str | None) -> tuple[str | None, str | None]:
    """The plan's name and its delivery promise: the plan bought, or else the website plans'."""
    plan = await catalogue_api.get_plan(plan_key) if plan_key else None
    if plan is None:
        website_plans = [p for p in await catalogue_api.all_plans() if p.family == "website"]
        promises = {p.delivery for p in website_plans if p.delivery}
        if len(promises) == 1:
            return None, f"Website plans are delivered within {promises.pop()}."
        return None, GENERIC_DELIVERY
    if not plan.delivery:
        return plan.name, GENERIC_DELIVERY
    return plan.name, f"Your {plan.name} plan is delivered within {plan.delivery}."


async def detail(user_id: int, site_id: int, settings: SitesSettings) -> WebsiteDetail:
    site = await own_site(user_id, site_id)
    check = await checks.latest_check(site, settings)  # may finish it, and so change the score
    site = await own_site(user_id, site_id)
    latest, latest_at = await _latest(site)
    plan_name, delivery = await _delivery(site.plan_key)
    return WebsiteDetail(
        website=(await outs([site]))[0],
        status_text=STATUS_TEXT.get(site.status, STATUS_TEXT[PAUSED]),
        plan_name=plan_name,
        delivery=delivery,
        latest=latest,
        latest_at=latest_at,
        history=await history(site.domain),
        check=check,
    )


async def analytics(user_id: int) -> AnalyticsOut:
    """Every website's latest figures and score history (the analytics page)."""
    sites = await Website.filter(user_id=user_id, deleted_at=None).order_by("-created_at", "-id")
    found = []
    for site in sites:
        latest, latest_at = await _latest(site)
        found.append(
            SiteAnalytics(
                website=(await outs([site]))[0],
                latest=latest,
                latest_at=latest_at,
                history=await history(site.domain),
            )
        )
    return AnalyticsOut(sites=found)


async def remove(user_id: int, site_id: int) -> None:
    """The owner removes a website from their list (soft delete: kept for the books)."""
    site = await own_site(user_id, site_id)
    await Website.filter(id=site.id, deleted_at=None).update(deleted_at=datetime.now(UTC))


async def latest_check(user_id: int, site_id: int, settings: SitesSettings) -> SpeedCheckOut:
    """The owner's latest speed check of the site (the page polls it while it runs)."""
    check = await checks.latest_check(await own_site(user_id, site_id), settings)
    if check is None:
        raise NotFound(MSG_NO_CHECK)
    return check


# ---------------------------------------------------------------------------------------------
# The agency


async def admin_list(status: str | None, search: str | None) -> list[AdminWebsiteOut]:
    """Every website not removed, newest first; by status, and by part of the domain or of the
    customer's e-mail or name."""
    query = Website.filter(deleted_at=None)
    if status:
        if status not in STATUSES:
            raise ValidationFailed(MSG_STATUS, fields={"status": MSG_STATUS})
        query = query.filter(status=status)
    sites = await query.order_by("-created_at", "-id")
    text = " ".join((search or "").split()).lower()
    if text:
        owners = set(await auth_api.find_user_ids(text))
        sites = [s for s in sites if text in s.domain or s.user_id in owners]
    accounts = await auth_api.accounts_by_ids([s.user_id for s in sites])
    return [_admin_out(site, accounts.get(site.user_id)) for site in sites]


def _admin_out(site: Website, account: auth_api.Account | None) -> AdminWebsiteOut:
    return AdminWebsiteOut(
        **out(site).model_dump(),
        user_id=site.user_id,
        customer_email=account.email if account else None,
        customer_name=account.full_name if account else "",
        plan_key=site.plan_key,
        status_changed_at=site.status_changed_at,
    )


async def set_status(
    site_id: int, status: str, settings: SitesSettings, *, actor: audit_api.Actor
) -> AdminWebsiteOut:
    """An admin moves a website to another status; going live e-mails and notifies the owner.
    A change is written to the audit log by `actor`."""
    if status not in STATUSES:
        raise ValidationFailed(MSG_STATUS, fields={"status": MSG_STATUS})
    site = None
    if fits_int_id(site_id):
        site = await Website.get_or_none(id=site_id, deleted_at=None)
    if site is None:
        raise NotFound(MSG_NOT_FOUND)
    return await _change(site, status, settings, actor)


async def set_status_by_domain(
    domain: str, status: str, settings: SitesSettings, *, actor: audit_api.Actor
) -> AdminWebsiteOut:
    """`agency sites set-status DOMAIN STATUS`: every customer's site of that domain is the
    same site; the newest one not removed is changed."""
    if status not in STATUSES:
        raise ValidationFailed(MSG_STATUS, fields={"status": MSG_STATUS})
    site = (
        await Website.filter(domain=clean_domain(domain), deleted_at=None)
        .order_by("-created_at", "-id")
        .first()
    )
    if site is None:
        raise NotFound(MSG_NOT_FOUND)
    return await _change(site, status, settings, actor)


async def _change(
    site: Website, status: str, settings: SitesSettings, actor: audit_api.Actor
) -> AdminWebsiteOut:
    now = datetime.now(UTC)
    async with in_transaction():
        # The same status again changes nothing: not the time it was set (the overview's wait
        # in building counts from it), not the log.
        won = status != site.status and await Website.filter(id=site.id, status=site.status).update(
            status=status, status_changed_at=now
        )
        if won:
            await audit_api.record(
                actor,
                "site.status_changed",
                target_type="site",
                target_id=site.id,
                target_label=site.domain,
                before={"status": site.status},
                after={"status": status},
            )
            if status == LIVE:
                if site.status == BUILDING or site.went_live_at is None:
                    await checks.went_live(site, now)
                await _tell_live(site, settings)
    fresh = await Website.get(id=site.id)
    accounts = await auth_api.accounts_by_ids([fresh.user_id])
    return _admin_out(fresh, accounts.get(fresh.user_id))


async def _tell_live(site: Website, settings: SitesSettings) -> None:
    link = f"/dashboard/websites/{site.id}"
    account = await auth_api.get_account(site.user_id)
    if account is None:
        return  # an erased account
    await mail.send_mail(
        account.email,
        LIVE_TEMPLATE,
        {
            "name": account.first_name or "there",
            "domain": site.domain,
            "url": f"{settings.public_url}{link}",
        },
    )
    await notifications_api.notify(
        site.user_id,
        kind=notifications_api.SITE_LIVE,
        title=f"{site.domain} is live",
        body="Your website is live. We are measuring its speed now, and then regularly.",
        link=link,
    )


async def start_check(user_id: int, site_id: int, settings: SitesSettings) -> SpeedCheckOut:
    """The owner's 'Run speed test' (409 while one runs)."""
    return await checks.start_check(await own_site(user_id, site_id), MANUAL, settings)


# ---------------------------------------------------------------------------------------------
# User data


async def export_user(user_id: int) -> Any:
    return [site.model_dump(mode="json") for site in await list_websites(user_id)]


async def erase_user(user_id: int) -> None:
    await Website.filter(user_id=user_id, deleted_at=None).update(deleted_at=datetime.now(UTC))
    await Website.filter(user_id=user_id).update(user_id=0)  # anonymised, kept for the books
