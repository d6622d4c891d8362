"""The analysis's figures for the owner's overview: the analyses visitors started in a period
and the e-mail addresses they gave."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from agency.modules.analysis.models import Analysis
from agency.modules.speedtest.api import ToolRuns


async def visitor_analyses(start: datetime, end: datetime, *, emails: bool = True) -> ToolRuns:
    """The analyses started in [start, end) (every one comes from a public page and carries the
    visitor's e-mail, kept as a lead), and with `emails` the addresses: one query each."""
    query = Analysis.filter(created_at__gte=start, created_at__lt=end)
    runs = await query.count()
    found: list[Any] = []
    if emails:
        found = await query.distinct().values_list("email", flat=True)
    return ToolRuns(runs=runs, emails=frozenset(str(e) for e in found))
