"""Analysis shapes; the speed test's result and state come from the speedtest module."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, StrictBool

from agency.core.text import EMAIL_MAX, Line
from agency.modules.leads.api import NEWSLETTER_FIELD, NewsletterOutcome
from agency.modules.speedtest.api import URL_MAX, SpeedTestOut

# The AI website analysis. The four pages, in the spec's order (DECISIONS.md route
# mapping): /ai-analysis general, /business-analysis lead, /technical-analysis technical,
# /agency-analysis agency. The page is also the lead's source.
AnalysisSource = Literal[
    "ai-analysis", "business-analysis", "technical-analysis", "agency-analysis"
]
AnalysisVariant = Literal["general", "lead", "technical", "agency"]
AnalysisStatus = Literal["queued", "running", "done", "failed"]
ITEM_MAX = 600  # one finding, one improvement: a sentence or two


class AnalysisIn(BaseModel):
    url: Line = Field(default="", max_length=URL_MAX)
    email: Line = Field(default="", max_length=EMAIL_MAX)
    source: AnalysisSource
    newsletter: StrictBool = Field(default=False, description=NEWSLETTER_FIELD)


class FunnelStageOut(BaseModel):
    name: str
    description: str
    improvements: list[str]


class SalesFunnelOut(BaseModel):
    stages: list[FunnelStageOut]


class TouchpointOut(BaseModel):
    stage: str
    description: str
    opportunities: list[str]


class CustomerJourneyOut(BaseModel):
    touchpoints: list[TouchpointOut]


class AiOpportunitiesOut(BaseModel):
    customer_support: list[str]
    seo: list[str]
    personalization: list[str]


class AnalysisReportOut(BaseModel):
    """Spec §3's analysis result (snake_case): missing parts default to the overview 'Website
    analysis overview not available' and empty lists."""

    overview: str
    sales_funnel: SalesFunnelOut
    customer_journey: CustomerJourneyOut
    ai_opportunities: AiOpportunitiesOut


class AnalysisScoresOut(BaseModel):
    """The scores, computed on the server in one module from the facts found on the page and
    the speed test's result, never from the report's text. Each page labels them its
    own way: strategy is 'Architecture' on the technical page and 'Client Value' on the agency
    page; funnel is 'Performance' (technical) and 'Scalability' (agency); ai_readiness is
    'Profitability' (agency). Figures that need the speed result are null until it is there."""

    speed: int | None = Field(description="The speed test's score, null when it has none.")
    strategy: int = Field(ge=0, le=100, description="From the facts found on the page.")
    funnel: int = Field(ge=0, le=100)
    ai_readiness: int = Field(ge=0, le=100)
    security: int = Field(ge=0, le=100, description="Technical page: 100 less the findings.")
    visitors_lost_percent: int | None = Field(description="Lead page: round((100-speed)*0.53).")
    load_time_seconds: float | None = Field(description="speedIndex / 1000, one decimal.")
    revenue_increase_percent: int | None = Field(description="Agency page: round((100-speed)*0.8).")
    recurring_revenue: Literal["High", "Medium"] | None = Field(
        description="Agency page: High when the speed score is below 70, else Medium."
    )


class PageFactsOut(BaseModel):
    """What the audit found on the page (the facts the report is grounded in)."""

    final_url: str
    http_status: int
    title: str | None
    meta_description: str | None
    h1: list[str]
    headings: int
    calls_to_action: list[str]
    forms: int
    form_fields: int
    phone: bool
    email: bool
    structured_data: list[str]
    open_graph: bool
    viewport: bool
    language: str | None
    images: int
    images_without_alt: int
    scripts: int
    script_kb: int = Field(description="Inline scripts' size plus external ones when known.")
    booking_widgets: list[str]
    chat_widgets: list[str]
    analytics: list[str]
    https: bool


class AnalysisOut(BaseModel):
    id: str
    status: AnalysisStatus
    variant: AnalysisVariant
    domain: str
    email: str = Field(description="Where the report goes ('You'll receive ... at {email}').")
    notice: str = Field(description="'You'll receive your detailed analysis report at {email}'")
    created_at: datetime
    report: AnalysisReportOut | None = Field(description="Set once the analysis is done.")
    scores: AnalysisScoresOut | None = Field(description="Set once the analysis is done.")
    facts: PageFactsOut | None
    critical_issues: list[str] = Field(
        description="Findings grounded in the facts and the speed result, worst first (the "
        "'Critical ... Found' boxes)."
    )
    generated_by: Literal["ai", "rules"] | None = Field(
        description="Who wrote the report: the configured AI model, or the rules (no AI key, or "
        "the provider failed)."
    )
    generated_note: str | None = Field(
        description="What the report is based on, in plain words for the page (never the "
        "provider's failure: that is the admin's `generated_detail`)."
    )
    speed_test: SpeedTestOut | None = Field(description="The speed test run beside the audit.")
    error: str | None = Field(description="The message shown in the red box when it failed.")


class AnalysisStarted(AnalysisOut):
    """An analysis just asked for, with the newsletter opt-in box's outcome."""

    newsletter: NewsletterOutcome | None = Field(
        description="The newsletter opt-in box's outcome; null when it was not ticked."
    )


class AdminAnalysisOut(AnalysisOut):
    """An analysis as the admin sees it: what the visitor sees, and how the report was written."""

    generated_detail: str | None = Field(
        description="For the admin: the AI model that wrote the report, or why the rules did "
        "(no AI model configured, or the provider's failure)."
    )
