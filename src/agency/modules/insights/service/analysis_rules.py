"""The report built from the page's facts alone, and the critical issues (issue 15)."""

from __future__ import annotations

from agency.modules.insights.schemas import (
    AnalysisReportOut,
    AnalysisVariant,
    PageFactsOut,
    SpeedResultOut,
)


def rules_report(facts: PageFactsOut, variant: AnalysisVariant, domain: str) -> AnalysisReportOut:
    raise NotImplementedError


def critical_issues(
    facts: PageFactsOut | None, speed: SpeedResultOut | None, variant: AnalysisVariant
) -> list[str]:
    raise NotImplementedError
