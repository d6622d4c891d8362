# Edited by hand: Customer.user_id is the user id (generated=False), which the writer omits.
import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0004_sites")]

    initial = False

    operations = [
        ops.CreateModel(
            name="CheckoutSession",
            fields=[
                (
                    "id",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=255),
                ),
                ("user_id", fields.IntField(db_index=True)),
                ("plan_key", fields.CharField(max_length=64)),
                ("domain", fields.CharField(null=True, max_length=253)),
                ("mode", fields.CharField(max_length=16)),
                ("status", fields.CharField(default="open", max_length=16)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                (
                    "completed_at",
                    fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
                ),
            ],
            options={"table": "billing_checkout_session", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
        ops.CreateModel(
            name="Customer",
            fields=[
                (
                    "user_id",
                    fields.IntField(primary_key=True, generated=False, unique=True, db_index=True),
                ),
                ("stripe_customer_id", fields.CharField(unique=True, max_length=255)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "billing_customer",
                "app": "models",
                "pk_attr": "user_id",
                "table_description": "The one Stripe customer of a user, created once and reused.",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="Order",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("user_id", fields.IntField(db_index=True)),
                ("plan_key", fields.CharField(max_length=64)),
                ("checkout_session_id", fields.CharField(unique=True, max_length=255)),
                ("payment_intent_id", fields.CharField(null=True, max_length=255)),
                ("subscription_id", fields.CharField(null=True, max_length=255)),
                ("amount", fields.IntField()),
                ("currency", fields.CharField(max_length=3)),
                ("status", fields.CharField(max_length=16)),
                ("card_brand", fields.CharField(null=True, max_length=32)),
                ("card_last4", fields.CharField(null=True, max_length=4)),
                ("order_date", fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={"table": "billing_order", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
        ops.CreateModel(
            name="Subscription",
            fields=[
                (
                    "id",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=255),
                ),
                ("user_id", fields.IntField(db_index=True)),
                ("customer_id", fields.CharField(max_length=255)),
                ("status", fields.CharField(max_length=32)),
                ("price_id", fields.CharField(null=True, max_length=255)),
                ("plan_key", fields.CharField(null=True, max_length=64)),
                ("current_period_end", fields.BigIntField(null=True)),
                ("cancel_at_period_end", fields.BooleanField(default=False)),
                ("card_brand", fields.CharField(null=True, max_length=32)),
                ("card_last4", fields.CharField(null=True, max_length=4)),
                ("stripe_created", fields.BigIntField(default=0)),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={"table": "billing_subscription", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
        ops.CreateModel(
            name="WebhookEvent",
            fields=[
                (
                    "id",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=255),
                ),
                ("type", fields.CharField(db_index=True, max_length=100)),
                ("created", fields.BigIntField()),
                ("status", fields.CharField(db_index=True, max_length=16)),
                ("error", fields.TextField(null=True, unique=False)),
                (
                    "payload",
                    fields.JSONField(
                        encoder=functools.partial(dumps, separators=(",", ":")), decoder=loads
                    ),
                ),
                ("received_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                (
                    "processed_at",
                    fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
                ),
            ],
            options={
                "table": "billing_webhook_event",
                "app": "models",
                "pk_attr": "id",
                "table_description": "Every verified event, stored with its id unique: applied once, replayable.",
            },
            bases=["Model"],
        ),
    ]
