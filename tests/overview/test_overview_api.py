"""GET /api/admin/overview and `agency overview`, on SQLite and PostgreSQL: each figure the
other modules keep (leads by source, sign-ups, websites, the free tools and what they turned
into, support's median first reply) against a hand-computed fixture made through the real
routes, the answer's shape (every key of the design), clear 400s for wrong periods, the
command's `--json` equal to the API, and the daily snapshot job.

The fixture uses a custom period: the last 7 days (today included) beside the 7 before; rows
made through the routes are "now", and some are moved back into the previous period, or before
both, by setting their times."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from agency.modules.auth.models import User
from agency.modules.billing.models import CheckoutSession, Order
from agency.modules.leads.models import Lead
from agency.modules.overview.models import OverviewSnapshot
from agency.modules.overview.service import snapshots
from agency.modules.sites import api as sites_api
from agency.modules.sites.models import Website
from agency.modules.speedtest.models import SpeedTest
from agency.modules.support.models import SupportReply, SupportRequest
from agency.settings import Settings
from tests.conftest import make_settings, run_agency
from tests.fakes.pagespeed import FakePageSpeed
from tests.helpers.http import call, sign_up

# The design's answer (notes28/design.md): every key must be there.
DESIGN = {
    "period": {
        "key": "this_month",
        "label": "",
        "start": "",
        "end": "",
        "previous_start": "",
        "previous_end": "",
        "previous_label": "",
        "currency": "EUR",
    },
    "definitions": dict.fromkeys(
        [
            "mrr",
            "arr",
            "one_time_revenue",
            "new_customers",
            "failed_payments",
            "churn",
            "funnel",
            "median_first_reply",
        ],
        "",
    ),
    "cards": {
        "mrr": {"current": 0, "previous": 0},
        "arr": {"current": 0, "previous": 0},
        "active_subscriptions": {"current": 0, "previous": 0},
        "one_time_revenue": {"current": 0, "previous": 0},
        "recurring_revenue": {"current": 0, "previous": 0},
        "new_customers": {"current": 0, "previous": 0},
        "failed_payments": {"current": 0, "previous": 0},
        "past_due": {"current": 0, "amount_at_risk": 0},
        "support_open": {"current": 0},
    },
    "mrr_movements": dict.fromkeys(
        ["start", "new", "expansion", "reactivation", "contraction", "churn", "end"], 0
    ),
    "mrr_series": [{"date": "", "mrr": 0}],
    "failed_payments": [
        dict.fromkeys(
            [
                "user_id",
                "email",
                "customer_url",
                "plan_key",
                "amount",
                "currency",
                "failed_at",
                "recovered_at",
            ]
        )
    ],
    "past_due": [dict.fromkeys(["user_id", "email", "customer_url", "plan_key", "mrr", "since"])],
    "funnel": {
        "steps": [dict.fromkeys(["key", "label", "current", "previous"])],
        "abandoned": {"current": 0, "previous": 0},
        "leads_by_source": [dict.fromkeys(["source", "label", "current", "previous"])],
    },
    "revenue_by_plan": [
        dict.fromkeys(
            ["plan_key", "plan_name", "family", "family_title", "one_time", "recurring", "total"]
        )
    ],
    "revenue_by_family": [dict.fromkeys(["family", "family_title", "total"])],
    "websites": {
        "by_status": [dict.fromkeys(["status", "label", "count", "average_score"])],
        "building": dict.fromkeys(["count", "median_hours", "longest_hours"]),
    },
    "tools": {
        "speed_tests": dict.fromkeys(["current", "previous", "became_leads", "became_purchases"]),
        "analyses": dict.fromkeys(["current", "previous", "became_leads", "became_purchases"]),
    },
    "support": dict.fromkeys(
        ["open", "answered", "median_first_reply_hours", "previous_median_first_reply_hours"]
    ),
    "generated_in_ms": 0,
}


def same_keys(answer: Any, design: Any, where: str = "") -> None:
    """Every key of `design` is in `answer`, at every depth (lists: each item like the first),
    and no other."""
    if isinstance(design, dict):
        assert isinstance(answer, dict), where
        assert set(answer) == set(design), f"{where}: {sorted(set(answer) ^ set(design))}"
        for key, value in design.items():
            same_keys(answer[key], value, f"{where}.{key}")
    elif isinstance(design, list):
        assert isinstance(answer, list), where
        for item in answer:
            same_keys(item, design[0], f"{where}[]")


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, psi: FakePageSpeed) -> Settings:
    """The fake PageSpeed, any target allowed (nothing runs: the jobs stay queued)."""
    return make_settings(
        tmp_path,
        database_url,
        pagespeed_api_base=psi.base_url,
        speedtest_unsafe_allow_private_targets=True,
        trusted_proxies=1,
        stripe_secret_key="sk_test_overview",
    )


TODAY = datetime.now(UTC).date()
START = TODAY - timedelta(days=6)
WEEK = f"/api/admin/overview?period=custom&start={START}&end={TODAY}"


def ago(**delta: float) -> datetime:
    return datetime.now(UTC) - timedelta(**delta)


PREVIOUS = {"days": 10}  # inside the previous 7 days
EARLIER = {"days": 20}  # before both periods


async def post(path: str, body: dict[str, Any], app: Any) -> Any:
    status, data = await call(app.test_client(), "post", path, body)
    assert status in (200, 201, 202), data
    return data


async def make_fixture(app: Any, admin: Any) -> None:
    """The rows of every non-billing figure (and a paid order and three checkouts, so that the
    tools' purchases and the funnel's later steps are not all zero)."""
    # Leads from the forms: this period 2 x free-preview, 1 strategy call; one strategy call in
    # the previous period; one clinic consultation before both.
    for source, when in [
        ("free-preview", None),
        ("free-preview", None),
        ("ai-automation-strategy-call", None),
        ("ai-automation-strategy-call", PREVIOUS),
        ("clinic-consultation", EARLIER),
    ]:
        body = {"source": source, "email": "lead@shop.example", "name": "L", "domain": "l.example"}
        await post("/api/leads", body, app)
        if when:
            last = await Lead.all().order_by("-id").first()
            assert last is not None
            await Lead.filter(id=last.id).update(created_at=ago(**when))

    # Speed tests from the pages: a@ twice (one lead: one visit), b@ once; d@ in the previous
    # period. Each page's e-mail is kept as a lead of its page.
    for email, url in [
        ("a@buyer.example", "a-shop.example"),
        ("a@buyer.example", "a-shop.example"),
        ("b@visitor.example", "b-shop.example"),
        ("d@visitor.example", "d-shop.example"),
    ]:
        await post("/api/speed-tests", {"url": url, "email": email, "source": "speed-test"}, app)
    [old_test] = await SpeedTest.filter(email="d@visitor.example")
    await SpeedTest.filter(id=old_test.id).update(created_at=ago(**PREVIOUS))
    await Lead.filter(email="d@visitor.example").update(created_at=ago(**PREVIOUS))
    # An analysis (c@), whose own speed test is not a visitor's test.
    await post(
        "/api/analyses",
        {"url": "c-shop.example", "email": "c@visitor.example", "source": "ai-analysis"},
        app,
    )

    # Sign-ups: a@ (who then pays) and two others now, one in the previous period.
    buyer = app.test_client()
    status, data = await sign_up(buyer, "a@buyer.example")
    assert status in (200, 201), data
    buyer_id = data["user"]["id"]
    for email in ("e@x.example", "f@x.example", "g@x.example"):
        assert (await sign_up(app.test_client(), email))[0] in (200, 201)
    await User.filter(email="g@x.example").update(created_at=ago(**PREVIOUS))

    # a@ paid an order today, and three checkouts were opened: paid, expired and open.
    await Order.create(
        user_id=buyer_id,
        plan_key="professional",
        checkout_session_id="cs_paid",
        amount=29900,
        currency="eur",
        status="paid",
        order_date=ago(hours=1),
    )
    for session, status_ in [("cs_paid", "complete"), ("cs_gone", "expired"), ("cs_open", "open")]:
        await CheckoutSession.create(
            id=session, user_id=buyer_id, plan_key="professional", mode="payment", status=status_
        )

    # Websites: two building (for 10 h, and 4 h since they went back to building), two live
    # with scores 90 and 71, one paused with 40; one live site removed by its owner.
    sites = {}
    for name in ("b1", "b2", "l1", "l2", "p1", "gone"):
        site = await sites_api.create_website(buyer_id, f"{name}.example")
        sites[name] = site.id
    for name, status_ in [
        ("b2", "live"),
        ("b2", "building"),
        ("l1", "live"),
        ("l2", "live"),
        ("p1", "paused"),
        ("gone", "live"),
    ]:
        answer = await call(
            admin, "put", f"/api/admin/sites/{sites[name]}/status", {"status": status_}
        )
        assert answer[0] == 200, answer
    await Website.filter(id=sites["b1"]).update(created_at=ago(hours=10))
    await Website.filter(id=sites["b2"]).update(
        created_at=ago(hours=50), status_changed_at=ago(hours=4)
    )
    for name, score in [("l1", 90), ("l2", 71), ("p1", 40), ("gone", 10)]:
        await Website.filter(id=sites[name]).update(page_speed=score)
    await Website.filter(id=sites["gone"]).update(deleted_at=ago(hours=1))

    # Support: answered after 2 h and after 6 h in this period, one still open, one answered
    # after 1 h in the previous period.
    for subject, created, replied in [
        ("two", {"hours": 5}, {"hours": 3}),
        ("six", {"hours": 30}, {"hours": 24}),
        ("open", {"hours": 1}, None),
        ("before", {"days": 10, "hours": 1}, {"days": 10}),
    ]:
        body = {"name": "V", "email": "v@x.example", "subject": subject, "message": "Hello"}
        await post("/api/support", body, app)
        request = await SupportRequest.get(subject=subject)
        if replied:
            answer = await call(
                admin, "post", f"/api/admin/support/{request.id}/reply", {"body": "Done."}
            )
            assert answer[0] == 200, answer
            await SupportReply.filter(request_id=request.id).update(created_at=ago(**replied))
        await SupportRequest.filter(id=request.id).update(created_at=ago(**created))


async def test_the_overview_of_a_week_against_a_hand_computed_fixture(
    app: Any, admin: Any, no_rate_limits: None
) -> None:
    await make_fixture(app, admin)
    status, data = await call(admin, "get", WEEK)
    assert status == 200, data
    same_keys(data, DESIGN)

    period = data["period"]
    assert (period["key"], period["start"], period["end"]) == ("custom", str(START), str(TODAY))
    assert period["previous_start"] == str(START - timedelta(days=7))
    assert period["previous_end"] == str(START - timedelta(days=1))
    assert period["currency"] == "EUR"

    funnel = data["funnel"]
    # Leads: 3 from the forms, a@ and b@ from the speed test (one lead per visit), c@ from
    # the analysis; before: the strategy call and d@'s test.
    assert {(s["source"], s["current"], s["previous"]) for s in funnel["leads_by_source"]} == {
        ("free-preview", 2, 0),
        ("ai-automation-strategy-call", 1, 1),
        ("speed-test", 2, 1),
        ("ai-analysis", 1, 0),
    }
    labels = {s["source"]: s["label"] for s in funnel["leads_by_source"]}
    assert labels["free-preview"] == "Real Estate Website Rebuild"
    assert labels["speed-test"] == "Speed test"
    assert funnel["leads_by_source"][0]["source"] in ("free-preview", "speed-test")  # biggest
    steps = {s["key"]: (s["current"], s["previous"]) for s in funnel["steps"]}
    assert [s["key"] for s in funnel["steps"]] == ["leads", "signups", "checkouts", "paid"]
    # Sign-ups: a@, e@, f@ (the admin's account is no sign-up); g@ before.
    assert steps == {"leads": (6, 2), "signups": (3, 1), "checkouts": (3, 0), "paid": (1, 0)}
    assert funnel["abandoned"] == {"current": 1, "previous": 0}

    websites = data["websites"]
    assert [
        (s["status"], s["label"], s["count"], s["average_score"]) for s in websites["by_status"]
    ] == [
        ("building", "Building", 2, None),
        ("live", "Live", 2, 80.5),
        ("paused", "Paused", 1, 40.0),
        ("cancelled", "Cancelled", 0, None),
    ]
    assert websites["building"] == {"count": 2, "median_hours": 7.0, "longest_hours": 10.0}

    # Tests: a@ twice and b@ (two people, one of whom paid); d@ before. The analysis: c@.
    assert data["tools"] == {
        "speed_tests": {"current": 3, "previous": 1, "became_leads": 2, "became_purchases": 1},
        "analyses": {"current": 1, "previous": 0, "became_leads": 1, "became_purchases": 0},
    }
    # First replies after 2 h and 6 h: median 4 h; before, after 1 h.
    assert data["support"] == {
        "open": 1,
        "answered": 2,
        "median_first_reply_hours": 4.0,
        "previous_median_first_reply_hours": 1.0,
    }
    assert data["cards"]["support_open"] == {"current": 1}
    assert data["cards"]["new_customers"] == {"current": 1, "previous": 0}
    # Seven days of MRR, one point each.
    assert [p["date"] for p in data["mrr_series"]] == [
        str(START + timedelta(days=n)) for n in range(7)
    ]
    assert isinstance(data["generated_in_ms"], int)


async def test_a_new_install_answers_zeros_for_every_period(admin: Any) -> None:
    for period in ("this_month", "last_month", "last_30_days", "this_quarter", "last_quarter"):
        status, data = await call(admin, "get", f"/api/admin/overview?period={period}")
        assert status == 200, data
        same_keys(data, DESIGN)
        assert data["period"]["key"] == period
        assert data["cards"]["mrr"] == {"current": 0, "previous": 0}
        assert data["funnel"]["leads_by_source"] == []
        assert data["failed_payments"] == [] and data["past_due"] == []
        assert data["websites"]["building"] == {
            "count": 0,
            "median_hours": None,
            "longest_hours": None,
        }
    status, data = await call(admin, "get", "/api/admin/overview")
    assert data["period"]["key"] == "this_month"


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        (
            "period=weekly",
            "period",
            "'period' must be this_month, last_month, last_30_days, this_quarter, "
            "last_quarter or custom.",
        ),
        (
            "period=custom",
            "start",
            "A custom period needs both 'start' and 'end', dates such as 2026-11-01.",
        ),
        (
            "period=custom&start=2026-11-01",
            "end",
            "A custom period needs both 'start' and 'end', dates such as 2026-11-01.",
        ),
        (
            "period=custom&start=2026-11-31&end=2026-11-30",
            "start",
            "'start' must be a date such as 2026-11-01.",
        ),
        (
            "period=custom&start=2026-11-01&end=tomorrow",
            "end",
            "'end' must be a date such as 2026-11-01.",
        ),
        (
            "period=custom&start=2026-11-01&end=2026-1-5",
            "end",
            "'end' must be a date such as 2026-11-01.",
        ),
        (
            "period=custom&start=2026-11-02&end=2026-11-01",
            "end",
            "'end' must be on or after 'start'.",
        ),
        (
            "period=custom&start=2020-01-01&end=2021-06-01",
            "end",
            "A custom period may span at most 366 days.",
        ),
        (
            "period=last_month&start=2026-01-01",
            "start",
            "'start' and 'end' go with period=custom only.",
        ),
        (
            f"period=custom&start={TODAY}&end={TODAY + timedelta(days=1)}",
            "end",
            f"'end' may not be after today ({TODAY}).",
        ),
        ("period=" + "x" * 40, "period", "'period' must be a period's name such as this_month."),
    ],
)
async def test_wrong_periods_answer_400_with_a_clear_message(
    admin: Any, query: str, field: str, message: str
) -> None:
    status, data = await call(admin, "get", f"/api/admin/overview?{query}")
    assert status == 400, data
    assert data["error"]["code"] == "validation_error"
    assert data["error"]["message"] == message
    assert data["error"]["fields"] == {field: message}


async def test_failed_payment_links_go_to_the_stripe_dashboard_test_mode() -> None:
    from agency.modules.overview.service.figures import customer_url, stripe_live

    assert customer_url("cus_1", stripe_live("sk_test_x")) == (
        "https://dashboard.stripe.com/test/customers/cus_1"
    )
    assert customer_url("cus_1", stripe_live("rk_live_x")) == (
        "https://dashboard.stripe.com/customers/cus_1"
    )
    assert customer_url(None, False) is None


@pytest.mark.slow  # runs the `agency` command in a subprocess
async def test_agency_overview_json_is_the_api_answer(
    app: Any, admin: Any, tmp_path: Path, database_url: str, no_rate_limits: None
) -> None:
    await make_fixture(app, admin)
    env = {
        "AGENCY_DATABASE_URL": database_url,
        "AGENCY_DATA_DIR": str(tmp_path),
        "AGENCY_STRIPE_SECRET_KEY": "sk_test_overview",
    }
    args = ("overview", "--period", "custom", "--start", str(START), "--end", str(TODAY))
    result = run_agency(tmp_path, *args, "--json", **env)
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    _, answer = await call(admin, "get", WEEK)
    # The support waits and building hours are measured from now: the same to 0.1 h.
    printed.pop("generated_in_ms"), answer.pop("generated_in_ms")
    assert printed == answer

    result = run_agency(tmp_path, *args, **env)
    assert result.returncode == 0, result.stderr
    for text in (
        "Figures",
        "MRR movements",
        "Funnel",
        "Leads by source",
        "Real Estate Website Rebuild",
        "Websites now",
        "Free tools",
        "median first reply 4.0 h",
    ):
        assert text in result.stdout, text

    result = run_agency(tmp_path, "overview", "--period", "custom", "--start", "2026-02-01", **env)
    assert result.returncode == 2
    assert "A custom period needs both 'start' and 'end'" in result.stderr


async def test_the_snapshot_job_upserts_today_and_yesterday(
    app: Any, admin: Any, no_rate_limits: None
) -> None:
    await make_fixture(app, admin)
    now = datetime.now(UTC)
    first = await snapshots.take(now)
    assert [row.day for row in first] == [now.date() - timedelta(days=1), now.date()]
    today = first[1].figures
    # Leads today: 3 forms + a@ + b@ + c@ (d@'s was moved back); sign-ups: a@, e@, f@ (not the
    # admin's account); live: l1 and l2; open: one support request.
    assert (today.leads_day, today.signups_day, today.websites_live, today.support_open) == (
        6,
        3,
        2,
        1,
    )
    assert today.mrr == today.arr == 0
    # Run again (the next hour): still one row a day, rewritten.
    await post(
        "/api/support", {"name": "V", "email": "v@x.example", "subject": "s", "message": "m"}, app
    )
    second = await snapshots.take(now + timedelta(minutes=1))
    assert await OverviewSnapshot.all().count() == 2
    assert second[1].figures.support_open == 2
    # Yesterday's row keeps the current-state figures of its last run.
    assert second[0].figures.support_open == first[0].figures.support_open
    history = await snapshots.history()
    assert [row.day for row in history] == [now.date() - timedelta(days=1), now.date()]


async def test_the_snapshot_is_the_modules_hourly_job(app: Any, app_settings: Settings) -> None:
    from agency.modules.overview.module import MODULE

    [periodic] = MODULE.periodic
    assert (periodic.name, periodic.interval) == ("overview.snapshot", timedelta(hours=1))
    await periodic.run(app_settings)
    today = datetime.now(UTC).date()
    assert await OverviewSnapshot.filter(day=today).count() == 1
