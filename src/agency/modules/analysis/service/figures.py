"""The analysis's figures for the owner's overview: the analyses visitors started in a period
and the e-mail addresses they gave."""

from __future__ import annotations

from datetime import datetime

from agency.modules.analysis.models import Analysis
from agency.modules.speedtest.api import ToolRuns


async def visitor_analyses(start: datetime, end: datetime) -> ToolRuns:
    """The analyses started in [start, end) (every one comes from a public page and carries the
    visitor's e-mail, kept as a lead): two queries."""
    query = Analysis.filter(created_at__gte=start, created_at__lt=end)
    runs = await query.count()
    emails = await query.distinct().values_list("email", flat=True)
    return ToolRuns(runs=runs, emails=frozenset(str(e) for e in emails))
