"""Lead and newsletter shapes."""

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


# The pages that offer the newsletter sign-up: the speed test's three.
NewsletterSource = Literal["speed-test", "clinic-speed-test", "coach-speed-test"]


class NewsletterIn(BaseModel):
    email: Line = Field(default="", max_length=EMAIL_MAX)
    source: NewsletterSource


class NewsletterOut(BaseModel):
    message: str = Field(description="The confirmation the page shows.")
