"""Two real server processes on one database: the dashboard's cached reads (the subscription,
the websites, the notifications: `agency.core.web.revisions`) answer a write made through the
other process, the CLI or another writer (this test's own process, through the modules'
services and models) on the very next request, although each process keeps every user's
answer in memory.

Each round has both processes answer (so both have it cached) while a thread keeps asking the
other process, writes, and checks the very next request to the other, alternating processes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agency.modules.billing.models import Subscription
from agency.modules.catalogue.models import Plan
from agency.modules.notifications import api as notifications_api
from agency.modules.sites.models import SpeedCheck, Website
from tests.auth.test_revocation_processes import Hammer, _call, _me, _pairs, _sign_up
from tests.conftest import agency_servers, run_agency, server_env

pytestmark = pytest.mark.slow

ROUNDS = 12
SUBSCRIPTION = "/api/billing/subscription"
SITES = "/api/sites"
NOTIFICATIONS = "/api/notifications"


def _get(base: str, path: str, cookie: str) -> Any:
    answer = _call(base, "GET", path, cookie)
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.fixture
def servers(tmp_path: Path, database_url: str) -> Iterator[tuple[list[str], dict[str, str]]]:
    env = server_env(
        tmp_path, database_url, TRUSTED_PROXIES="1", ACCESS_LOG="false", RUN_JOBS="false"
    )
    with agency_servers(tmp_path, env, count=2) as urls:
        yield urls, env


def _user(urls: list[str], email: str) -> tuple[str, int]:
    cookie = _sign_up(urls[0], email)
    return cookie, int(_me(urls[0], cookie).json()["user"]["id"])


async def test_subscription_and_plan_writes_are_seen_by_both_processes_at_once(
    servers: tuple[list[str], dict[str, str]], app: Any
) -> None:
    # `app` opens this test's own connection to the same database: a third writer, as a
    # webhook's service or an operator's SQL would be.
    urls, _env = servers
    cookie, user_id = _user(urls, "subscriber@example.com")
    for base in urls:
        assert _get(base, SUBSCRIPTION, cookie)["subscription"] is None
    plan = await Plan.filter(active=True).order_by("sort_order").first()
    assert plan is not None
    await Subscription.create(
        id="sub_cached", user_id=user_id, customer_id="cus_cached", status="active",
        plan_key=plan.key, stripe_created=1,
    )  # fmt: skip
    for base in urls:
        seen = _get(base, SUBSCRIPTION, cookie)["subscription"]
        assert (seen["subscription_status"], seen["plan_name"]) == ("active", plan.name)
    hammered = 0
    for n, _here, there in _pairs(urls, ROUNDS):
        assert _get(there, SUBSCRIPTION, cookie)["subscription"] is not None
        status = "past_due" if n % 2 else "active"
        with Hammer(there, [cookie], SUBSCRIPTION) as hammer:
            if n % 3 == 2:  # the plan's name, which the answer includes, changes
                await Plan.filter(key=plan.key).update(name=f"Plan {n}")
            else:
                await Subscription.filter(id="sub_cached").update(
                    status=status, card_last4=f"{n:04}"
                )
            seen = _get(there, SUBSCRIPTION, cookie)["subscription"]
        hammered += hammer.requests
        if n % 3 == 2:
            assert seen["plan_name"] == f"Plan {n}", (n, seen)
        else:
            assert (seen["subscription_status"], seen["payment_method_last4"]) == (
                status,
                f"{n:04}",
            ), (n, seen)
    assert hammered > ROUNDS
    await Subscription.filter(id="sub_cached").delete()
    for base in urls:
        assert _get(base, SUBSCRIPTION, cookie)["subscription"] is None


async def test_website_changes_by_an_admin_the_cli_or_a_speed_check_are_seen_at_once(
    servers: tuple[list[str], dict[str, str]], app: Any, tmp_path: Path
) -> None:
    urls, env = servers
    cookie, user_id = _user(urls, "owner@example.com")
    admin, _admin_id = _user(urls, "admin@example.com")
    done = run_agency(tmp_path, "users", "set-role", "admin@example.com", "admin", **env)
    assert done.returncode == 0, done.stdout + done.stderr
    for base in urls:
        assert _get(base, SITES, cookie)["websites"] == []
    site = await Website.create(user_id=user_id, domain="cached.example", status="building")
    for base in urls:
        assert [w["domain"] for w in _get(base, SITES, cookie)["websites"]] == ["cached.example"]
    statuses = ["live", "paused", "building", "cancelled"]
    hammered = 0
    for n, here, there in _pairs(urls, ROUNDS):
        status = statuses[n % len(statuses)]
        assert _get(there, SITES, cookie)["websites"][0]["status"] != status
        with Hammer(there, [cookie], SITES) as hammer:
            changed = _call(
                here, "PUT", f"/api/admin/sites/{site.id}/status", admin, {"status": status}
            )
            assert changed.status_code == 200, changed.text
            seen = _get(there, SITES, cookie)["websites"]
        hammered += hammer.requests
        assert seen[0]["status"] == status, (n, seen)
    assert hammered > ROUNDS
    # The CLI (a third process).
    done = run_agency(tmp_path, "sites", "set-status", "cached.example", "live", **env)
    assert done.returncode == 0, done.stdout + done.stderr
    for base in urls:
        website = _get(base, SITES, cookie)["websites"][0]
        assert website["status"] == "live"
    # 'measuring' is drawn from the latest speed check since going live: a failed one ends it.
    await Website.filter(id=site.id).update(page_speed=None)
    for base in urls:
        assert _get(base, SITES, cookie)["websites"][0]["measuring"] is True
    assert (await Website.get(id=site.id)).went_live_at is not None
    await SpeedCheck.create(website_id=site.id, test_id="t1", kind="launch", status="failed")
    for base in urls:
        assert _get(base, SITES, cookie)["websites"][0]["measuring"] is False


async def test_new_and_read_notifications_are_seen_by_both_processes_at_once(
    servers: tuple[list[str], dict[str, str]], app: Any
) -> None:
    urls, _env = servers
    cookie, user_id = _user(urls, "reader@example.com")
    for base in urls:
        assert _get(base, NOTIFICATIONS, cookie) == {"notifications": [], "unread": 0}
    hammered = 0
    for n, here, there in _pairs(urls, ROUNDS):
        assert _get(there, NOTIFICATIONS, cookie)["unread"] == 0
        with Hammer(there, [cookie], NOTIFICATIONS) as hammer:
            # Another module's service writes one (as the sites module does on going live).
            await notifications_api.notify(user_id, kind=notifications_api.SITE_LIVE, title=f"N{n}")
            seen = _get(there, NOTIFICATIONS, cookie)
            assert (seen["unread"], seen["notifications"][0]["title"]) == (1, f"N{n}"), (n, seen)
            assert _get(here, NOTIFICATIONS, cookie)["unread"] == 1
            # Read through one process, seen read by the other's very next answer.
            marked = _call(here, "POST", "/api/notifications/read", cookie, {})
            assert marked.status_code == 200 and marked.json()["unread"] == 0, marked.text
            seen = _get(there, NOTIFICATIONS, cookie)
        hammered += hammer.requests
        assert seen["unread"] == 0 and seen["notifications"][0]["read"] is True, (n, seen)
        assert len(seen["notifications"]) == n + 1
    assert hammered > ROUNDS
