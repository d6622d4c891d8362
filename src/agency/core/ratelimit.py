"""Rate limits whose counters live in the database, so they hold across server processes.

Fixed windows: one row per key, bumped by a single atomic upsert (`INSERT ... ON CONFLICT DO
UPDATE ... RETURNING`), which SQLite and PostgreSQL both run as one statement.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from tortoise import connections, fields
from tortoise.models import Model

from agency.core.errors import TooManyRequests

# Rows older than this are deleted now and then; no limit uses a longer window.
MAX_WINDOW_SECONDS = 24 * 3600


class RateCounter(Model):
    key = fields.CharField(max_length=255, primary_key=True)
    window_start = fields.BigIntField()
    count = fields.IntField()

    class Meta:
        table = "rate_counter"


@dataclass(frozen=True)
class Limit:
    """At most `limit` events per `window` seconds for one key."""

    name: str
    limit: int
    window: int

    def key(self, subject: str) -> str:
        return f"{self.name}:{subject}"[:255]


def _placeholders(count: int) -> list[str]:
    dialect = connections.get("default").capabilities.dialect
    return [f"${i}" for i in range(1, count + 1)] if dialect == "postgres" else ["?"] * count


def _window_start(window: int, now: float) -> int:
    return int(now // window * window)


def retry_after(limit: Limit, now: float | None = None) -> int:
    now = time.time() if now is None else now
    return max(1, math.ceil(_window_start(limit.window, now) + limit.window - now))


def too_many(limit: Limit, now: float | None = None) -> TooManyRequests:
    seconds = retry_after(limit, now)
    minutes = max(1, math.ceil(seconds / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return TooManyRequests(
        f"Too many attempts. Please try again in {minutes} {unit}.",
        headers={"Retry-After": str(seconds)},
    )


async def hit(limit: Limit, subject: str, now: float | None = None) -> int:
    """Count one event; returns the count in the current window (this one included)."""
    now = time.time() if now is None else now
    p = _placeholders(2)
    sql = (
        f"INSERT INTO rate_counter (key, window_start, count) VALUES ({p[0]}, {p[1]}, 1) "
        "ON CONFLICT (key) DO UPDATE SET "
        "count = CASE WHEN rate_counter.window_start = excluded.window_start "
        "THEN rate_counter.count + 1 ELSE 1 END, window_start = excluded.window_start "
        "RETURNING count"
    )
    connection = connections.get("default")
    # execute_query_dict always fetches; execute_query drops RETURNING rows on PostgreSQL.
    rows = await connection.execute_query_dict(
        sql, [limit.key(subject), _window_start(limit.window, now)]
    )
    if random.random() < 0.01:
        cutoff = int(now) - MAX_WINDOW_SECONDS
        await RateCounter.filter(window_start__lt=cutoff).delete()
    return int(rows[0]["count"])


async def current(limit: Limit, subject: str, now: float | None = None) -> int:
    """Events counted so far in the current window."""
    now = time.time() if now is None else now
    row = await RateCounter.get_or_none(key=limit.key(subject))
    if row is None or row.window_start != _window_start(limit.window, now):
        return 0
    return int(row.count)


async def enforce(limit: Limit, subject: str, now: float | None = None) -> None:
    """Count one event and refuse it when it goes over the limit."""
    if await hit(limit, subject, now) > limit.limit:
        raise too_many(limit, now)


async def check(limit: Limit, subject: str, now: float | None = None) -> None:
    """Refuse when the limit is already reached, without counting (e.g. failed log-ins)."""
    if await current(limit, subject, now) >= limit.limit:
        raise too_many(limit, now)


async def reset(limit: Limit, subject: str) -> None:
    await RateCounter.filter(key=limit.key(subject)).delete()
