"""Rate limits: no interval of `window` seconds holds more than `limit`
accepted events, whatever the event times, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.core import ratelimit
from agency.core.errors import TooManyRequests
from agency.core.ratelimit import Limit, RateCounter

pytestmark = pytest.mark.usefixtures("orm")

BASE = 1_790_000_000_000  # milliseconds since the epoch
SUBJECTS = itertools.count()
with_database = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])


async def accepted(limit: Limit, subject: str, at_ms: int) -> bool:
    try:
        await ratelimit.enforce(limit, subject, now=at_ms / 1000)
    except TooManyRequests:
        return False
    return True


@with_database
@given(
    count=st.integers(1, 6),
    window=st.integers(1, 20),
    gaps=st.lists(
        st.one_of(st.integers(0, 30), st.integers(0, 25_000), st.sampled_from([1000, 999, 1001])),
        min_size=1,
        max_size=40,
    ),
)
async def test_no_interval_of_one_window_holds_more_than_the_limit(
    count: int, window: int, gaps: list[int]
) -> None:
    limit = Limit("property", limit=count, window=window)
    subject = f"s{next(SUBJECTS)}"
    window_ms = window * 1000
    times = list(itertools.accumulate(gaps, initial=BASE))
    taken: list[int] = []
    for at in times:
        recent = sum(1 for t in taken if at - window_ms < t)
        ok = await accepted(limit, subject, at)
        # Exact: accepted exactly when fewer than `limit` were accepted in (at - window, at].
        assert ok == (recent < count), (at, taken)
        if ok:
            taken.append(at)
    for start in taken:
        assert sum(1 for t in taken if start <= t < start + window_ms) <= count


async def test_the_boundary_case_lets_through_the_limit_not_twice_it() -> None:
    """The probe's case: 60 log-ins within 21 s across a fixed window's edge all passed."""
    limit = Limit("login-ip", limit=30, window=15 * 60)
    edge = 1_790_000_100 // 900 * 900 + 900  # a fixed window's end, in seconds
    times = [edge - 10 + i * 0.3 for i in range(30)] + [edge + 1 + i * 0.3 for i in range(30)]
    assert times[-1] - times[0] < 21
    results = [await accepted(limit, "203.0.113.9", int(t * 1000)) for t in times]
    assert results == [True] * 30 + [False] * 30


async def test_retry_after_and_message_come_from_the_stored_times() -> None:
    limit = Limit("msg", limit=3, window=600)
    t0 = 1_790_000_000.0
    for offset in (0, 100, 200):
        await ratelimit.enforce(limit, "k", now=t0 + offset)
    with pytest.raises(TooManyRequests) as refused:
        await ratelimit.enforce(limit, "k", now=t0 + 250)
    # The oldest of the three leaves the window at t0 + 600: 350 s from now.
    assert refused.value.headers == {"Retry-After": "350"}
    assert str(refused.value) == "Too many attempts. Please try again in 6 minutes."
    with pytest.raises(TooManyRequests) as refused:
        await ratelimit.enforce(limit, "k", now=t0 + 599.5)
    assert refused.value.headers == {"Retry-After": "1"}
    assert str(refused.value) == "Too many attempts. Please try again in 1 minute."
    # Refusals counted nothing: one slot frees when the first event is a window old.
    await ratelimit.enforce(limit, "k", now=t0 + 600)
    with pytest.raises(TooManyRequests) as refused:
        await ratelimit.enforce(limit, "k", now=t0 + 601)
    assert refused.value.headers == {"Retry-After": "99"}


async def test_check_hit_current_and_reset() -> None:
    limit = Limit("api", limit=2, window=60)
    now = 1_790_000_000.0
    await ratelimit.check(limit, "k", now=now)
    assert await ratelimit.hit(limit, "k", now=now) == 1
    assert await ratelimit.hit(limit, "k", now=now + 1) == 2
    assert await ratelimit.hit(limit, "k", now=now + 2) == 2  # the row keeps `limit` times
    assert await ratelimit.current(limit, "k", now=now + 2) == 2
    with pytest.raises(TooManyRequests):
        await ratelimit.check(limit, "k", now=now + 3)
    assert await ratelimit.current(limit, "k", now=now + 62) == 0
    await ratelimit.check(limit, "k", now=now + 62)
    await ratelimit.hit(limit, "k", now=now + 70)
    await ratelimit.reset(limit, "k")
    assert await RateCounter.filter(key=limit.key("k")).count() == 0


async def test_an_event_given_back_does_not_count() -> None:
    limit = Limit("back", limit=2, window=60)
    now = 1_790_000_000.0
    first = await ratelimit.enforce(limit, "k", now=now)
    second = await ratelimit.enforce(limit, "k", now=now)  # the same millisecond
    assert first == second == 1_790_000_000_000
    await ratelimit.give_back(limit, "k", second)
    assert await ratelimit.current(limit, "k", now=now + 1) == 1
    third = await ratelimit.enforce(limit, "k", now=now + 1)
    with pytest.raises(TooManyRequests):
        await ratelimit.enforce(limit, "k", now=now + 2)
    await ratelimit.give_back(limit, "k", 12345)  # never recorded: nothing changes
    await ratelimit.give_back(limit, "other", third)
    assert await ratelimit.current(limit, "k", now=now + 2) == 2


async def test_concurrent_events_pass_at_most_the_limit() -> None:
    limit = Limit("burst", limit=10, window=900)
    results = await asyncio.gather(
        *(accepted(limit, "k", 1_790_000_000_000) for _ in range(25)), return_exceptions=True
    )
    assert sorted(map(str, results)) == ["False"] * 15 + ["True"] * 10


async def test_a_clock_behind_keeps_the_times_in_order() -> None:
    limit = Limit("clock", limit=2, window=60)
    await ratelimit.hit(limit, "k", now=1_790_000_010.0)
    await ratelimit.hit(limit, "k", now=1_790_000_000.0)  # another process, 10 s behind
    row = await RateCounter.get(key=limit.key("k"))
    assert row.times == "1790000010000" * 2


async def test_old_rows_are_pruned(monkeypatch: Any) -> None:
    limit = Limit("old", limit=5, window=60)
    day = ratelimit.MAX_WINDOW_SECONDS
    now = 1_790_000_000.0
    await ratelimit.hit(limit, "stale", now=now - day - 10)
    await ratelimit.hit(limit, "fresh", now=now - day + 10)
    assert await ratelimit.prune(now=now) == 1
    assert [r.key for r in await RateCounter.all()] == [limit.key("fresh")]
    # And now and then on their own, as events are counted.
    monkeypatch.setattr("agency.core.ratelimit.random.random", lambda: 0.0)
    await ratelimit.hit(limit, "new", now=now + 20)
    assert sorted(r.key for r in await RateCounter.all()) == [limit.key("new")]


def test_limits_are_sane() -> None:
    with pytest.raises(ValueError):
        Limit("zero", limit=0, window=60)
    with pytest.raises(ValueError):
        Limit("no-window", limit=1, window=0)
