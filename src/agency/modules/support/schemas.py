"""Support shapes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from agency.core.sql import INT_ID_MAX
from agency.core.text import EMAIL_MAX, Line, Lines, QueryArgs

# Bounded by the support_request columns (tests/test_schema_limits.py checks it).
NAME_MAX = 200
SUBJECT_MAX = 200
MESSAGE_MAX = 5000

RowId = Annotated[int, Field(ge=1, le=INT_ID_MAX)]


class SupportIn(BaseModel):
    """A request. Visitors give their name and e-mail; a signed-in customer's come from their
    account, and they may name one of their websites."""

    name: Line = Field(default="", max_length=NAME_MAX)
    email: Line = Field(default="", max_length=EMAIL_MAX)
    subject: Line = Field(default="", max_length=SUBJECT_MAX)
    message: Lines = Field(default="", max_length=MESSAGE_MAX)
    website_id: RowId | None = None
    # A honeypot: hidden from people, filled by bots; never stored.
    company_website: Line = Field(default="", max_length=300)


class SupportReceipt(BaseModel):
    message: str


class ReplyOut(BaseModel):
    id: int
    body: str
    created_at: datetime


class SupportRequestOut(BaseModel):
    id: int
    subject: str
    message: str
    status: str
    website_id: int | None
    website_domain: str | None
    created_at: datetime
    replies: list[ReplyOut]


class SupportList(BaseModel):
    requests: list[SupportRequestOut]


class AdminSupportRequestOut(SupportRequestOut):
    user_id: int | None
    name: str
    email: str


class AdminSupportList(BaseModel):
    requests: list[AdminSupportRequestOut]


class AdminSupportQuery(QueryArgs):
    """The admin list's filter (checked by the service, with its own message)."""

    status: str | None = Field(default=None, description="open, answered or resolved")


class ReplyIn(BaseModel):
    body: Lines = Field(default="", max_length=MESSAGE_MAX)


class SupportFigures(BaseModel):
    """Support's figures for the owner's overview."""

    open: int = Field(description="Requests waiting for a reply now.")
    answered: int = Field(description="Requests first answered in the period.")
    median_first_reply_hours: float | None = Field(
        description="Median hours from a request to its first reply, of those answered."
    )
