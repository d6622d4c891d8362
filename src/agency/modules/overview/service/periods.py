"""The overview's periods: a named period (this month, last month, the last 30 days, this or
last quarter, or a custom range of dates) resolved against today into its first and last UTC
day, and the period before it that the figures are compared with.

The previous period is the same length directly before, except for the periods that run to
today: this month is compared with the previous month to the same day (1-26 Nov with
1-26 Oct), this quarter with the previous quarter to the same day. Other modules get a period
as datetimes, `start` inclusive and `end` exclusive (UTC midnights)."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from agency.core.errors import ValidationFailed

THIS_MONTH = "this_month"
LAST_MONTH = "last_month"
LAST_30_DAYS = "last_30_days"
THIS_QUARTER = "this_quarter"
LAST_QUARTER = "last_quarter"
CUSTOM = "custom"
# key -> how it reads in the period picker and the command's help.
PERIODS = {
    THIS_MONTH: "This month",
    LAST_MONTH: "Last month",
    LAST_30_DAYS: "Last 30 days",
    THIS_QUARTER: "This quarter",
    LAST_QUARTER: "Last quarter",
    CUSTOM: "Custom range",
}
DEFAULT = THIS_MONTH
MAX_DAYS = 366
DASH = "\u2013"  # en dash, between the days of a range
# The earliest first day of a custom range (its previous period must still be a date).
EARLIEST = date(2000, 1, 1)

MSG_PERIOD = (
    "'period' must be this_month, last_month, last_30_days, this_quarter, last_quarter or custom."
)
MSG_CUSTOM_DATES = "A custom period needs both 'start' and 'end', dates such as 2026-11-01."
MSG_DATES_ONLY_CUSTOM = "'start' and 'end' go with period=custom only."
MSG_ORDER = "'end' must be on or after 'start'."
MSG_TOO_LONG = f"A custom period may span at most {MAX_DAYS} days."
MSG_FUTURE = "'end' may not be after today ({today})."
MSG_TOO_EARLY = f"'start' may not be before {EARLIEST.isoformat()}."


def month_name(day: date) -> str:
    return calendar.month_abbr[day.month]


def range_label(start: date, end: date) -> str:
    """`1-26 Nov 2026`, `28 Oct - 26 Nov 2026`, `28 Dec 2025 - 26 Jan 2026`, `26 Nov 2026`
    (with en dashes)."""
    if start == end:
        return f"{start.day} {month_name(start)} {start.year}"
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}{DASH}{end.day} {month_name(end)} {end.year}"
    if start.year == end.year:
        return f"{start.day} {month_name(start)} {DASH} {end.day} {month_name(end)} {end.year}"
    first = f"{start.day} {month_name(start)} {start.year}"
    return f"{first} {DASH} {end.day} {month_name(end)} {end.year}"


def midnight(day: date) -> datetime:
    """The UTC midnight that starts `day`."""
    return datetime.combine(day, time(0), tzinfo=UTC)


@dataclass(frozen=True)
class Period:
    """A resolved period: its first and last day (inclusive, UTC days) and the previous one's."""

    key: str
    start: date
    end: date
    previous_start: date
    previous_end: date

    @property
    def label(self) -> str:
        return range_label(self.start, self.end)

    @property
    def previous_label(self) -> str:
        return range_label(self.previous_start, self.previous_end)

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def bounds(self) -> tuple[datetime, datetime]:
        """[start, end) as aware UTC datetimes: the first day's midnight, the midnight after
        the last day."""
        return midnight(self.start), midnight(self.end + timedelta(days=1))

    def previous_bounds(self) -> tuple[datetime, datetime]:
        return midnight(self.previous_start), midnight(self.previous_end + timedelta(days=1))

    def each_day(self) -> list[date]:
        return [self.start + timedelta(days=n) for n in range(self.days)]


def _month_start(day: date, months_back: int = 0) -> date:
    index = day.year * 12 + (day.month - 1) - months_back
    return date(index // 12, index % 12 + 1, 1)


def _month_end(first: date) -> date:
    return first.replace(day=calendar.monthrange(first.year, first.month)[1])


def _same_day(first: date, day: int) -> date:
    """`day` of the month that starts on `first`, or its last day when it has fewer."""
    return first.replace(day=min(day, calendar.monthrange(first.year, first.month)[1]))


def _quarter_start(day: date) -> date:
    return date(day.year, (day.month - 1) // 3 * 3 + 1, 1)


def resolve(key: str | None, start: date | None, end: date | None, today: date) -> Period:
    """The period `key` names (this_month when none; custom when only `start`/`end` are given)
    as of `today`; raises `ValidationFailed` naming the field for anything else."""
    if key is None:
        key = CUSTOM if (start is not None or end is not None) else DEFAULT
    if key not in PERIODS:
        raise ValidationFailed(MSG_PERIOD, fields={"period": MSG_PERIOD})
    if key != CUSTOM and (start is not None or end is not None):
        field = "start" if start is not None else "end"
        raise ValidationFailed(MSG_DATES_ONLY_CUSTOM, fields={field: MSG_DATES_ONLY_CUSTOM})
    if key == THIS_MONTH:
        first = _month_start(today)
        previous = _month_start(today, 1)
        return Period(key, first, today, previous, _same_day(previous, today.day))
    if key == LAST_MONTH:
        first = _month_start(today, 1)
        previous = _month_start(today, 2)
        return Period(key, first, _month_end(first), previous, _month_end(previous))
    if key == LAST_30_DAYS:
        first = today - timedelta(days=29)
        return Period(key, first, today, first - timedelta(days=30), first - timedelta(days=1))
    if key == THIS_QUARTER:
        first = _quarter_start(today)
        previous = _month_start(first, 3)
        offset = today.month - first.month
        return Period(
            key, first, today, previous, _same_day(_month_start(previous, -offset), today.day)
        )
    if key == LAST_QUARTER:
        first = _month_start(_quarter_start(today), 3)
        previous = _month_start(first, 3)
        return Period(
            key, first, _month_end(_month_start(first, -2)), previous, first - timedelta(days=1)
        )
    return _custom(start, end, today)


def _custom(start: date | None, end: date | None, today: date) -> Period:
    if start is None or end is None:
        field = "start" if start is None else "end"
        raise ValidationFailed(MSG_CUSTOM_DATES, fields={field: MSG_CUSTOM_DATES})
    if end < start:
        raise ValidationFailed(MSG_ORDER, fields={"end": MSG_ORDER})
    if end > today:
        message = MSG_FUTURE.format(today=today.isoformat())
        raise ValidationFailed(message, fields={"end": message})
    if start < EARLIEST:
        raise ValidationFailed(MSG_TOO_EARLY, fields={"start": MSG_TOO_EARLY})
    length = (end - start).days + 1
    if length > MAX_DAYS:
        raise ValidationFailed(MSG_TOO_LONG, fields={"end": MSG_TOO_LONG})
    return Period(CUSTOM, start, end, start - timedelta(days=length), start - timedelta(days=1))
