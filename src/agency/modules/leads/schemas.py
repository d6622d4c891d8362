"""Lead and newsletter shapes."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field, StrictBool, field_validator

from agency.core.text import DOMAIN_MAX, EMAIL_MAX, Line, Lines, QueryArgs

MESSAGE_MAX = 5000
# The forms' opt-in box, one wording for the three requests that carry it.
NEWSLETTER_FIELD = (
    "Also subscribe the e-mail to the newsletter: true only when the visitor ticked the form's "
    "unticked opt-in box (JSON true, nothing else); false or absent never subscribes."
)


# Bounded by the insights_lead columns (the message is free text up to 5,000 characters).
class LeadIn(BaseModel):
    source: Line = Field(default="", max_length=64)
    email: Line = Field(default="", max_length=EMAIL_MAX)
    name: Line = Field(default="", max_length=200)
    domain: Line = Field(default="", max_length=DOMAIN_MAX)
    message: Lines = Field(default="", max_length=MESSAGE_MAX)
    # A honeypot: hidden from people, filled by bots; never stored.
    company_website: Line = Field(default="", max_length=300)
    newsletter: StrictBool = Field(default=False, description=NEWSLETTER_FIELD)


MSG_SINCE = "'since' must be a date such as 2026-11-01."


class LeadsQuery(QueryArgs):
    """The filters of the leads list and its CSV."""

    # Checked by the service, with its own message (a form name: one line, 64 characters).
    source: str | None = Field(default=None, description="The form the leads came from.")
    since: datetime | None = Field(default=None, description="A date such as 2026-11-01.")

    @field_validator("since", mode="before")
    @classmethod
    def _since(cls, value: object) -> object:
        if isinstance(value, str):
            try:
                return datetime.fromisoformat(value)
            except ValueError as exc:
                raise ValueError(MSG_SINCE) from exc
        return value


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


class NewsletterOutcome(BaseModel):
    """What became of a ticked opt-in box (absent when the box was not ticked)."""

    subscribed: bool = Field(description="Kit accepted the subscription.")
    message: str = Field(description="What the page shows about the newsletter.")


class NewsletterConsentOut(BaseModel):
    """A recorded newsletter consent (a ticked opt-in box), as the export and admins see it."""

    email: str
    form: str = Field(description="The form or page whose box was ticked.")
    form_label: str
    wording_version: str = Field(description="The version of the box's wording.")
    wording: str = Field(description="The box's wording in that version.")
    outcome: str = Field(description="What Kit made of it: subscribed, refused, not_configured.")
    created_at: datetime


class LeadReceipt(BaseModel):
    message: str
    newsletter: NewsletterOutcome | None = Field(
        default=None, description="The opt-in box's outcome; null when it was not ticked."
    )
