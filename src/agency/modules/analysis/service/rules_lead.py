"""The lead page: the general report (funnel, touchpoints, AI opportunities), opened for a
visitor who is ready to buy. Its critical issues speak of lost visitors (`rules_critical`)."""

from __future__ import annotations

from agency.modules.analysis.schemas import AnalysisReportOut, PageFactsOut
from agency.modules.analysis.service import rules_general
from agency.modules.analysis.service.rules_wording import say


def report(f: PageFactsOut, domain: str) -> AnalysisReportOut:
    return rules_general.report(f, domain, say("lead.lead"))
