"""Website shapes: the customer's list and detail, the analytics page, the agency's list."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from agency.core.text import Line, ListQuery
from agency.modules.speedtest.api import SpeedResultOut

CheckStatus = Literal["queued", "running", "done", "failed"]
CheckKind = Literal["manual", "monitor", "launch"]


class WebsiteOut(BaseModel):
    id: int
    domain: str
    page_speed: int | None = Field(description="The latest speed score (0-100), or null.")
    status: str = Field(description="building, live, paused or cancelled.")
    created_at: datetime
    went_live_at: datetime | None = Field(
        default=None,
        description="When the delivered site went live; earlier scores measured the old site.",
    )
    measuring: bool = Field(
        default=False,
        description="True from going live until the first test of the live site ends "
        "(page_speed is null meanwhile: the old site's score is not the live site's).",
    )


class WebsiteList(BaseModel):
    websites: list[WebsiteOut]


class ScorePoint(BaseModel):
    at: datetime
    score: int = Field(ge=0, le=100)


class SpeedCheckOut(BaseModel):
    """A speed test of the website: queued or running until it ends done or failed."""

    id: int
    kind: CheckKind
    status: CheckStatus
    score: int | None
    error: str | None = Field(description="The message shown in the red box when it failed.")
    created_at: datetime
    finished_at: datetime | None


class WebsiteDetail(BaseModel):
    website: WebsiteOut
    status_text: str = Field(description="What the status means and what happens next.")
    plan_name: str | None
    delivery: str | None = Field(description="The delivery promise of the plan bought.")
    latest: SpeedResultOut | None = Field(description="The latest finished speed test.")
    latest_at: datetime | None
    history: list[ScorePoint] = Field(description="Speed scores, oldest first.")
    check: SpeedCheckOut | None = Field(description="The site's latest speed check.")


class SiteAnalytics(BaseModel):
    website: WebsiteOut
    latest: SpeedResultOut | None
    latest_at: datetime | None
    history: list[ScorePoint]


class AnalyticsOut(BaseModel):
    sites: list[SiteAnalytics]


class AdminWebsiteOut(WebsiteOut):
    user_id: int
    customer_email: str | None
    customer_name: str
    plan_key: str | None
    status_changed_at: datetime | None


class AdminWebsiteList(BaseModel):
    websites: list[AdminWebsiteOut]


MSG_SEARCH = "The search may have at most 100 characters, on one line."


class AdminSitesQuery(ListQuery):
    """The filters of the agency's website list."""

    MSG_SEARCH = MSG_SEARCH

    status: Line | None = Field(
        default=None, max_length=16, description="building, live, paused or cancelled."
    )
    q: Line | None = Field(
        default=None,
        max_length=100,
        description="Part of the domain, or the customer's e-mail or name.",
    )


class StatusIn(BaseModel):
    status: Line = Field(max_length=16, description="building, live, paused or cancelled.")
