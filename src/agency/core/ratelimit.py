"""Rate limits whose counters live in the database, so they hold across server processes.

A sliding log: each key's row keeps the times of its last `limit` accepted events (in
milliseconds, fixed-width digits in one text column). An event at time t is accepted when
fewer than `limit` accepted events lie in (t - window, t], so no interval of `window` seconds
ever holds more than `limit` accepted events: there is no window edge to double at
(fixed windows let 2 x limit through across one). The decision and the update are one atomic
upsert (`INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING`) on SQLite and PostgreSQL;
a refused event changes nothing, so refusals do not extend a lock.

Limits per client address (`Limit(..., per_address=True)`) count an IPv6 client by its /64
network, not by its address: one subscriber line, host or virtual machine is routinely given a
whole /64 (RFC 6177) and may use any of its 2^64 addresses, so counting each address let one
client multiply any per-address limit at will. `address_subject` is the one place that decides
what a client address counts as.
"""

from __future__ import annotations

import ipaddress
import math
import random
import time
from dataclasses import dataclass

from tortoise import connections, fields
from tortoise.models import Model

from agency.core import metrics
from agency.core.errors import TooManyRequests
from agency.core.sql import placeholders

# Rows not updated for this long are deleted now and then; no limit uses a longer window.
MAX_WINDOW_SECONDS = 24 * 3600
# Each stored time is a millisecond timestamp written with exactly this many digits.
DIGITS = 13
# A row holds at most `limit` times; limits are meant for small counts.
MAX_LIMIT = 1000


class RateCounter(Model):
    key = fields.CharField(max_length=255, primary_key=True)
    # The last accepted events' times, oldest first: DIGITS digits each, no separator.
    times = fields.TextField(default="")
    updated_at = fields.BigIntField(default=0, db_index=True)  # seconds since the epoch

    class Meta:
        table = "rate_counter"


def address_subject(address: str) -> str:
    """What a client address counts as in a per-address limit: an IPv4 address as it is (an
    IPv4-mapped IPv6 address as its IPv4 address), any other IPv6 address as its /64 network
    (`2001:db8:1:2::/64`), anything else (`unknown`) as it is, stripped. Never raises."""
    text = address.strip()
    try:
        ip = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return text
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        # From the integer, so a zone (`fe80::1%eth0`) does not matter: one link, one client.
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


@dataclass(frozen=True)
class Limit:
    """At most `limit` accepted events in any `window` seconds for one key. A `per_address`
    limit's subject is a client address, counted as `address_subject` says (every function
    here normalises it, so a caller cannot forget)."""

    name: str
    limit: int
    window: int
    per_address: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.limit <= MAX_LIMIT or self.window < 1:
            raise ValueError(f"bad rate limit {self}")

    def key(self, subject: str) -> str:
        if self.per_address:
            subject = address_subject(subject)
        return f"{self.name}:{subject}"[:255]


def _ms(now: float | None) -> int:
    return round((time.time() if now is None else now) * 1000)


def _times(text: str) -> list[int]:
    return [int(text[i : i + DIGITS]) for i in range(0, len(text) - DIGITS + 1, DIGITS)]


def _retry_seconds(limit: Limit, times: list[int], now_ms: int) -> int:
    """Seconds until one more event is accepted (at least 1)."""
    if len(times) < limit.limit:
        return 1
    free_at = times[-limit.limit] + limit.window * 1000
    # Never more than a window: a time recorded by a request that started a little later
    # (or on a clock a little ahead) may lie after `now_ms`.
    return max(1, min(limit.window, math.ceil((free_at - now_ms) / 1000)))


def _in_window(limit: Limit, times: list[int], now_ms: int) -> int:
    return sum(1 for t in times if t > now_ms - limit.window * 1000)


def too_many(seconds: int) -> TooManyRequests:
    """The refusal, telling when to try again (`seconds` from now)."""
    seconds = max(1, seconds)
    minutes = max(1, math.ceil(seconds / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return TooManyRequests(
        f"Too many attempts. Please try again in {minutes} {unit}.",
        headers={"Retry-After": str(seconds)},
    )


def _upsert(limit: Limit, *, conditional: bool) -> str:
    """One statement: record an event (keeping the last `limit` times), only when fewer than
    `limit` recorded times are within the window if `conditional`. Parameters: key, now (ms),
    now (s), now as stored text, and if `conditional` the window's start (ms). Its text
    depends only on the limit, so PostgreSQL's prepared statements are reused."""
    key, now_ms, now_s, now_text, since_ms = placeholders(5)
    cap = limit.limit * DIGITS
    keep = (limit.limit - 1) * DIGITS
    t = "rate_counter.times"
    newest = f"CAST(SUBSTR({t}, LENGTH({t}) - {DIGITS - 1}, {DIGITS}) AS BIGINT)"
    # Times stay in order even when another process's clock is a little behind.
    stamp = (
        f"CASE WHEN LENGTH({t}) >= {DIGITS} AND {newest} > {now_ms} THEN {newest} ELSE {now_ms} END"
    )
    stamp_text = f"SUBSTR(CAST(({stamp}) + {10**DIGITS} AS TEXT), 2)"
    kept = f"CASE WHEN LENGTH({t}) >= {cap} THEN SUBSTR({t}, LENGTH({t}) - {keep} + 1) ELSE {t} END"
    # The limit-th most recent time, when there are that many, must be outside the window.
    room = (
        f"CASE WHEN LENGTH({t}) < {cap} THEN 1 "
        f"WHEN CAST(SUBSTR({t}, LENGTH({t}) - {cap} + 1, {DIGITS}) AS BIGINT) "
        f"<= {since_ms} THEN 1 ELSE 0 END = 1"
    )
    return (
        f"INSERT INTO rate_counter (key, times, updated_at) VALUES ({key}, {now_text}, {now_s}) "
        f"ON CONFLICT (key) DO UPDATE SET times = ({kept}) || {stamp_text}, "
        f"updated_at = {now_s}" + (f" WHERE {room}" if conditional else "") + " RETURNING times"
    )


async def _record(limit: Limit, subject: str, now_ms: int, *, conditional: bool) -> str | None:
    """The row's times after recording the event, or None when it was refused."""
    if not 0 <= now_ms < 10**DIGITS:
        raise ValueError("time out of range")
    connection = connections.get("default")
    # execute_query_dict always fetches; execute_query drops RETURNING rows on PostgreSQL.
    parameters: list[str | int] = [
        limit.key(subject),
        now_ms,
        now_ms // 1000,
        f"{now_ms:0{DIGITS}d}",
    ]
    if conditional:
        parameters.append(now_ms - limit.window * 1000)
    rows = await connection.execute_query_dict(_upsert(limit, conditional=conditional), parameters)
    if random.random() < 0.01:
        await prune(now=now_ms / 1000)
    return str(rows[0]["times"]) if rows else None


async def _stored(limit: Limit, subject: str) -> list[int]:
    row = await RateCounter.get_or_none(key=limit.key(subject))
    return _times(row.times) if row else []


async def enforce(limit: Limit, subject: str, now: float | None = None) -> int:
    """Count one event, or refuse it (counting nothing) when `limit` events were accepted in
    the last `window` seconds. The check and the count are one atomic statement, so concurrent
    requests cannot all pass a check before any of them is counted. Returns the time recorded,
    for `give_back`."""
    now_ms = _ms(now)
    times = await _record(limit, subject, now_ms, conditional=True)
    if times is None:
        metrics.rate_limit_refused(limit.name)
        raise too_many(_retry_seconds(limit, await _stored(limit, subject), now_ms))
    return _times(times)[-1]


async def give_back(limit: Limit, subject: str, recorded: int) -> None:
    """Uncount one event `enforce` counted (it returned `recorded`), e.g. a log-in whose
    password was right. A compare-and-swap on the row; after a few lost races it gives up,
    which only leaves the event counted."""
    key = limit.key(subject)
    for _ in range(3):
        row = await RateCounter.get_or_none(key=key)
        times = _times(row.times) if row else []
        if row is None or recorded not in times:
            return
        times.remove(recorded)
        kept = "".join(f"{t:0{DIGITS}d}" for t in times)
        if await RateCounter.filter(key=key, times=row.times).update(times=kept):
            return


async def hit(limit: Limit, subject: str, now: float | None = None) -> int:
    """Count one event whatever the count; returns the events counted in the window (this one
    included; at most `limit`, the row keeps no more)."""
    now_ms = _ms(now)
    times = await _record(limit, subject, now_ms, conditional=False)
    return _in_window(limit, _times(times or ""), now_ms)


async def current(limit: Limit, subject: str, now: float | None = None) -> int:
    """Events counted in the last `window` seconds (at most `limit`)."""
    now_ms = _ms(now)
    return _in_window(limit, await _stored(limit, subject), now_ms)


async def check(limit: Limit, subject: str, now: float | None = None) -> None:
    """Refuse when the limit is already reached, without counting."""
    now_ms = _ms(now)
    times = await _stored(limit, subject)
    if _in_window(limit, times, now_ms) >= limit.limit:
        metrics.rate_limit_refused(limit.name)
        raise too_many(_retry_seconds(limit, times, now_ms))


async def reset(limit: Limit, subject: str) -> None:
    await RateCounter.filter(key=limit.key(subject)).delete()


async def prune(now: float | None = None, older_than: int = MAX_WINDOW_SECONDS) -> int:
    """Delete rows not updated for `older_than` seconds (they can no longer refuse anything
    when `older_than` is at least the longest window); returns how many went."""
    cutoff = _ms(now) // 1000 - older_than
    return int(await RateCounter.filter(updated_at__lt=cutoff).delete())
