"""The revisions of cached per-user reads (`agency.core.web.revisions`, migration 0039): a
cache answers from memory only while the revisions it depends on stand, and every write to a
table an answer is drawn from moves its revision, and no other."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from tortoise import connections

from agency.core.web.revisions import Cached, RevisionCache, Revisions
from agency.modules.billing.models import Subscription
from agency.modules.catalogue import service as catalogue_service
from agency.modules.catalogue.models import Plan
from agency.modules.notifications import api as notifications_api
from agency.modules.notifications.models import Notification
from agency.modules.sites.models import SpeedCheck, Website
from tests.helpers.http import call, signed_up

NAMES = ["billing.subscriptions", "catalogue.plans", "notifications", "sites.websites"]


@pytest.fixture(autouse=True)
async def rows(app: Any) -> None:
    """The rows as migration 0039 leaves them (PostgreSQL tests start from a TRUNCATE)."""
    await Revisions().restore(NAMES)


async def _numbers() -> dict[str, int]:
    rows = await connections.get("default").execute_query_dict("SELECT name, n FROM revision")
    return {str(row["name"]): int(row["n"]) for row in rows}


async def _bump(name: str) -> None:
    await connections.get("default").execute_query(
        f"UPDATE revision SET n = n + 1 WHERE name = '{name}'"
    )


class Loads:
    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self) -> int:
        self.calls += 1
        return self.calls


async def test_answers_from_memory_until_a_revision_it_depends_on_moves(app: Any) -> None:
    cache: RevisionCache[int] = RevisionCache(Revisions(), ("notifications", "sites.websites"))
    load = Loads()
    assert [await cache.get(7, load) for _ in range(3)] == [1, 1, 1]
    await _bump("billing.subscriptions")  # not one of its revisions
    assert await cache.get(7, load) == 1
    await _bump("sites.websites")
    assert await cache.get(7, load) == 2 and len(cache) == 1
    assert await cache.get(8, load) == 3 and len(cache) == 2
    await _bump("notifications")
    assert (await cache.get(8, load), await cache.get(7, load)) == (4, 5)


async def test_a_missing_row_trusts_nothing_until_it_is_back(app: Any) -> None:
    cache: RevisionCache[int] = RevisionCache(Revisions(), ("notifications",))
    load = Loads()
    assert await cache.get(1, load) == 1
    await connections.get("default").execute_query("DELETE FROM revision")
    assert await cache.get(1, load) == 2  # not trusted: loaded, and the row put back
    restored = await _numbers()
    assert set(restored) == {"notifications"}
    await Revisions().restore(NAMES)
    assert await cache.get(1, load) == 3  # the first read of the restored number fills it
    assert await cache.get(1, load) == 3


async def test_the_cache_is_bounded(app: Any) -> None:
    cache: RevisionCache[int] = RevisionCache(Revisions(), ("notifications",), max_entries=3)
    load = Loads()
    for key in range(5):
        await cache.get(key, load)
    assert len(cache) == 3
    assert await cache.get(0, load) == 6  # the oldest went first
    assert await cache.get(4, load) == 5


async def test_a_load_overtaken_by_a_write_is_not_remembered(app: Any) -> None:
    cache: RevisionCache[int] = RevisionCache(Revisions(), ("notifications",))
    started, release = asyncio.Event(), asyncio.Event()
    calls = 0

    async def slow() -> int:
        nonlocal calls
        calls += 1
        started.set()
        await release.wait()
        return calls

    first = asyncio.ensure_future(cache.get(1, slow))
    await started.wait()
    await _bump("notifications")
    second = asyncio.ensure_future(cache.get(2, Loads()))  # applies the new revision
    await second
    release.set()
    assert await first == 1
    assert len(cache) == 1  # key 2 only: the first load may predate the write
    assert await cache.get(1, Loads()) == 1 and calls == 1  # loaded anew (a new Loads)


async def test_each_app_has_its_own_entries_and_outside_an_app_it_just_loads(app: Any) -> None:
    cached: Cached[int] = Cached("test.cached", ("notifications",))
    load = Loads()
    assert await cached.get(1, load) == 1  # no app context here: nothing kept
    assert await cached.get(1, load) == 2
    async with app.app.app_context():
        assert await cached.get(1, load) == 3
        assert await cached.get(1, load) == 3
        assert len(app.app.extensions["agency.revisions"].caches["test.cached"]) == 1


async def _moved(write: Any) -> set[str]:
    before = await _numbers()
    await write()
    after = await _numbers()
    return {name for name in before if after[name] != before[name]}


async def test_every_write_to_a_covered_table_moves_its_revision_and_no_other(app: Any) -> None:
    async def new_site() -> None:
        await Website.create(user_id=1, domain="a.example")

    site_moves = await _moved(new_site)
    site = await Website.get(domain="a.example")

    async def site_changes() -> None:
        await Website.filter(id=site.id).update(status="live")

    async def check() -> None:
        await SpeedCheck.create(website_id=site.id, test_id="t", status="failed")

    async def check_changes() -> None:
        await SpeedCheck.filter(website_id=site.id).update(status="done")

    async def site_goes() -> None:
        await Website.filter(id=site.id).delete()  # and its checks, by cascade

    async def notify() -> None:
        await notifications_api.notify(1, kind=notifications_api.SITE_LIVE, title="t")

    async def read() -> None:
        await Notification.filter(user_id=1).update(read_at=site.created_at)

    async def unnotify() -> None:
        await Notification.filter(user_id=1).delete()

    async def subscribe() -> None:
        await Subscription.create(id="sub_t", user_id=1, customer_id="cus_t", status="active")

    async def resubscribe() -> None:
        await Subscription.filter(id="sub_t").update(status="canceled")

    async def unsubscribe() -> None:
        await Subscription.filter(id="sub_t").delete()

    await catalogue_service.seed_if_empty()

    async def rename_plan() -> None:
        plan = await Plan.all().first()
        assert plan is not None
        await Plan.filter(key=plan.key).update(name="Renamed")

    assert site_moves == {"sites.websites"}
    for write, moved in [
        (site_changes, {"sites.websites"}),
        (check, {"sites.websites"}),
        (check_changes, {"sites.websites"}),
        (site_goes, {"sites.websites"}),
        (notify, {"notifications"}),
        (read, {"notifications"}),
        (unnotify, {"notifications"}),
        (subscribe, {"billing.subscriptions"}),
        (resubscribe, {"billing.subscriptions"}),
        (unsubscribe, {"billing.subscriptions"}),
        (rename_plan, {"catalogue.plans"}),
    ]:
        assert await _moved(write) == moved, write.__name__


async def test_a_write_elsewhere_moves_no_revision(app: Any) -> None:
    async def order_elsewhere() -> None:
        await connections.get("default").execute_query(
            "UPDATE auth_revision SET n = n + 1 WHERE id = 1"
        )

    assert await _moved(order_elsewhere) == set()


@pytest.mark.parametrize("path", ["/api/billing/subscription", "/api/sites", "/api/notifications"])
async def test_a_cached_read_makes_no_query_but_the_revision_reads(
    app: Any, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    client = await signed_up(app, "cached@example.com")
    first = await call(client, "get", path)
    assert first[0] == 200
    # On PostgreSQL the first request put back the revision rows the test's TRUNCATE took; the
    # second reads them back and fills the caches.
    assert await call(client, "get", path) == first
    for _ in range(2):
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="tortoise.db_client"):
            assert await call(client, "get", path) == first
        queries = [r.message for r in caplog.records if r.name == "tortoise.db_client"]
        assert queries, "no query logged at all: the check below would prove nothing"
        assert all("revision" in q for q in queries), queries
