"""Shapes of the withdraw and cancel pages and of the admins' lists."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, Field

from agency.core.text import EMAIL_MAX, Line, Lines

REFERENCE_MAX = 300
REASON_MAX = 2000


class IdentifyIn(BaseModel):
    """Who asks and which contract: the e-mail address of the order and its order number
    ("AG-000042") or the website's domain."""

    email: Line = Field(default="", max_length=EMAIL_MAX)
    reference: Line = Field(
        default="",
        max_length=REFERENCE_MAX,
        description="The order number (AG-000042) or the website's domain (example.com).",
    )


class CancellationIn(IdentifyIn):
    """The cancellation itself (§ 312k BGB): ordinary, at the end of the paid period, or
    extraordinary, for good cause and as soon as possible, with the reason."""

    kind: Literal["ordinary", "extraordinary"] = "ordinary"
    reason: Lines = Field(default="", max_length=REASON_MAX)


class WithdrawalPreview(BaseModel):
    """What a withdrawal will do, before it is confirmed."""

    order_number: str
    plan_name: str
    domain: str | None
    ordered_on: date
    deadline: date = Field(description="The last day of the withdrawal period.")


class WithdrawalReceipt(WithdrawalPreview):
    received_at: datetime
    message: str


class CancellationPreview(BaseModel):
    """What a cancellation will do, before it is confirmed."""

    plan_name: str
    order_number: str | None
    domain: str | None
    ends_on: date | None = Field(description="The end of the current paid period.")


class CancellationReceipt(CancellationPreview):
    kind: Literal["ordinary", "extraordinary"]
    requested_at: datetime
    message: str


class AdminWithdrawalOut(BaseModel):
    id: int
    order_number: str
    plan_name: str
    email: str
    domain: str | None
    ordered_at: datetime
    deadline: date
    received_at: datetime
    status: str


class AdminCancellationOut(BaseModel):
    subscription_id: str
    plan_name: str
    email: str | None
    status: str = Field(description="The subscription's status at Stripe (active until it ends).")
    ends_at: datetime | None
    requested_at: datetime | None
    kind: str = Field(description="ordinary (at the period end) or extraordinary (for cause).")
    reason: str | None
    via: str = Field(description="cancel_page, or dashboard (the customer portal, a webhook).")


class AdminContracts(BaseModel):
    withdrawals: list[AdminWithdrawalOut]
    cancellations: list[AdminCancellationOut]
