"""Payments as the payment provider's verified webhooks told us."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class Customer(Model):
    """The one Stripe customer of a user, created once and reused."""

    user_id = fields.IntField(primary_key=True, generated=False)
    stripe_customer_id = fields.CharField(max_length=255, unique=True)
    # "consumer" or "business", as the buyer last said at checkout (None: never asked).
    buyer_type = fields.CharField(max_length=16, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "billing_customer"


class CheckoutSession(Model):
    id = fields.CharField(max_length=255, primary_key=True)
    user_id = fields.IntField(db_index=True)
    plan_key = fields.CharField(max_length=64)
    domain = fields.CharField(max_length=253, null=True)
    mode = fields.CharField(max_length=16)
    status = fields.CharField(max_length=16, default="open")
    # Who buys, and a consumer's consent to work starting within the withdrawal period: the
    # version of the text they ticked and when (both None: no consent given).
    buyer_type = fields.CharField(max_length=16, default="consumer")
    early_start_consent_version = fields.CharField(max_length=64, null=True)
    early_start_consent_at = fields.DatetimeField(null=True)
    terms_version = fields.CharField(max_length=64, null=True)
    # The buyer's country (ISO 3166-1 alpha-2, as they said at checkout) and a business
    # buyer's VAT ID with what VIES said of it then (valid, invalid, pending; None: no ID).
    country = fields.CharField(max_length=2, null=True)
    vat_id = fields.CharField(max_length=20, null=True)
    vat_id_status = fields.CharField(max_length=16, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    completed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "billing_checkout_session"


ACTIVE_STATUSES = ("active", "trialing")
"""Subscription statuses that count as a paying customer."""


class Subscription(Model):
    id = fields.CharField(max_length=255, primary_key=True)
    user_id = fields.IntField(db_index=True)
    customer_id = fields.CharField(max_length=255)
    status = fields.CharField(max_length=32)
    price_id = fields.CharField(max_length=255, null=True)
    plan_key = fields.CharField(max_length=64, null=True)
    current_period_end = fields.BigIntField(null=True)
    cancel_at_period_end = fields.BooleanField(default=False)
    card_brand = fields.CharField(max_length=32, null=True)
    card_last4 = fields.CharField(max_length=4, null=True)
    stripe_created = fields.BigIntField(default=0)
    # When the customer was sent the cancellation confirmation for the cancellation now in
    # force (cleared when the subscription is renewed again): one e-mail, whichever way it came.
    cancellation_confirmed_at = fields.DatetimeField(null=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "billing_subscription"


class Order(Model):
    id = fields.IntField(primary_key=True)
    user_id = fields.IntField(db_index=True)
    plan_key = fields.CharField(max_length=64)
    checkout_session_id = fields.CharField(max_length=255, unique=True)
    payment_intent_id = fields.CharField(max_length=255, null=True)
    subscription_id = fields.CharField(max_length=255, null=True)
    amount = fields.IntField()
    currency = fields.CharField(max_length=3)
    status = fields.CharField(max_length=16)
    card_brand = fields.CharField(max_length=32, null=True)
    card_last4 = fields.CharField(max_length=4, null=True)
    order_date = fields.DatetimeField()
    # Copied from the checkout session (see CheckoutSession).
    buyer_type = fields.CharField(max_length=16, default="consumer")
    early_start_consent_version = fields.CharField(max_length=64, null=True)
    early_start_consent_at = fields.DatetimeField(null=True)
    terms_version = fields.CharField(max_length=64, null=True)
    # The order confirmation e-mail (core.mail's OutboundMail id) once queued: sent once.
    confirmation_mail_id = fields.IntField(null=True)
    # Copied from the checkout session (see CheckoutSession).
    country = fields.CharField(max_length=2, null=True)
    vat_id = fields.CharField(max_length=20, null=True)
    vat_id_status = fields.CharField(max_length=16, null=True)
    # What Stripe has refunded of the payment, in cents (charge.refunded; 0: nothing).
    amount_refunded = fields.IntField(default=0)
    # Stripe's invoice of a one-time payment (the session's `invoice_creation`), or of the
    # subscription's first payment: how an invoice event finds its order number.
    invoice_id = fields.CharField(max_length=255, null=True, db_index=True)
    # The VAT in `amount` as Stripe Tax calculated it (the session's total_details.amount_tax;
    # None without Stripe Tax) and who paid which VAT as checkout decided it (tax.api's
    # Treatment.kind: standard, reverse_charge, small_business, outside_eu; None before).
    amount_tax = fields.IntField(null=True)
    vat_kind = fields.CharField(max_length=16, null=True)
    vat_rate = fields.IntField(null=True)  # basis points (1900: 19 %)

    class Meta:
        table = "billing_order"


class CustomerTaxId(Model):
    """A tax ID on a Stripe customer (`customer.tax_id.*` events), with Stripe's verification:
    `pending`, `verified`, `unverified` or `unavailable`. Deleted at Stripe: the row goes."""

    id = fields.CharField(max_length=255, primary_key=True)  # txi_...
    stripe_customer_id = fields.CharField(max_length=255, db_index=True)
    user_id = fields.IntField(null=True, db_index=True)
    type = fields.CharField(max_length=32)
    value = fields.CharField(max_length=64)
    verification_status = fields.CharField(max_length=16, null=True)
    verified_name = fields.CharField(max_length=255, null=True)
    # Stripe's time of the event that last wrote the row: an older event never overwrites it.
    stripe_updated = fields.BigIntField(default=0)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "billing_customer_tax_id"


class WebhookEvent(Model):
    """Every verified event, stored with its id unique: applied once, replayable."""

    id = fields.CharField(max_length=255, primary_key=True)
    type = fields.CharField(max_length=100, db_index=True)
    created = fields.BigIntField()
    status = fields.CharField(max_length=16, db_index=True)
    error = fields.TextField(null=True)
    payload: dict[str, Any] = fields.JSONField()
    received_at = fields.DatetimeField(auto_now_add=True)
    processed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "billing_webhook_event"
