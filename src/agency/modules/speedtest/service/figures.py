"""The speed test's figures for the owner's overview: the visitors' tests (from the three public
pages) in a period and the e-mail addresses they were sent to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from agency.modules.speedtest.models import SpeedTest
from agency.modules.speedtest.service.speedtests import SOURCES


@dataclass(frozen=True)
class ToolRuns:
    runs: int  # tests started in the period (reused results included: the visitor got a report)
    emails: frozenset[str]  # the distinct addresses they were started with: each is a lead


async def visitor_tests(start: datetime, end: datetime, *, emails: bool = True) -> ToolRuns:
    """The tests visitors started on the speed test pages in [start, end) (not the customers'
    dashboard tests, the monitoring's or the analysis's own), and with `emails` the addresses
    they gave: one query each, on the covering index (source, created_at, email)."""
    query = SpeedTest.filter(created_at__gte=start, created_at__lt=end, source__in=SOURCES)
    runs = await query.count()
    found: list[Any] = []
    if emails:
        found = (
            await query.filter(email__not_isnull=True).distinct().values_list("email", flat=True)
        )
    return ToolRuns(runs=runs, emails=frozenset(str(e) for e in found))
