"""The overview's shapes: the query of `GET /api/admin/overview` and its answer (the web UI's
overview page and `agency overview --json` read exactly this), and the daily snapshot's
figures. Money is integer cents of `period.currency`."""

from __future__ import annotations

import datetime as dt
from datetime import date, datetime

from pydantic import BaseModel, Field, field_validator

from agency.core.text import QueryArgs

MSG_DATE = "'{field}' must be a date such as 2026-11-01."
MSG_PERIOD_TEXT = "'period' must be a period's name such as this_month."


def _date(field: str, value: object) -> object:
    """A `YYYY-MM-DD` text as a date (with the field's own message), anything else as given."""
    if isinstance(value, str):
        text = value.strip()
        try:
            if len(text) != 10:
                raise ValueError(text)
            return date.fromisoformat(text)
        except ValueError as exc:
            raise ValueError(MSG_DATE.format(field=field)) from exc
    return value


class OverviewQuery(QueryArgs):
    """The period of the overview; the service checks the combination (custom needs both
    dates, at most 366 days, not after today)."""

    period: str | None = Field(
        default=None,
        max_length=32,
        description="this_month (default), last_month, last_30_days, this_quarter, "
        "last_quarter or custom (with start and end).",
    )
    start: date | None = Field(default=None, description="custom: the first day, 2026-11-01.")
    end: date | None = Field(default=None, description="custom: the last day (inclusive).")

    @field_validator("period", mode="before")
    @classmethod
    def _period(cls, value: object) -> object:
        if isinstance(value, str) and len(value) > 32:
            raise ValueError(MSG_PERIOD_TEXT)
        return value

    @field_validator("start", mode="before")
    @classmethod
    def _start(cls, value: object) -> object:
        return _date("start", value)

    @field_validator("end", mode="before")
    @classmethod
    def _end(cls, value: object) -> object:
        return _date("end", value)


class PeriodOut(BaseModel):
    key: str = Field(description="The period's name: this_month, ..., custom.")
    label: str = Field(description="Its days as people read them: 1-26 Nov 2026 (an en dash).")
    start: date = Field(description="The first day (UTC).")
    end: date = Field(description="The last day (inclusive).")
    previous_start: date
    previous_end: date
    previous_label: str
    currency: str = Field(description="The currency of every amount (cents).")


class Definitions(BaseModel):
    """What each figure means, for the tooltips."""

    mrr: str
    arr: str
    one_time_revenue: str
    new_customers: str
    failed_payments: str
    churn: str
    funnel: str
    median_first_reply: str


class Compared(BaseModel):
    current: int
    previous: int


class PastDueCard(BaseModel):
    current: int = Field(description="Subscriptions past due now.")
    amount_at_risk: int = Field(description="Their MRR (cents).")


class CurrentOnly(BaseModel):
    current: int


class Cards(BaseModel):
    mrr: Compared
    arr: Compared
    active_subscriptions: Compared
    one_time_revenue: Compared
    recurring_revenue: Compared
    new_customers: Compared
    failed_payments: Compared
    past_due: PastDueCard
    support_open: CurrentOnly


class MrrMovementsOut(BaseModel):
    """The waterfall: start + new + expansion + reactivation - contraction - churn = end."""

    start: int
    new: int
    expansion: int
    reactivation: int
    contraction: int = Field(description="MRR lost by subscriptions that went down (positive).")
    churn: int = Field(description="MRR lost by subscriptions that ended (positive).")
    end: int


class MrrPoint(BaseModel):
    date: dt.date
    mrr: int = Field(description="The MRR at the end of the day (cents).")


class FailedPaymentOut(BaseModel):
    user_id: int | None
    email: str | None
    customer_url: str | None = Field(description="The customer in the Stripe Dashboard.")
    plan_key: str | None
    amount: int
    currency: str
    failed_at: datetime
    recovered_at: datetime | None = Field(description="When the same invoice was paid since.")


class PastDueOut(BaseModel):
    user_id: int
    email: str | None
    customer_url: str | None
    plan_key: str | None
    mrr: int
    since: datetime


class FunnelStep(BaseModel):
    key: str
    label: str
    current: int
    previous: int


class SourceCount(BaseModel):
    source: str = Field(description="The form or page: free-preview, speed-test, newsletter...")
    label: str
    current: int
    previous: int


class Funnel(BaseModel):
    steps: list[FunnelStep]
    abandoned: Compared
    leads_by_source: list[SourceCount]


class PlanRevenueOut(BaseModel):
    plan_key: str
    plan_name: str
    family: str
    family_title: str
    one_time: int
    recurring: int
    total: int


class FamilyRevenueOut(BaseModel):
    family: str
    family_title: str
    total: int


class StatusCount(BaseModel):
    status: str
    label: str
    count: int
    average_score: float | None = Field(description="Mean latest speed score, when known.")


class BuildingOut(BaseModel):
    count: int = Field(description="Websites in building now.")
    median_hours: float | None = Field(description="How long they have waited, the median.")
    longest_hours: float | None


class Websites(BaseModel):
    by_status: list[StatusCount]
    building: BuildingOut


class ToolFigures(BaseModel):
    current: int = Field(description="Run in the period.")
    previous: int
    became_leads: int = Field(description="Distinct e-mail addresses they were run for.")
    became_purchases: int = Field(description="Of those people, how many paid in the period.")


class Tools(BaseModel):
    speed_tests: ToolFigures
    analyses: ToolFigures


class SupportOut(BaseModel):
    open: int
    answered: int
    median_first_reply_hours: float | None
    previous_median_first_reply_hours: float | None


class OverviewOut(BaseModel):
    """How the business did over a period, beside the period before it."""

    period: PeriodOut
    definitions: Definitions
    cards: Cards
    mrr_movements: MrrMovementsOut
    mrr_series: list[MrrPoint]
    failed_payments: list[FailedPaymentOut]
    past_due: list[PastDueOut]
    funnel: Funnel
    revenue_by_plan: list[PlanRevenueOut]
    revenue_by_family: list[FamilyRevenueOut]
    websites: Websites
    tools: Tools
    support: SupportOut
    generated_in_ms: int = Field(description="How long the server took to compute it.")


class SnapshotFigures(BaseModel):
    """One day's figures as the snapshot keeps them (at the end of the day, or when taken)."""

    mrr: int
    arr: int
    active_subscriptions: int
    paying_customers: int
    one_time_revenue_day: int
    leads_day: int
    signups_day: int
    websites_live: int
    support_open: int


class SnapshotOut(BaseModel):
    day: date
    figures: SnapshotFigures
    taken_at: datetime
