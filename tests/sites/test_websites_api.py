"""Websites over HTTP on SQLite and PostgreSQL: the owner's list, detail and
removal, another customer's site answering 404, speed tests through speedtest against the fake
PageSpeed Insights (one running at a time), the agency's list and status changes (the live
e-mail and notification), monitoring (the schedule's test and the drop alert), and
`agency sites ...`."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from agency.cli import app as cli_app
from agency.core import db, mail
from agency.core.web import job_runner, settings_of
from agency.modules.audit.api import Actor
from agency.modules.notifications.models import Notification
from agency.modules.sites.models import SpeedCheck, Website
from agency.modules.sites.service import checks, websites
from agency.modules.sites.settings import SitesSettings
from agency.settings import Settings
from tests.conftest import MODEL_MODULES, make_settings
from tests.fakes.pagespeed import FakePageSpeed, run_fake_pagespeed
from tests.helpers.http import call, signed_up

OWNER = "owner@shop.example"
OTHER = "other@shop.example"
ADMIN = "admin@agency.example"


@pytest.fixture(scope="module")
def psi_server() -> Iterator[FakePageSpeed]:
    with run_fake_pagespeed() as fake:
        yield fake


@pytest.fixture
def psi(psi_server: FakePageSpeed) -> FakePageSpeed:
    psi_server.reset()
    return psi_server


def settings_for(tmp_path: Path, database_url: str, psi: FakePageSpeed, **extra: Any) -> Any:
    values: dict[str, Any] = {
        "pagespeed_api_base": psi.base_url,
        "pagespeed_timeout": 2.0,
        "speedtest_unsafe_allow_private_targets": True,  # no DNS in tests
        "speedtest_reuse_minutes": 0,
        "base_url": "http://agency.example",
    }
    values.update(extra)
    return make_settings(tmp_path, database_url, **values)


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, psi: FakePageSpeed) -> Settings:
    """The settings of this module's `app` (tests/conftest.py): the fake PageSpeed."""
    return settings_for(tmp_path, database_url, psi)


async def drain(app: Any) -> None:
    await job_runner(app.app).drain()


def sites_settings(app: Any) -> SitesSettings:
    return settings_of(SitesSettings, app.app)


async def mails_to(address: str) -> list[mail.OutboundMail]:
    return list(await mail.OutboundMail.filter(to=address).order_by("id"))


# ---------------------------------------------------------------------------------------------
# The owner's websites


async def test_the_owner_sees_the_detail_and_another_customer_gets_404(app: Any) -> None:
    owner = await signed_up(app, OWNER)
    mine = await websites.create_website(owner.user_id, "score-95.example", plan_key="professional")
    other = await signed_up(app, OTHER)
    theirs = await websites.create_website(other.user_id, "theirs.example")

    status, data = await call(owner, "get", f"/api/sites/{mine.id}")
    assert status == 200, data
    assert data["website"]["domain"] == "score-95.example"
    assert data["website"]["status"] == "building"
    assert data["status_text"] == websites.STATUS_TEXT["building"]
    assert data["latest"] is None and data["history"] == [] and data["check"] is None
    assert data["delivery"]  # the plan's promise (or the website plans' when unknown)

    for method, path in [
        ("get", f"/api/sites/{theirs.id}"),
        ("delete", f"/api/sites/{theirs.id}"),
        ("post", f"/api/sites/{theirs.id}/speed-tests"),
        ("get", f"/api/sites/{theirs.id}/speed-tests/latest"),
        ("get", "/api/sites/999999"),
        ("get", "/api/sites/99999999999999999999"),  # past the id column: no website
    ]:
        status, data = await call(owner, method, path)
        assert status == 404, (method, path, data)
        assert data["error"]["message"] == "This website does not exist."
    assert await SpeedCheck.all().count() == 0
    assert (await Website.get(id=theirs.id)).deleted_at is None

    signed_out = app.test_client()
    for method, path in [("get", f"/api/sites/{mine.id}"), ("get", "/api/sites/analytics")]:
        assert (await call(signed_out, method, path))[0] == 401


async def test_the_plan_bought_gives_the_delivery_promise(app: Any) -> None:
    owner = await signed_up(app, OWNER)
    plan = await websites.create_website(owner.user_id, "planned.example", plan_key="premium")
    unknown = await websites.create_website(owner.user_id, "unknown.example")
    _, planned = await call(owner, "get", f"/api/sites/{plan.id}")
    _, generic = await call(owner, "get", f"/api/sites/{unknown.id}")
    name, delivery = await websites._delivery("premium")
    assert planned["plan_name"] == name and planned["delivery"] == delivery
    if name is not None:  # the catalogue is loaded: the plan's own words
        assert delivery == "Your Premium plan is delivered within 24 hours."
    assert generic["plan_name"] is None and generic["delivery"]


async def test_the_owner_removes_a_site_softly(app: Any) -> None:
    owner = await signed_up(app, OWNER)
    first = await websites.create_website(owner.user_id, "first.example")
    second = await websites.create_website(owner.user_id, "second.example")
    status, data = await call(owner, "delete", f"/api/sites/{first.id}")
    assert status == 200, data
    assert [w["domain"] for w in data["websites"]] == ["second.example"]
    assert (await call(owner, "get", f"/api/sites/{first.id}"))[0] == 404
    assert (await call(owner, "delete", f"/api/sites/{first.id}"))[0] == 404
    _, listed = await call(owner, "get", "/api/sites")
    assert [w["id"] for w in listed["websites"]] == [second.id]
    row = await Website.get(id=first.id)
    assert row.deleted_at is not None and row.user_id == owner.user_id  # kept for the books
    boss = await signed_up(app, ADMIN, admin=True)
    _, every = await call(boss, "get", "/api/admin/sites")
    assert first.id not in [w["id"] for w in every["websites"]]


# ---------------------------------------------------------------------------------------------
# Speed tests


async def test_run_speed_test_one_at_a_time_then_the_chart_grows(
    app: Any, psi: FakePageSpeed
) -> None:
    owner = await signed_up(app, OWNER)
    mine = await websites.create_website(owner.user_id, "score-95.example")
    status, check = await call(owner, "post", f"/api/sites/{mine.id}/speed-tests")
    assert status == 202, check
    assert check["status"] == "queued" and check["kind"] == "manual" and check["score"] is None
    status, busy = await call(owner, "post", f"/api/sites/{mine.id}/speed-tests")
    assert status == 409, busy
    assert busy["error"]["message"] == "A speed test of this website is already running."
    assert await SpeedCheck.all().count() == 1

    await drain(app)  # the speed-test job runs the test against the fake
    status, latest = await call(owner, "get", f"/api/sites/{mine.id}/speed-tests/latest")
    assert status == 200, latest
    assert latest["status"] == "done" and latest["score"] == 95
    assert psi.hosts() == ["score-95.example"]

    _, detail = await call(owner, "get", f"/api/sites/{mine.id}")
    assert detail["website"]["page_speed"] == 95
    assert detail["latest"]["score"] == 95 and detail["latest"]["rating"] == "Excellent"
    assert detail["latest"]["speed_index_ms"] > 0 and detail["latest"]["field_data"]
    assert [p["score"] for p in detail["history"]] == [95]
    _, listed = await call(owner, "get", "/api/sites")
    assert listed["websites"][0]["page_speed"] == 95

    psi.scores["score-95.example"] = 72
    status, again = await call(owner, "post", f"/api/sites/{mine.id}/speed-tests")
    assert status == 202, again  # the first one ended: a new one may start
    await drain(app)
    _, detail = await call(owner, "get", f"/api/sites/{mine.id}")
    assert [p["score"] for p in detail["history"]] == [95, 72]
    assert detail["check"]["status"] == "done" and detail["website"]["page_speed"] == 72
    _, analytics = await call(owner, "get", "/api/sites/analytics")
    assert [s["website"]["domain"] for s in analytics["sites"]] == ["score-95.example"]
    assert [p["score"] for p in analytics["sites"][0]["history"]] == [95, 72]
    assert analytics["sites"][0]["latest"]["score"] == 72
    # A manual test is seen on the page: no drop alert for it.
    assert await mails_to(OWNER) == []


async def test_a_failed_test_ends_the_check_with_the_spec_message(app: Any) -> None:
    owner = await signed_up(app, OWNER)
    mine = await websites.create_website(owner.user_id, "down.example")
    await call(owner, "post", f"/api/sites/{mine.id}/speed-tests")
    await drain(app)
    _, latest = await call(owner, "get", f"/api/sites/{mine.id}/speed-tests/latest")
    assert latest["status"] == "failed" and latest["error"]
    assert (await Website.get(id=mine.id)).checking_since is None
    status, _ = await call(owner, "post", f"/api/sites/{mine.id}/speed-tests")
    assert status == 202  # free to try again


async def test_the_follow_job_finishes_a_check_nobody_reads(app: Any) -> None:
    owner = await signed_up(app, OWNER)
    mine = await websites.create_website(owner.user_id, "score-80.example")
    await call(owner, "post", f"/api/sites/{mine.id}/speed-tests")
    await drain(app)
    check = await SpeedCheck.get(website_id=mine.id)
    assert check.status == "running"  # nobody looked yet
    await checks.follow_handler(sites_settings(app))({"check_id": check.id})
    check = await SpeedCheck.get(id=check.id)
    assert check.status == "done" and check.score == 80
    assert (await Website.get(id=mine.id)).page_speed == 80


# ---------------------------------------------------------------------------------------------
# The agency


async def test_admin_routes_need_an_admin(app: Any) -> None:
    owner = await signed_up(app, OWNER)
    mine = await websites.create_website(owner.user_id, "shop.example")
    anonymous = app.test_client()
    for client, expected in [(anonymous, 401), (owner, 403)]:
        assert (await call(client, "get", "/api/admin/sites"))[0] == expected
        status, _ = await call(
            client, "put", f"/api/admin/sites/{mine.id}/status", {"status": "live"}
        )
        assert status == expected
    assert (await Website.get(id=mine.id)).status == "building"


async def test_admin_lists_filters_and_searches(app: Any) -> None:
    ada = await signed_up(app, OWNER)
    bob = await signed_up(app, "bob@builder.example")
    await websites.create_website(ada.user_id, "ada-shop.example")
    bobs = await websites.create_website(bob.user_id, "bakery.example")
    boss = await signed_up(app, ADMIN, admin=True)
    await call(boss, "put", f"/api/admin/sites/{bobs.id}/status", {"status": "live"})

    async def domains(query: str) -> list[str]:
        status, data = await call(boss, "get", f"/api/admin/sites{query}")
        assert status == 200, data
        return [w["domain"] for w in data["websites"]]

    assert await domains("") == ["bakery.example", "ada-shop.example"]
    assert await domains("?status=live") == ["bakery.example"]
    assert await domains("?status=building") == ["ada-shop.example"]
    assert await domains("?q=BAKERY") == ["bakery.example"]
    assert await domains("?q=bob@builder") == ["bakery.example"]
    assert await domains("?q=Ada%20Lovelace") == ["bakery.example", "ada-shop.example"]
    assert await domains("?q=nobody") == []
    _, data = await call(boss, "get", "/api/admin/sites?q=ada-shop")
    row = data["websites"][0]
    assert row["customer_email"] == OWNER and row["customer_name"] == "Ada Lovelace"
    status, data = await call(boss, "get", "/api/admin/sites?status=gone")
    assert status == 400 and data["error"]["message"] == websites.MSG_STATUS
    status, data = await call(boss, "get", "/api/admin/sites?q=" + "x" * 101)
    assert status == 400


async def test_going_live_emails_and_notifies_the_owner_once(app: Any) -> None:
    owner = await signed_up(app, OWNER)
    mine = await websites.create_website(owner.user_id, "shop.example")
    boss = await signed_up(app, ADMIN, admin=True)
    status, data = await call(boss, "put", f"/api/admin/sites/{mine.id}/status", {"status": "live"})
    assert status == 200, data
    assert data["status"] == "live" and data["status_changed_at"]
    sent = await mails_to(OWNER)
    assert [m.subject for m in sent] == ["Your website shop.example is live"]
    assert f"http://agency.example/dashboard/websites/{mine.id}" in sent[0].text
    notes = await Notification.filter(user_id=owner.user_id)
    assert [(n.kind, n.link) for n in notes] == [("site_live", f"/dashboard/websites/{mine.id}")]
    _, panel = await call(owner, "get", "/api/notifications")
    assert panel["notifications"][0]["title"] == "shop.example is live"

    # live again: nothing new (not even the time it went live); paused and back: told again
    _, again = await call(boss, "put", f"/api/admin/sites/{mine.id}/status", {"status": "live"})
    assert len(await mails_to(OWNER)) == 1
    assert again["status_changed_at"] == data["status_changed_at"]
    await call(boss, "put", f"/api/admin/sites/{mine.id}/status", {"status": "paused"})
    _, detail = await call(owner, "get", f"/api/sites/{mine.id}")
    assert detail["status_text"] == websites.STATUS_TEXT["paused"]
    assert len(await mails_to(OWNER)) == 1
    await call(boss, "put", f"/api/admin/sites/{mine.id}/status", {"status": "live"})
    assert len(await mails_to(OWNER)) == 2

    for bad in ["", "gone", "LIVE"]:
        status, data = await call(
            boss, "put", f"/api/admin/sites/{mine.id}/status", {"status": bad}
        )
        assert status == 400 and data["error"]["message"] == websites.MSG_STATUS
    status, _ = await call(boss, "put", "/api/admin/sites/999999/status", {"status": "live"})
    assert status == 404


# ---------------------------------------------------------------------------------------------
# Monitoring


async def test_the_schedule_tests_live_sites_and_tells_a_drop(app: Any, psi: FakePageSpeed) -> None:
    settings = sites_settings(app)
    owner = await signed_up(app, OWNER)
    live = await websites.create_website(owner.user_id, "monitored.example")
    building = await websites.create_website(owner.user_id, "building.example")
    await websites.set_status(live.id, "live", settings, actor=Actor.cli())
    psi.scores["monitored.example"] = 96

    async def scheduled_run() -> None:
        await checks.monitor(settings)
        await drain(app)
        for check in await SpeedCheck.filter(status="running"):
            await checks.follow_handler(settings)({"check_id": check.id})

    await scheduled_run()
    assert psi.hosts() == ["monitored.example"]  # live sites only
    assert (await Website.get(id=live.id)).page_speed == 96
    assert (await Website.get(id=building.id)).page_speed is None
    await checks.monitor(settings)  # not due again before the interval
    assert await SpeedCheck.all().count() == 1

    psi.scores["monitored.example"] = 84  # below 90
    await Website.filter(id=live.id).update(monitored_at=None)
    await scheduled_run()
    drops = [m for m in await mails_to(OWNER) if "dropped" in m.subject]
    assert [m.subject for m in drops] == ["monitored.example's speed score dropped to 84/100"]
    assert "down from 96" in drops[0].text
    note = await Notification.get(user_id=owner.user_id, kind="score_dropped")
    assert note.link == f"/dashboard/websites/{live.id}" and "84" in note.title

    psi.scores["monitored.example"] = 80  # a few points less: not told
    await Website.filter(id=live.id).update(monitored_at=None)
    await scheduled_run()
    assert await Notification.filter(kind="score_dropped").count() == 1

    psi.scores["monitored.example"] = 70  # 10 points less
    await Website.filter(id=live.id).update(monitored_at=None)
    await scheduled_run()
    assert await Notification.filter(kind="score_dropped").count() == 2
    assert (await Website.get(id=live.id)).page_speed == 70


@given(previous=st.none() | st.integers(0, 100), score=st.integers(0, 100))
def test_what_counts_as_a_drop(previous: int | None, score: int) -> None:
    told = checks.dropped(previous, score)
    if previous is None or score >= previous:
        assert not told
    elif previous - score >= 10:
        assert told
    else:
        assert told == (previous >= 90 > score)


# ---------------------------------------------------------------------------------------------
# The CLI


def test_sites_commands(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in [k for k in os.environ if k.startswith("AGENCY_")]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    env = {
        "AGENCY_DATABASE_URL": database_url,
        "AGENCY_PAGESPEED_API_BASE": psi.base_url,
        "AGENCY_SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS": "true",
        "AGENCY_SPEEDTEST_REUSE_MINUTES": "0",
        "AGENCY_SECRET_KEY": "test-secret-key-" + "x" * 32,
        "COLUMNS": "200",
    }
    runner = CliRunner()

    def agency(*args: str, code: int = 0) -> str:
        result = runner.invoke(cli_app, ["sites", *args], env=env)
        assert result.exit_code == code, (args, result.output, result.exception)
        return result.output

    async def seed() -> None:
        await db.upgrade(database_url, MODEL_MODULES)
        await db.init_db(database_url, MODEL_MODULES)
        try:
            await websites.create_website(7, "score-91.example")
            await websites.create_website(8, "down.example")
            await websites.create_website(9, "waiting.example")
        finally:
            await db.close_db()

    asyncio.run(seed())
    listed = agency("list")
    assert "3 website(s)" in listed and "score-91.example" in listed and "N/A" in listed
    assert "0 website(s)" in agency("list", "--status", "live")
    assert "score-91.example is now live" in agency(
        "set-status", "https://score-91.example/", "live"
    )
    agency("set-status", "down.example", "live")
    assert "This website does not exist." in agency("set-status", "nowhere.example", "live", code=1)
    agency("set-status", "score-91.example", "gone", code=2)
    agency("speedtest", code=2)  # --all is required

    out = agency("speedtest", "--all", code=1)  # down.example fails
    assert "2 live website(s) tested" in out
    assert "score-91.example" in out and "91" in out and "down.example" in out
    assert sorted(psi.hosts()) == ["down.example", "score-91.example"]
    listed = agency("list", "--status", "live")
    assert "91" in listed and "waiting.example" not in listed
