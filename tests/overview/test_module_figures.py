"""The count functions other modules hand the overview (leads, accounts, websites, the free
tools, support), on SQLite and PostgreSQL, against rows whose times are set by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agency.modules.analysis import api as analysis_api
from agency.modules.analysis.models import Analysis
from agency.modules.auth import api as auth_api
from agency.modules.auth.models import User
from agency.modules.leads import api as leads_api
from agency.modules.leads.models import Lead, NewsletterConsent
from agency.modules.sites import api as sites_api
from agency.modules.sites.models import Website
from agency.modules.speedtest import api as speedtest_api
from agency.modules.speedtest.models import SpeedTest
from agency.modules.support import api as support_api
from agency.modules.support.models import SupportReply, SupportRequest

START = datetime(2026, 11, 1, tzinfo=UTC)
END = datetime(2026, 11, 8, tzinfo=UTC)
IN = START + timedelta(days=2)
BEFORE = START - timedelta(seconds=1)


async def test_leads_by_source_and_newsletter(orm: str) -> None:
    for source, at in [
        ("free-preview", IN),
        ("free-preview", START),
        ("speed-test", END - timedelta(microseconds=1)),
        ("speed-test", END),  # the end is exclusive
        ("ai-analysis", BEFORE),
    ]:
        lead = await Lead.create(source=source, email="a@b.example")
        await Lead.filter(id=lead.id).update(created_at=at)
    for outcome, at in [("subscribed", IN), ("refused", IN), ("subscribed", BEFORE)]:
        row = await NewsletterConsent.create(
            email="a@b.example", form="speed-test", wording_version="v", outcome=outcome
        )
        await NewsletterConsent.filter(id=row.id).update(created_at=at)
    assert await leads_api.leads_by_source(START, END) == {"free-preview": 2, "speed-test": 1}
    assert await leads_api.newsletter_subscriptions(START, END) == 1


async def test_signups_are_customers_accounts_of_the_period(orm: str) -> None:
    for email, role, at in [
        ("a@x.example", "user", IN),
        ("b@x.example", "user", START),
        ("c@x.example", "admin", IN),
        ("d@x.example", "user", END),
        ("e@x.example", "user", BEFORE),
    ]:
        user = await User.create(email=email, password_hash="x", role=role)
        await User.filter(id=user.id).update(created_at=at)
    assert await auth_api.signups(START, END) == 2


async def test_websites_by_status_and_the_wait_in_building(orm: str) -> None:
    now = datetime(2026, 11, 26, 12, tzinfo=UTC)
    rows = [
        ("building", None, now - timedelta(hours=10), None),
        ("building", None, now - timedelta(hours=50), now - timedelta(hours=4)),
        ("building", None, now - timedelta(hours=30), None),
        ("live", 90, now, None),
        ("live", 71, now, None),
        ("live", None, now, None),
        ("paused", 40, now, None),
    ]
    for n, (status, score, created, changed) in enumerate(rows):
        site = await Website.create(
            user_id=1, domain=f"s{n}.example", status=status, page_speed=score
        )
        await Website.filter(id=site.id).update(created_at=created, status_changed_at=changed)
    removed = await Website.create(user_id=1, domain="gone.example", status="live", page_speed=1)
    await Website.filter(id=removed.id).update(deleted_at=now)
    figures = await sites_api.website_figures(now)
    assert [(s.status, s.count, s.average_score) for s in figures.by_status] == [
        ("building", 3, None),
        ("live", 3, 80.5),
        ("paused", 1, 40.0),
        ("cancelled", 0, None),
    ]
    # Waiting 10 h, 4 h (its status changed 4 h ago) and 30 h.
    assert (figures.building, figures.building_median_hours, figures.building_longest_hours) == (
        3,
        10.0,
        30.0,
    )
    assert await sites_api.live_websites() == 3


async def test_visitor_tests_and_analyses(orm: str) -> None:
    tests = [
        ("speed-test", "a@x.example", IN),
        ("clinic-speed-test", "a@x.example", IN),
        ("coach-speed-test", "b@x.example", START),
        ("speed-test", "c@x.example", BEFORE),
        ("dashboard", None, IN),  # a customer's test: not a visitor's
        ("ai-analysis", None, IN),  # the analysis's own test
    ]
    for n, (source, email, at) in enumerate(tests):
        row = await SpeedTest.create(
            public_id=f"t{n}",
            domain="x.example",
            url="https://x.example",
            strategy="mobile",
            provider="psi",
            source=source,
            email=email,
        )
        await SpeedTest.filter(id=row.id).update(created_at=at)
    runs = await speedtest_api.visitor_tests(START, END)
    assert (runs.runs, runs.emails) == (3, frozenset({"a@x.example", "b@x.example"}))
    for n, (email, at) in enumerate([("a@x.example", IN), ("a@x.example", IN), ("z@x", END)]):
        row = await Analysis.create(
            public_id=f"a{n}",
            variant="general",
            source="ai-analysis",
            domain="x.example",
            url="https://x.example/",
            email=email,
        )
        await Analysis.filter(id=row.id).update(created_at=at)
    runs = await analysis_api.visitor_analyses(START, END)
    assert (runs.runs, runs.emails) == (2, frozenset({"a@x.example"}))


async def test_support_open_answered_and_median_first_reply(orm: str) -> None:
    async def request(status: str, created: datetime, replies: list[datetime]) -> None:
        row = await SupportRequest.create(
            name="n", email="e@x.example", subject="s", message="m", status=status
        )
        await SupportRequest.filter(id=row.id).update(created_at=created)
        for at in replies:
            reply = await SupportReply.create(request=row, body="b")
            await SupportReply.filter(id=reply.id).update(created_at=at)

    await request("open", IN, [])
    await request("open", BEFORE, [])
    # First replies in the period after 2 h, 5 h and 30 h (a later reply does not count).
    await request("answered", IN, [IN + timedelta(hours=2), IN + timedelta(hours=40)])
    await request("resolved", IN, [IN + timedelta(hours=5)])
    await request("answered", BEFORE, [BEFORE + timedelta(hours=30)])
    # First answered before the period: not this period's.
    await request("answered", BEFORE - timedelta(hours=3), [BEFORE, IN])
    # Answered after the period.
    await request("answered", IN, [END + timedelta(hours=1)])
    figures = await support_api.support_figures(START, END)
    assert (figures.open, figures.answered, figures.median_first_reply_hours) == (2, 3, 5.0)
    assert await support_api.open_requests() == 2


async def test_user_ids_by_email_few_and_many(orm: str) -> None:
    ids = {}
    for n in range(3):
        user = await User.create(email=f"u{n}@x.example", password_hash="x")
        ids[user.email] = user.id
    few = {"U0@x.example ", "u2@x.example", "nobody@x.example"}
    assert await auth_api.user_ids_by_email(few) == {
        "u0@x.example": ids["u0@x.example"],
        "u2@x.example": ids["u2@x.example"],
    }
    # Past MANY_EMAILS addresses every account is read once instead of a long IN list.
    many = {f"v{n}@x.example" for n in range(600)} | {"u1@x.example"}
    assert await auth_api.user_ids_by_email(many) == {"u1@x.example": ids["u1@x.example"]}
    assert await auth_api.user_ids_by_email(set()) == {}
