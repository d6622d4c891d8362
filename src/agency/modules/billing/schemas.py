"""Billing request and response shapes (field names of the spec's subscription view)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field


class CheckoutIn(BaseModel):
    plan: str = Field(default="", max_length=64)
    domain: str = Field(default="", max_length=300)
    full_name: str = Field(default="", max_length=200)
    email: str = Field(default="", max_length=320)
    password: str = Field(default="", max_length=1024)
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
