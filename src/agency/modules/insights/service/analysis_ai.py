"""The AI step of the analysis: the report written by the configured model (issue 15)."""

from __future__ import annotations

from agency.core.settings import Settings
from agency.modules.insights.schemas import AnalysisReportOut, AnalysisVariant, PageFactsOut


async def ai_report(
    settings: Settings, facts: PageFactsOut, variant: AnalysisVariant, domain: str
) -> AnalysisReportOut:
    """Raises agency.core.ai.AIError."""
    raise NotImplementedError


def parse_report(data: object) -> AnalysisReportOut:
    raise NotImplementedError
