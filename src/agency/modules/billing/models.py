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
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)
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
    # Its monthly recurring revenue as Stripe counts it (service.mrr.monthly_value): cents of
    # `currency`, VAT excluded, 0 when not counted (not active or past_due), and what it is
    # computed from (the first item's price; the quantity of all items; a `forever` coupon).
    mrr = fields.IntField(default=0)
    currency = fields.CharField(max_length=3, default="")
    interval = fields.CharField(max_length=8, null=True)
    interval_count = fields.IntField(default=1)
    quantity = fields.IntField(default=1)
    unit_amount = fields.BigIntField(null=True)
    forever_coupon_id = fields.CharField(max_length=255, null=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "billing_subscription"
        indexes = (("status", "user_id"),)


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
    order_date = fields.DatetimeField(db_index=True)
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
        # New customers of a period (each user's first paid order) from this index alone.
        indexes = (("user_id", "status", "order_date"),)


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


MOVEMENT_WEBHOOK, MOVEMENT_BACKFILL = "webhook", "backfill"


class MrrMovement(Model):
    """A change of a subscription's MRR (docs/features/mrr.md): written in the transaction of the
    webhook event that changed it (once per event and subscription), or by `agency billing
    backfill`. The MRR at any time is the sum of the deltas before it, per currency."""

    id = fields.BigIntField(primary_key=True)
    subscription_id = fields.CharField(max_length=255, db_index=True)
    user_id = fields.IntField(db_index=True)
    event_id = fields.CharField(max_length=255, null=True)
    # new | expansion | contraction | churn | reactivation (schemas.MOVEMENT_KINDS), per customer
    kind = fields.CharField(max_length=16)
    delta = fields.BigIntField()  # signed cents
    mrr_after = fields.BigIntField()  # the subscription's MRR after the change
    # +1 when the subscription starts counting (0 -> >0), -1 when it stops, else 0: the number
    # of active subscriptions at a time is the sum before it.
    active_delta = fields.SmallIntField(default=0)
    currency = fields.CharField(max_length=3)
    occurred_at = fields.DatetimeField()  # the event's `created`
    day = fields.DateField()  # occurred_at's UTC day (the daily series groups by it)
    source = fields.CharField(max_length=16, default=MOVEMENT_WEBHOOK)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "billing_mrr_movement"
        unique_together = (("subscription_id", "event_id"),)
        # Covering indexes: the MRR at a time, per day, the movements of a period by kind and
        # the active subscriptions at a time are read from them alone (figures.py).
        indexes = (
            ("currency", "occurred_at", "delta"),
            ("currency", "day", "delta"),
            ("currency", "occurred_at", "kind", "delta"),
            ("occurred_at", "active_delta"),
        )


class PaymentFailure(Model):
    """An invoice whose payment failed (invoice.payment_failed), recovered when the same invoice
    is paid (invoice.paid / invoice.payment_succeeded)."""

    id = fields.IntField(primary_key=True)
    invoice_id = fields.CharField(max_length=255, unique=True)
    user_id = fields.IntField(null=True, db_index=True)
    stripe_customer_id = fields.CharField(max_length=255, null=True)
    subscription_id = fields.CharField(max_length=255, null=True, db_index=True)
    amount = fields.BigIntField(default=0)  # what was due, cents
    currency = fields.CharField(max_length=3)
    attempts = fields.IntField(default=1)
    failed_at = fields.DatetimeField(db_index=True)  # the first failure
    last_failed_at = fields.DatetimeField()
    recovered_at = fields.DatetimeField(null=True)

    class Meta:
        table = "billing_payment_failure"


ONE_TIME, RECURRING = "one_time", "recurring"


class RevenueEntry(Model):
    """Money received or paid back, net of VAT, for the owner's revenue figures: a paid one-time
    order (`one_time`), a paid subscription invoice (`recurring`), and each refund of either
    (negative amounts, at the refund's time). Written by the webhook events, once per Stripe
    object (`stripe_id`: the checkout session, invoice or refund)."""

    id = fields.BigIntField(primary_key=True)
    stripe_id = fields.CharField(max_length=255, unique=True)
    kind = fields.CharField(max_length=16)  # one_time | recurring
    refund = fields.BooleanField(default=False)
    user_id = fields.IntField(null=True, db_index=True)
    plan_key = fields.CharField(max_length=64, null=True)
    payment_intent_id = fields.CharField(max_length=255, null=True, db_index=True)
    gross = fields.BigIntField()  # cents with VAT (negative for a refund)
    net = fields.BigIntField()  # cents without VAT (negative for a refund)
    currency = fields.CharField(max_length=3)
    occurred_at = fields.DatetimeField()

    class Meta:
        table = "billing_revenue"
        # The owner's overview reads a period's net revenue per kind, and per plan, from these
        # alone (covering indexes: bench/overview.py).
        indexes = (
            ("currency", "occurred_at"),
            ("currency", "kind", "occurred_at", "net"),
            ("currency", "occurred_at", "plan_key", "kind", "net"),
        )
