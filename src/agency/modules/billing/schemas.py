"""Billing request and response shapes (field names of the spec's subscription view)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from agency.core.text import DOMAIN_MAX, EMAIL_MAX, Line, Secret


# Bounded by the columns each value goes to: the plan key, the website's host name, the
# profile's first and last name (a `full_name` of at most 100 fits both), the account's e-mail.
class CheckoutIn(BaseModel):
    plan: Line = Field(default="", max_length=64)
    domain: Line = Field(default="", max_length=DOMAIN_MAX)
    full_name: Line = Field(default="", max_length=100)
    email: Line = Field(default="", max_length=EMAIL_MAX)
    password: Secret = Field(default="", max_length=1024)
    page: Literal["start", "ai-start"] = "start"
    # A consumer (the default: consumer law applies unless the buyer says otherwise) or a
    # business; a consumer's consent to work starting within the withdrawal period, with the
    # version of the text they ticked (order_terms.EARLY_START_CONSENT_VERSION).
    buyer_type: Literal["consumer", "business"] = "consumer"
    early_start_consent: bool = False
    consent_version: Line = Field(default="", max_length=64)


class UrlOut(BaseModel):
    url: str


class SubscriptionOut(BaseModel):
    subscription_status: str
    price_id: str | None
    plan_key: str | None
    plan_name: str | None
    current_period_end: int | None = Field(description="Unix seconds.")
    cancel_at_period_end: bool
    payment_method_brand: str | None
    payment_method_last4: str | None


class SubscriptionEnvelope(BaseModel):
    subscription: SubscriptionOut | None


class OrderOut(BaseModel):
    id: int
    plan_key: str
    plan_name: str
    amount: int = Field(description="Cents.")
    currency: str
    status: str
    order_date: datetime
    card_brand: str | None
    card_last4: str | None


class OrderList(BaseModel):
    orders: list[OrderOut]


class CheckoutStatus(BaseModel):
    status: Literal["pending", "paid", "expired"]
    mode: str
    plan_key: str
    plan_name: str
    order_number: str | None = Field(
        default=None, description='"AG-000042" once the payment is recorded.'
    )
    buyer_type: Literal["consumer", "business"] = "consumer"
    early_start_consent: bool = False
    work_starts_on: datetime | None = Field(
        default=None,
        description="When work starts: null for at once (a business, or a consumer who "
        "consented to an early start), else the end of the withdrawal period.",
    )


class BuyerOut(BaseModel):
    buyer_type: Literal["consumer", "business"] | None


class WebhookOut(BaseModel):
    received: bool
    outcome: str


class ContractOrder(BaseModel):
    """An order as the withdraw and cancel pages see it."""

    id: int
    number: str
    user_id: int
    plan_key: str
    plan_name: str
    amount: int
    currency: str
    order_date: datetime
    subscription_id: str | None
    domain: str | None
    buyer_type: str = Field(description="consumer or business (an order without one: consumer).")


class ContractSubscription(BaseModel):
    """A subscription as the cancel page and the admins' cancellations list see it."""

    id: str
    user_id: int
    status: str
    plan_key: str | None
    plan_name: str
    current_period_end: datetime | None
    cancel_at_period_end: bool
    cancellation_confirmed_at: datetime | None
