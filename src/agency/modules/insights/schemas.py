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
