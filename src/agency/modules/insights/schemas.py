"""Lead and speed-test shapes."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from agency.core.text import DOMAIN_MAX, EMAIL_MAX, Line, Lines

MESSAGE_MAX = 5000


# Bounded by the insights_lead columns (the message is free text up to 5,000 characters).
class LeadIn(BaseModel):
    source: Line = Field(default="", max_length=64)
    email: Line = Field(default="", max_length=EMAIL_MAX)
    name: Line = Field(default="", max_length=200)
    domain: Line = Field(default="", max_length=DOMAIN_MAX)
    message: Lines = Field(default="", max_length=MESSAGE_MAX)
    # A honeypot: hidden from people, filled by bots; never stored.
    company_website: Line = Field(default="", max_length=300)


class LeadsQuery(BaseModel):
    """The filters of the leads list and its CSV (documented; the route reads them itself)."""

    source: Line | None = Field(default=None, max_length=64)
    since: Line | None = Field(
        default=None, max_length=32, description="A date such as 2026-11-01."
    )


class LeadOut(BaseModel):
    id: int
    source: str
    source_label: str
    email: str
    name: str | None
    domain: str | None
    message: str | None
    created_at: datetime


class LeadList(BaseModel):
    leads: list[LeadOut]


class LeadReceipt(BaseModel):
    message: str


# The speed test (issue 14). The three pages that run it, each also a lead's source.
SpeedSource = Literal["speed-test", "clinic-speed-test", "coach-speed-test"]
Strategy = Literal["mobile", "desktop"]
SpeedStatus = Literal["queued", "running", "done", "failed"]
Rating = Literal["Excellent", "Needs Improvement", "Poor"]
URL_MAX = 2048  # what a visitor may type; only the host is kept (insights_speed_test.domain)


class NewsletterIn(BaseModel):
    email: Line = Field(default="", max_length=EMAIL_MAX)
    source: SpeedSource


class NewsletterOut(BaseModel):
    message: str = Field(description="The confirmation the page shows.")


class SpeedTestIn(BaseModel):
    url: Line = Field(default="", max_length=URL_MAX)
    email: Line = Field(default="", max_length=EMAIL_MAX)
    source: SpeedSource
    strategy: Strategy = "mobile"


class FieldMetricOut(BaseModel):
    name: str = Field(description="LCP, INP or CLS.")
    percentile: float = Field(description="p75 of real visitors: ms (LCP, INP) or a plain CLS.")
    category: str = Field(description="FAST, AVERAGE or SLOW.")


class OpportunityOut(BaseModel):
    title: str
    savings_ms: int


class SpeedResultOut(BaseModel):
    score: int = Field(ge=0, le=100)
    rating: Rating
    speed_index_ms: int
    total_blocking_time_ms: int
    largest_contentful_paint_ms: int | None
    cumulative_layout_shift: float | None
    first_contentful_paint_ms: int | None
    field_data: list[FieldMetricOut]
    opportunities: list[OpportunityOut]
    provider: Literal["psi", "lighthouse"]


class SpeedTestOut(BaseModel):
    id: str
    status: SpeedStatus
    domain: str
    strategy: Strategy
    created_at: datetime
    result: SpeedResultOut | None
    error: str | None = Field(description="The message shown in the red box when it failed.")


# The AI website analysis (issue 15). The four pages, in the spec's order (DECISIONS.md route
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
    """Spec §9's derived figures, computed on the server (one module). Each page labels them its
    own way: strategy is 'Architecture' on the technical page and 'Client Value' on the agency
    page; funnel is 'Performance' (technical) and 'Scalability' (agency); ai_readiness is
    'Profitability' (agency). Figures that need the speed result are null until it is there."""

    speed: int | None = Field(description="The speed test's score, null when it has none.")
    strategy: int = Field(ge=0, le=100)
    funnel: int = Field(ge=0, le=100)
    ai_readiness: int = Field(ge=0, le=100)
    security: int = Field(ge=0, le=100, description="Technical page: 100 - 10 per opportunity.")
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
    generated_note: str | None = Field(description="Says which, in a sentence, for the page.")
    speed_test: SpeedTestOut | None = Field(description="The speed test run beside the audit.")
    error: str | None = Field(description="The message shown in the red box when it failed.")
