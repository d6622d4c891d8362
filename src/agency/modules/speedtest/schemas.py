"""Speed-test shapes."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, StrictBool

from agency.core.text import EMAIL_MAX, Line
from agency.modules.leads.api import NEWSLETTER_FIELD, NewsletterOutcome

# The speed test. The three pages that run it, each also a lead's source.
SpeedSource = Literal["speed-test", "clinic-speed-test", "coach-speed-test"]
Strategy = Literal["mobile", "desktop"]
SpeedStatus = Literal["queued", "running", "done", "failed"]
Rating = Literal["Excellent", "Needs Improvement", "Poor"]
URL_MAX = 2048  # what a visitor may type; only the host is kept (insights_speed_test.domain)


class SpeedTestIn(BaseModel):
    url: Line = Field(default="", max_length=URL_MAX)
    email: Line = Field(default="", max_length=EMAIL_MAX)
    source: SpeedSource
    strategy: Strategy = "mobile"
    newsletter: StrictBool = Field(default=False, description=NEWSLETTER_FIELD)


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


class SpeedTestStarted(SpeedTestOut):
    """A test just asked for: the test, what the page confirms, and the opt-in box's outcome."""

    notice: str = Field(description="Where and when the report goes, as the page says it.")
    newsletter: NewsletterOutcome | None = Field(
        description="The newsletter opt-in box's outcome; null when it was not ticked."
    )


class TestedThisMonthOut(BaseModel):
    """The speed-test pages' 'websites tested this month' figure."""

    month: str = Field(description="The calendar month counted (UTC), e.g. 2026-11.")
    websites: int = Field(
        ge=0, description="Distinct websites whose speed test completed in that month."
    )
