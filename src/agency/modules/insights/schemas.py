"""Lead shapes."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class LeadIn(BaseModel):
    source: str = Field(default="", max_length=64)
    email: str = Field(default="", max_length=320)
    name: str = Field(default="", max_length=200)
    domain: str = Field(default="", max_length=300)
    message: str = Field(default="", max_length=5000)
    # A honeypot: hidden from people, filled by bots.
    company_website: str = Field(default="", max_length=300)


class LeadsQuery(BaseModel):
    """The filters of the leads list and its CSV (documented; the route reads them itself)."""

    source: str | None = None
    since: str | None = Field(default=None, description="A date such as 2026-11-01.")


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
