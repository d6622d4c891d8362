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


class WebhookOut(BaseModel):
    received: bool
    outcome: str
