"""The analysis built from the page's facts alone (the report with no AI key, or when the
provider fails), the critical issues, and the contradiction filter the AI's report goes through.

Every sentence comes from a fact of the audit (`PageFactsOut`) or the speed result: a gap is
only named when the facts show it ("Your page has no meta description"), a strength only when
they show it ("Visitors can book through Calendly"). The sentences themselves are named
templates in `templates/analysis/rules.toml` (`rules_wording.say`), so a copy change is no code
change; the conditions are in one file per variant (`rules_general`, `rules_lead`,
`rules_technical`, `rules_agency`), what they share in `rules_common` and `rules_gaps`, the
critical issues in `rules_critical`, and the contradiction rule both directions share
(`contradicts`, `ground_report`) in `rules_grounding`. This file is the entry the others
import: `rules_report` and those four names.

What each part of the §3 shape holds per variant (the pages label them):
- general and lead: overview = strategy overview; sales_funnel = the funnel's stages
  (awareness, interest, decision, action, measurement) and their gaps; customer_journey = the
  touchpoints the page offers (search result and first visit always, then social share, phone,
  e-mail, form, booking, chat when present); ai_opportunities = AI customer support, AI SEO,
  AI personalisation.
- technical: overview = architecture overview; customer_journey = the stack's layers;
  sales_funnel = performance areas; ai_opportunities = security findings (transport / third-party
  scripts / forms and data), so the security score falls with each finding.
- agency: overview = growth strategy; sales_funnel = revenue opportunities (one per group of
  gaps); customer_journey = growth roadmap; ai_opportunities = premium / growth / client
  services.
"""

from __future__ import annotations

from agency.modules.analysis.schemas import AnalysisReportOut, AnalysisVariant, PageFactsOut
from agency.modules.analysis.service import (
    rules_agency,
    rules_general,
    rules_lead,
    rules_technical,
)
from agency.modules.analysis.service.rules_common import (
    CRITICAL_MAX,
    OVERVIEW_DEFAULT,
    OVERVIEW_MAX,
)
from agency.modules.analysis.service.rules_critical import critical_issues
from agency.modules.analysis.service.rules_grounding import contradicts, ground_report

__all__ = [
    "CRITICAL_MAX",
    "OVERVIEW_DEFAULT",
    "OVERVIEW_MAX",
    "contradicts",
    "critical_issues",
    "ground_report",
    "rules_report",
]


def rules_report(facts: PageFactsOut, variant: AnalysisVariant, domain: str) -> AnalysisReportOut:
    """The §3 report from the facts alone, for the variant's page."""
    if variant == "technical":
        return rules_technical.report(facts, domain)
    if variant == "agency":
        return rules_agency.report(facts, domain)
    if variant == "lead":
        return rules_lead.report(facts, domain)
    return rules_general.report(facts, domain)
