"""The overview's periods (service/periods.py): each named period as of any day, the previous
period it is compared with, custom ranges, and every wrong combination refused with a message
naming the field (never another error)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.errors import ValidationFailed
from agency.modules.overview.service import periods
from agency.modules.overview.service.periods import resolve

TODAY = date(2026, 11, 26)
DAYS = st.dates(min_value=date(2001, 1, 1), max_value=date(2099, 12, 31))


def plain(label: str) -> str:
    """A label with its en dashes as hyphens (the labels in this file are written so)."""
    return label.replace(periods.DASH, "-")


NAMED = [key for key in periods.PERIODS if key != periods.CUSTOM]


@pytest.mark.parametrize(
    ("key", "today", "span", "previous", "label", "previous_label"),
    [
        (
            "this_month",
            TODAY,
            ("2026-11-01", "2026-11-26"),
            ("2026-10-01", "2026-10-26"),
            "1-26 Nov 2026",
            "1-26 Oct 2026",
        ),
        # To the same day, or the previous month's last when it has fewer days.
        (
            "this_month",
            date(2026, 3, 31),
            ("2026-03-01", "2026-03-31"),
            ("2026-02-01", "2026-02-28"),
            "1-31 Mar 2026",
            "1-28 Feb 2026",
        ),
        (
            "this_month",
            date(2026, 1, 1),
            ("2026-01-01", "2026-01-01"),
            ("2025-12-01", "2025-12-01"),
            "1 Jan 2026",
            "1 Dec 2025",
        ),
        (
            "last_month",
            TODAY,
            ("2026-10-01", "2026-10-31"),
            ("2026-09-01", "2026-09-30"),
            "1-31 Oct 2026",
            "1-30 Sep 2026",
        ),
        (
            "last_month",
            date(2026, 1, 15),
            ("2025-12-01", "2025-12-31"),
            ("2025-11-01", "2025-11-30"),
            "1-31 Dec 2025",
            "1-30 Nov 2025",
        ),
        (
            "last_30_days",
            TODAY,
            ("2026-10-28", "2026-11-26"),
            ("2026-09-28", "2026-10-27"),
            "28 Oct - 26 Nov 2026",
            "28 Sep - 27 Oct 2026",
        ),
        (
            "this_quarter",
            TODAY,
            ("2026-10-01", "2026-11-26"),
            ("2026-07-01", "2026-08-26"),
            "1 Oct - 26 Nov 2026",
            "1 Jul - 26 Aug 2026",
        ),
        (
            "this_quarter",
            date(2026, 5, 31),
            ("2026-04-01", "2026-05-31"),
            ("2026-01-01", "2026-02-28"),
            "1 Apr - 31 May 2026",
            "1 Jan - 28 Feb 2026",
        ),
        (
            "last_quarter",
            TODAY,
            ("2026-07-01", "2026-09-30"),
            ("2026-04-01", "2026-06-30"),
            "1 Jul - 30 Sep 2026",
            "1 Apr - 30 Jun 2026",
        ),
        (
            "last_quarter",
            date(2026, 2, 10),
            ("2025-10-01", "2025-12-31"),
            ("2025-07-01", "2025-09-30"),
            "1 Oct - 31 Dec 2025",
            "1 Jul - 30 Sep 2025",
        ),
    ],
)
def test_named_periods(
    key: str,
    today: date,
    span: tuple[str, str],
    previous: tuple[str, str],
    label: str,
    previous_label: str,
) -> None:
    period = resolve(key, None, None, today)
    assert (period.start.isoformat(), period.end.isoformat()) == span
    assert (period.previous_start.isoformat(), period.previous_end.isoformat()) == previous
    assert (plain(period.label), plain(period.previous_label)) == (label, previous_label)
    assert period.label.count("-") == 0  # an en dash between the days, never a hyphen


def test_no_period_is_this_month_and_dates_alone_are_custom() -> None:
    assert resolve(None, None, None, TODAY) == resolve("this_month", None, None, TODAY)
    period = resolve(None, date(2025, 12, 28), date(2026, 1, 3), TODAY)
    assert period.key == "custom"
    assert (plain(period.label), plain(period.previous_label)) == (
        "28 Dec 2025 - 3 Jan 2026",
        "21-27 Dec 2025",
    )
    start, end = period.bounds()
    assert (start, end) == (datetime(2025, 12, 28, tzinfo=UTC), datetime(2026, 1, 4, tzinfo=UTC))
    assert period.previous_bounds() == (
        datetime(2025, 12, 21, tzinfo=UTC),
        datetime(2025, 12, 28, tzinfo=UTC),
    )
    assert len(period.each_day()) == 7 and period.each_day()[-1] == date(2026, 1, 3)


@pytest.mark.parametrize(
    ("key", "start", "end", "field", "message"),
    [
        ("weekly", None, None, "period", periods.MSG_PERIOD),
        ("custom", None, None, "start", periods.MSG_CUSTOM_DATES),
        ("custom", TODAY, None, "end", periods.MSG_CUSTOM_DATES),
        ("last_month", TODAY, None, "start", periods.MSG_DATES_ONLY_CUSTOM),
        ("this_month", None, TODAY, "end", periods.MSG_DATES_ONLY_CUSTOM),
        ("custom", TODAY, TODAY - timedelta(days=1), "end", periods.MSG_ORDER),
        (
            "custom",
            TODAY,
            TODAY + timedelta(days=1),
            "end",
            "'end' may not be after today (2026-11-26).",
        ),
        ("custom", TODAY - timedelta(days=366), TODAY, "end", periods.MSG_TOO_LONG),
        ("custom", date(1999, 12, 31), date(2000, 1, 2), "start", periods.MSG_TOO_EARLY),
    ],
)
def test_wrong_periods_are_refused_naming_the_field(
    key: str, start: date | None, end: date | None, field: str, message: str
) -> None:
    with pytest.raises(ValidationFailed) as caught:
        resolve(key, start, end, TODAY)
    assert caught.value.message == message
    assert caught.value.fields == {field: message}


@given(key=st.sampled_from(NAMED), today=DAYS)
def test_every_named_period_ends_by_today_and_follows_its_previous(key: str, today: date) -> None:
    period = resolve(key, None, None, today)
    assert period.previous_start <= period.previous_end < period.start <= period.end <= today
    assert period.days == len(period.each_day()) >= 1
    previous_days = (period.previous_end - period.previous_start).days + 1
    if key in ("this_month", "this_quarter", "last_30_days"):
        assert period.end == today
    if key == "this_month":
        assert period.start == today.replace(day=1)
        assert period.previous_start.day == 1
        last_day = (period.start - timedelta(days=1)).day  # the previous month's days
        assert period.previous_end.day == min(today.day, last_day)
        assert period.previous_end + timedelta(days=1) <= period.start
    if key == "last_30_days":
        assert period.days == previous_days == 30
        assert period.previous_end + timedelta(days=1) == period.start
    if key in ("last_month", "last_quarter"):
        # Whole months, directly after each other.
        assert period.start.day == 1 and (period.end + timedelta(days=1)).day == 1
        assert period.previous_end + timedelta(days=1) == period.start
        assert period.previous_start.day == 1
    if key in ("this_quarter", "last_quarter"):
        assert period.start.month in (1, 4, 7, 10) and period.start.day == 1
        assert period.previous_start.month in (1, 4, 7, 10)
        # Three months before (a quarter's start).
        assert (period.start.year * 12 + period.start.month) - (
            period.previous_start.year * 12 + period.previous_start.month
        ) == 3


@given(
    today=DAYS,
    back=st.integers(min_value=0, max_value=3000),
    length=st.integers(min_value=1, max_value=400),
)
def test_a_custom_range_is_taken_as_given_or_refused_with_a_message(
    today: date, back: int, length: int
) -> None:
    end = today - timedelta(days=back)
    start = end - timedelta(days=length - 1)
    try:
        period = resolve("custom", start, end, today)
    except ValidationFailed as exc:
        assert length > periods.MAX_DAYS or start < periods.EARLIEST
        assert exc.message in (periods.MSG_TOO_LONG, periods.MSG_TOO_EARLY)
        return
    assert length <= periods.MAX_DAYS
    assert (period.start, period.end) == (start, end)
    assert period.previous_end + timedelta(days=1) == start
    assert (period.previous_end - period.previous_start).days + 1 == length
    start_at, end_at = period.bounds()
    assert end_at - start_at == timedelta(days=length)
    assert start_at.tzinfo is UTC and start_at.time().hour == 0


@given(
    key=st.one_of(st.none(), st.text(max_size=20), st.sampled_from(list(periods.PERIODS))),
    start=st.one_of(st.none(), DAYS),
    end=st.one_of(st.none(), DAYS),
    today=DAYS,
)
def test_any_combination_is_a_period_or_a_validation_error(
    key: str | None, start: date | None, end: date | None, today: date
) -> None:
    try:
        period = resolve(key, start, end, today)
    except ValidationFailed as exc:
        assert exc.message and set(exc.fields) <= {"period", "start", "end"}
        assert list(exc.fields.values()) == [exc.message]
        return
    assert period.key in periods.PERIODS
    assert period.start <= period.end <= today
    assert period.label and period.previous_label
