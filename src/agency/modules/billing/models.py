"""Payments as the payment provider's verified webhooks told us."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class Customer(Model):
    """The one Stripe customer of a user, created once and reused."""

    user_id = fields.IntField(primary_key=True, generated=False)
    stripe_customer_id = fields.CharField(max_length=255, unique=True)
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

    class Meta:
        table = "billing_order"


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
