"""Billing request and response shapes (field names of the spec's subscription view)."""

from __future__ import annotations

from dataclasses import dataclass
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
    # The buyer's country (ISO 3166-1 alpha-2; empty: the agency's `vat_country`) and, for a
    # business in the EU, its VAT ID (checked for syntax, then with VIES; empty: none).
    country: Line = Field(default="", max_length=64)
    vat_id: Line = Field(default="", max_length=64)


class QuoteIn(BaseModel):
    """What a buyer would pay for a plan, by buyer type, country and VAT ID."""

    plan: Line = Field(default="", max_length=64)
    buyer_type: Literal["consumer", "business"] = "consumer"
    country: Line = Field(default="", max_length=64)
    vat_id: Line = Field(default="", max_length=64)


class QuoteOut(BaseModel):
    currency: str = Field(description='Lower case, as Stripe\'s: "eur".')
    net: int = Field(description="Cents.")
    vat: int = Field(description="Cents.")
    gross: int = Field(description="Cents: what the buyer pays.")
    rate: int = Field(description="Basis points: 1900 is 19 %.")
    kind: Literal["standard", "reverse_charge", "small_business", "outside_eu"]
    country: str = Field(description="The buyer's country (ISO 3166-1 alpha-2).")
    note: str
    vat_id_status: Literal["valid", "invalid", "pending"] | None
    calculated_at_payment: bool = Field(
        description="Stripe Tax calculates the VAT at payment from the billing address: the "
        "amounts are a preview."
    )


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
    amount_refunded: int = Field(default=0, description="Cents refunded so far.")
    currency: str
    status: str = Field(description='"paid", or "refunded" once all of it is refunded.')
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


# --- the owner's figures (billing.api: what the overview reads) -------------------------------
# Money is integer cents of `currency` ("EUR"); figures of other currencies are never summed in.

MOVEMENT_KINDS = ("new", "expansion", "reactivation", "contraction", "churn")
"""The kinds of MRR movement, per customer: 0 -> >0 `new` (never had MRR before) or
`reactivation`; up `expansion`; down but above 0 `contraction`; down to 0 `churn`."""


@dataclass(frozen=True)
class PlanRevenue:
    """Net revenue (VAT excluded, refunds made in the period deducted) of one plan."""

    plan_key: str
    one_time: int
    recurring: int


@dataclass(frozen=True)
class FailedPayment:
    """An invoice whose payment failed (invoice.payment_failed), recovered once the same invoice
    was paid."""

    user_id: int | None
    email: str | None
    stripe_customer_id: str | None
    invoice_id: str
    amount: int
    currency: str
    failed_at: datetime
    recovered_at: datetime | None
    plan_key: str | None


@dataclass(frozen=True)
class PastDue:
    """A subscription in `past_due`, since its first unrecovered failed payment."""

    subscription_id: str
    user_id: int
    email: str | None
    stripe_customer_id: str
    mrr: int
    currency: str
    plan_key: str | None
    since: datetime


@dataclass(frozen=True)
class CheckoutCounts:
    """Checkout sessions started in a period, and of those how many were paid (completed) and
    abandoned (expired)."""

    started: int
    paid: int
    abandoned: int
