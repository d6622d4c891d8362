"""A delivered site is measured as delivered, on SQLite and PostgreSQL: going live records the
moment and queues the first test of the live site (the job `sites.launch_check`); until it
ends the site is 'measuring' with no score, never the old site's; a test asked for before
going live, or a reused answer from before, never becomes the live score."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agency.core.jobs import Job
from agency.core.web import job_runner, settings_of
from agency.modules.audit.api import Actor
from agency.modules.sites.models import SpeedCheck, Website
from agency.modules.sites.service import checks, websites
from agency.modules.sites.settings import SitesSettings
from agency.settings import Settings
from tests.conftest import make_settings
from tests.fakes.pagespeed import FakePageSpeed, run_fake_pagespeed
from tests.helpers.http import call, signed_up

OWNER = "owner@shop.example"
ADMIN = "admin@agency.example"
SITE = "delivered.example"


@pytest.fixture(scope="module")
def psi_server() -> Iterator[FakePageSpeed]:
    with run_fake_pagespeed() as fake:
        yield fake


@pytest.fixture
def psi(psi_server: FakePageSpeed) -> FakePageSpeed:
    psi_server.reset()
    return psi_server


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, psi: FakePageSpeed) -> Settings:
    return make_settings(
        tmp_path,
        database_url,
        pagespeed_api_base=psi.base_url,
        pagespeed_timeout=2.0,
        speedtest_unsafe_allow_private_targets=True,  # no DNS in tests
        speedtest_reuse_minutes=0,
        base_url="http://agency.example",
    )


def sites_settings(app: Any) -> SitesSettings:
    return settings_of(SitesSettings, app.app)


async def drain(app: Any) -> None:
    await job_runner(app.app).drain()


async def card(client: Any) -> dict[str, Any]:
    _, listed = await call(client, "get", "/api/sites")
    site: dict[str, Any] = listed["websites"][0]
    return site


async def before_live(app: Any, psi: FakePageSpeed, score: int = 55) -> tuple[Any, int]:
    """The owner's site with one finished test of the old site (`score`)."""
    owner = await signed_up(app, OWNER)
    site = await websites.create_website(owner.user_id, SITE, plan_key="professional")
    psi.scores[SITE] = score
    await call(owner, "post", f"/api/sites/{site.id}/speed-tests")
    await drain(app)
    _, detail = await call(owner, "get", f"/api/sites/{site.id}")
    assert detail["website"]["page_speed"] == score and not detail["website"]["measuring"]
    return owner, site.id


async def test_going_live_measures_the_live_site_and_never_shows_the_old_score(
    app: Any, psi: FakePageSpeed
) -> None:
    owner, site_id = await before_live(app, psi, 55)
    boss = await signed_up(app, ADMIN, admin=True)
    psi.scores[SITE] = 99
    status, data = await call(boss, "put", f"/api/admin/sites/{site_id}/status", {"status": "live"})
    assert status == 200, data
    row = await Website.get(id=site_id)
    assert row.went_live_at is not None and row.page_speed is None
    # The test is a job, not part of the request: queued, not started.
    assert await Job.filter(kind=checks.LAUNCH_KIND, status="queued").count() == 1
    assert await SpeedCheck.filter(website_id=site_id).count() == 1

    measuring = await card(owner)
    assert measuring["measuring"] is True and measuring["page_speed"] is None
    assert measuring["went_live_at"]
    _, detail = await call(owner, "get", f"/api/sites/{site_id}")
    assert detail["website"]["measuring"] is True and detail["website"]["page_speed"] is None
    assert detail["latest"] is None  # the old site's result is not the live site's
    assert [p["score"] for p in detail["history"]] == [55]  # kept, as 'before'
    assert detail["history"][0]["at"] < detail["website"]["went_live_at"]

    await drain(app)  # the launch job starts the test, the speed-test job runs it
    _, detail = await call(owner, "get", f"/api/sites/{site_id}")
    assert detail["check"]["kind"] == "launch" and detail["check"]["status"] == "done"
    assert detail["website"]["page_speed"] == 99 and detail["website"]["measuring"] is False
    assert detail["latest"]["score"] == 99
    assert [p["score"] for p in detail["history"]] == [55, 99]
    assert (await card(owner))["page_speed"] == 99
    _, analytics = await call(owner, "get", "/api/sites/analytics")
    assert analytics["sites"][0]["website"]["went_live_at"] == detail["website"]["went_live_at"]
    assert psi.hosts() == [SITE, SITE]

    # Live again after a pause: the same site, the moment it went live stays.
    went_live_at = detail["website"]["went_live_at"]
    await call(boss, "put", f"/api/admin/sites/{site_id}/status", {"status": "paused"})
    await call(boss, "put", f"/api/admin/sites/{site_id}/status", {"status": "live"})
    _, detail = await call(owner, "get", f"/api/sites/{site_id}")
    assert detail["website"]["went_live_at"] == went_live_at
    assert detail["website"]["page_speed"] == 99


async def test_a_test_asked_for_before_going_live_does_not_count(
    app: Any, psi: FakePageSpeed
) -> None:
    settings = sites_settings(app)
    owner = await signed_up(app, OWNER)
    site = await websites.create_website(owner.user_id, SITE)
    psi.scores[SITE] = 40
    await call(owner, "post", f"/api/sites/{site.id}/speed-tests")  # the old site, queued
    await websites.set_status(site.id, "live", settings, actor=Actor.cli())

    # The launch job finds the old test still running: it waits and tries again later.
    job = await Job.get(kind=checks.LAUNCH_KIND)
    await checks.launch(job.payload, settings)
    retry = await Job.filter(kind=checks.LAUNCH_KIND).order_by("-id").first()
    assert retry is not None and retry.id != job.id and retry.payload["tries"] == 1
    assert retry.run_at > job.run_at

    old = await SpeedCheck.get(website_id=site.id)
    await checks.finish(old, "done", 40, None, settings)  # the old site's test ends
    assert (await Website.get(id=site.id)).page_speed is None
    assert (await card(owner))["measuring"] is True

    psi.scores[SITE] = 98
    await checks.launch(retry.payload, settings)
    launch = await SpeedCheck.filter(website_id=site.id).order_by("-id").first()
    assert launch is not None and launch.kind == "launch"
    await drain(app)
    _, detail = await call(owner, "get", f"/api/sites/{site.id}")
    assert detail["website"]["page_speed"] == 98 and detail["latest"]["score"] == 98
    # Run again (a duplicate delivery of the job): nothing more is started.
    await checks.launch(retry.payload, settings)
    assert await SpeedCheck.filter(website_id=site.id).count() == 2


async def test_a_reused_answer_from_before_going_live_is_not_the_live_score(
    app: Any, psi: FakePageSpeed
) -> None:
    reusing = sites_settings(app).model_copy(update={"speedtest_reuse_minutes": 60})
    owner, site_id = await before_live(app, psi, 55)
    await websites.set_status(site_id, "live", reusing, actor=Actor.cli())
    psi.scores[SITE] = 97
    job = await Job.get(kind=checks.LAUNCH_KIND)
    await checks.launch(job.payload, reusing)  # the 55 of an hour ago is not reused
    await drain(app)
    _, detail = await call(owner, "get", f"/api/sites/{site_id}")
    assert detail["check"]["status"] == "done" and detail["website"]["page_speed"] == 97
    # After going live, a recent result of the live site is reused as before.
    again = await checks.start_check(await Website.get(id=site_id), "manual", reusing)
    assert again.status == "done" and again.score == 97


async def test_when_the_launch_test_cannot_start_the_owner_is_told_to_run_one(
    app: Any, psi: FakePageSpeed
) -> None:
    settings = sites_settings(app)
    owner = await signed_up(app, OWNER)
    site = await websites.create_website(owner.user_id, SITE)
    await call(owner, "post", f"/api/sites/{site.id}/speed-tests")  # keeps the site busy
    await websites.set_status(site.id, "live", settings, actor=Actor.cli())
    await checks.launch({"website_id": site.id, "tries": checks.LAUNCH_TRIES - 1}, settings)
    _, detail = await call(owner, "get", f"/api/sites/{site.id}")
    assert detail["check"]["kind"] == "launch" and detail["check"]["status"] == "failed"
    assert detail["check"]["error"] == checks.MSG_LAUNCH_GAVE_UP
    assert detail["website"]["measuring"] is False and detail["website"]["page_speed"] is None
    assert (await card(owner))["measuring"] is False


async def test_a_removed_or_paused_site_gets_no_launch_test(app: Any, psi: FakePageSpeed) -> None:
    settings = sites_settings(app)
    owner = await signed_up(app, OWNER)
    site = await websites.create_website(owner.user_id, SITE)
    await websites.set_status(site.id, "live", settings, actor=Actor.cli())
    await websites.set_status(site.id, "paused", settings, actor=Actor.cli())
    await checks.launch({"website_id": site.id}, settings)
    await websites.remove(owner.user_id, site.id)
    await checks.launch({"website_id": site.id}, settings)
    await checks.launch({"website_id": 999999}, settings)
    assert await SpeedCheck.all().count() == 0
