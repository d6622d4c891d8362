"""The websites' figures for the owner's overview: how many sites are in each status with their
average speed score, and how long the sites in `building` have been waiting."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import UTC, datetime

from tortoise.expressions import F
from tortoise.functions import Coalesce, Count, Sum

from agency.modules.sites.models import BUILDING, LIVE, STATUSES, Website


@dataclass(frozen=True)
class StatusFigure:
    status: str
    count: int
    average_score: float | None  # the mean latest speed score of those with one, 1 decimal


@dataclass(frozen=True)
class WebsiteFigures:
    by_status: list[StatusFigure]  # every status, in STATUSES order
    building: int
    building_median_hours: float | None  # of the sites in building now, since they entered it
    building_longest_hours: float | None


async def website_figures(now: datetime) -> WebsiteFigures:
    """The websites not removed, per status (three queries): a site entered `building` when
    its status last changed, or when it was created if it never changed."""
    # The mean from the sum and the count of the scores present (Avg would give it back in
    # the column's type, an integer).
    rows = (
        await Website.filter(deleted_at=None)
        .annotate(n=Count("id"), scored=Count("page_speed"), total=Sum("page_speed"))
        .group_by("status")
        .values_list("status", "n", "scored", "total")
    )
    found = {str(status): (int(n), int(scored), total) for status, n, scored, total in rows}
    by_status = []
    for status in STATUSES:
        count, scored, total = found.get(status, (0, 0, None))
        average = round(int(total) / scored, 1) if scored and total is not None else None
        by_status.append(StatusFigure(status=status, count=count, average_score=average))
    building = found.get(BUILDING, (0, 0, None))[0]
    median_hours = longest_hours = None
    if building:
        # When each entered building, oldest first: the first is the longest wait, the middle
        # one (or two) the median; read in SQL, two rows at most, whatever the number of sites.
        entered = (
            Website.filter(deleted_at=None, status=BUILDING)
            .annotate(entered=Coalesce("status_changed_at", F("created_at")))
            .order_by("entered", "id")
        )
        [oldest] = await entered.limit(1).values_list("entered", flat=True)
        middle = await (
            entered.offset((building - 1) // 2).limit(1 if building % 2 else 2)
        ).values_list("entered", flat=True)
        longest_hours = round(_hours(now, oldest), 1)
        median_hours = round(statistics.fmean(_hours(now, m) for m in middle), 1)
    return WebsiteFigures(
        by_status=by_status,
        building=building,
        building_median_hours=median_hours,
        building_longest_hours=longest_hours,
    )


def _hours(now: datetime, value: object) -> float:
    """Hours from a time read back from the database (SQLite hands an expression's value back
    as text) until `now`, never below 0."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (now - moment).total_seconds() / 3600)


async def live_websites() -> int:
    """Websites live now (not removed)."""
    return await Website.filter(deleted_at=None, status=LIVE).count()
