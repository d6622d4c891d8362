"""The speed-test pages' 'websites tested this month', on SQLite and PostgreSQL: only this
calendar month's completed tests count (done and finished in the month, UTC), each website
once; failed, unfinished and reused answers, and last or next month's tests do not. Served by
`GET /api/speed-tests/this-month`, cacheable for five minutes."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agency.modules.speedtest import api as speedtest_api
from agency.modules.speedtest.models import SpeedTest
from agency.modules.speedtest.service import speedtests
from tests.helpers.http import HEADERS

NOW = datetime(2026, 11, 26, 14, 0, tzinfo=UTC)
NOVEMBER = datetime(2026, 11, 1, tzinfo=UTC)


async def a_test(
    domain: str, finished: datetime | None, status: str = "done", **extra: Any
) -> None:
    await SpeedTest.create(
        public_id=uuid.uuid4().hex,
        domain=domain,
        url=f"https://{domain}",
        strategy=extra.pop("strategy", "mobile"),
        provider="psi",
        status=status,
        source="speed-test",
        score=80 if status == "done" else None,
        created_at=extra.pop("created_at", None) or finished or NOW,
        started_at=finished,
        finished_at=finished,
        **extra,
    )


async def test_only_this_months_completed_tests_count_each_website_once(app: Any) -> None:
    assert (await speedtests.tested_this_month(NOW)).websites == 0
    await a_test("one.example", NOVEMBER)  # the month's first instant
    await a_test("one.example", NOW, strategy="desktop")  # the same website again
    await a_test("two.example", NOW - timedelta(days=3))
    await a_test("three.example", datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC))
    # None of these count:
    await a_test("last-month.example", NOVEMBER - timedelta(seconds=1))
    await a_test("next-month.example", datetime(2026, 12, 1, tzinfo=UTC))
    await a_test("failed.example", NOW, status="failed")
    await a_test("queued.example", None, status="queued")
    await a_test("running.example", None, status="running")
    await a_test("reused.example", NOW, reused_from=1)
    # Asked for in the last minutes of October, finished in November: it counts for November.
    await a_test(
        "midnight.example",
        NOVEMBER + timedelta(minutes=2),
        created_at=NOVEMBER - timedelta(minutes=5),
    )
    figure = await speedtests.tested_this_month(NOW)
    assert (figure.month, figure.websites) == ("2026-11", 4)
    # December: only the test finished on its first instant.
    assert (await speedtests.tested_this_month(datetime(2026, 12, 5, tzinfo=UTC))).websites == 1
    assert (await speedtest_api.websites_tested_this_month(NOW)).websites == 4


async def test_the_figure_is_a_public_cacheable_answer(app: Any) -> None:
    start = speedtests.month_start(datetime.now(UTC))
    await a_test("a.example", start + timedelta(seconds=1))
    await a_test("b.example", start + timedelta(seconds=2))
    await a_test("old.example", start - timedelta(days=2))
    await a_test("broken.example", start + timedelta(seconds=3), status="failed")
    response = await app.test_client().get("/api/speed-tests/this-month", headers=HEADERS)
    assert response.status_code == 200
    assert await response.get_json() == {"month": start.strftime("%Y-%m"), "websites": 2}
    assert response.headers["Cache-Control"] == "public, max-age=300"
    # A test's own address still answers for a test id.
    missing = await app.test_client().get("/api/speed-tests/nope", headers=HEADERS)
    assert missing.status_code == 404


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2200, 12, 31)))
def test_a_month_starts_on_its_first_and_the_next_follows(moment: datetime) -> None:
    at = moment.replace(tzinfo=UTC)
    start = speedtests.month_start(at)
    following = speedtests.next_month(start)
    assert start <= at < following
    assert (start.day, start.hour, start.minute, start.second, start.microsecond) == (1, 0, 0, 0, 0)
    assert following.day == 1 and following - start in {timedelta(days=n) for n in (28, 29, 30, 31)}
