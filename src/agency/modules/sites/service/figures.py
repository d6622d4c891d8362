"""The websites' figures for the owner's overview: how many sites are in each status with their
average speed score, and how long the sites in `building` have been waiting."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime

from tortoise.functions import Count, Sum

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
    """The websites not removed, per status (two queries): a site entered `building` when its
    status last changed, or when it was created if it never changed."""
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
    entered = await Website.filter(deleted_at=None, status=BUILDING).values_list(
        "created_at", "status_changed_at"
    )
    hours = sorted(
        max(0.0, (now - (changed or created)).total_seconds() / 3600)
        for created, changed in entered
    )
    return WebsiteFigures(
        by_status=by_status,
        building=len(hours),
        building_median_hours=round(statistics.median(hours), 1) if hours else None,
        building_longest_hours=round(hours[-1], 1) if hours else None,
    )


async def live_websites() -> int:
    """Websites live now (not removed)."""
    return await Website.filter(deleted_at=None, status=LIVE).count()
