from tortoise import fields, migrations
from tortoise.indexes import Index
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0028_audit")]

    initial = False

    operations = [
        ops.CreateModel(
            name="MrrMovement",
            fields=[
                (
                    "id",
                    fields.BigIntField(
                        generated=True, primary_key=True, unique=True, db_index=True
                    ),
                ),
                ("subscription_id", fields.CharField(db_index=True, max_length=255)),
                ("user_id", fields.IntField(db_index=True)),
                ("event_id", fields.CharField(null=True, max_length=255)),
                ("kind", fields.CharField(max_length=16)),
                ("delta", fields.BigIntField()),
                ("mrr_after", fields.BigIntField()),
                ("active_delta", fields.SmallIntField(default=0)),
                ("currency", fields.CharField(max_length=3)),
                ("occurred_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ("day", fields.DateField()),
                ("source", fields.CharField(default="webhook", max_length=16)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "billing_mrr_movement",
                "app": "models",
                "unique_together": (("subscription_id", "event_id"),),
                "indexes": [
                    Index(fields=["currency", "occurred_at"]),
                    Index(fields=["currency", "day"]),
                ],
                "pk_attr": "id",
                "table_description": "A change of a subscription's MRR (docs/features/mrr.md): written in the transaction of the",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="PaymentFailure",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("invoice_id", fields.CharField(unique=True, max_length=255)),
                ("user_id", fields.IntField(null=True, db_index=True)),
                ("stripe_customer_id", fields.CharField(null=True, max_length=255)),
                ("subscription_id", fields.CharField(null=True, db_index=True, max_length=255)),
                ("amount", fields.BigIntField(default=0)),
                ("currency", fields.CharField(max_length=3)),
                ("attempts", fields.IntField(default=1)),
                (
                    "failed_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False),
                ),
                ("last_failed_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
                (
                    "recovered_at",
                    fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
                ),
            ],
            options={
                "table": "billing_payment_failure",
                "app": "models",
                "pk_attr": "id",
                "table_description": "An invoice whose payment failed (invoice.payment_failed), recovered when the same invoice",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="RevenueEntry",
            fields=[
                (
                    "id",
                    fields.BigIntField(
                        generated=True, primary_key=True, unique=True, db_index=True
                    ),
                ),
                ("stripe_id", fields.CharField(unique=True, max_length=255)),
                ("kind", fields.CharField(max_length=16)),
                ("refund", fields.BooleanField(default=False)),
                ("user_id", fields.IntField(null=True, db_index=True)),
                ("plan_key", fields.CharField(null=True, max_length=64)),
                ("payment_intent_id", fields.CharField(null=True, db_index=True, max_length=255)),
                ("gross", fields.BigIntField()),
                ("net", fields.BigIntField()),
                ("currency", fields.CharField(max_length=3)),
                ("occurred_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={
                "table": "billing_revenue",
                "app": "models",
                "indexes": [Index(fields=["currency", "occurred_at"])],
                "pk_attr": "id",
                "table_description": "Money received or paid back, net of VAT, for the owner's revenue figures: a paid one-time",
            },
            bases=["Model"],
        ),
        ops.AlterField(
            model_name="CheckoutSession",
            name="created_at",
            field=fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True),
        ),
        ops.AlterField(
            model_name="Order",
            name="order_date",
            field=fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name="Subscription",
            name="currency",
            field=fields.CharField(default="", max_length=3),
        ),
        ops.AddField(
            model_name="Subscription",
            name="forever_coupon_id",
            field=fields.CharField(null=True, max_length=255),
        ),
        ops.AddField(
            model_name="Subscription",
            name="interval",
            field=fields.CharField(null=True, max_length=8),
        ),
        ops.AddField(
            model_name="Subscription",
            name="interval_count",
            field=fields.IntField(default=1),
        ),
        ops.AddField(
            model_name="Subscription",
            name="mrr",
            field=fields.IntField(default=0),
        ),
        ops.AddField(
            model_name="Subscription",
            name="quantity",
            field=fields.IntField(default=1),
        ),
        ops.AddField(
            model_name="Subscription",
            name="unit_amount",
            field=fields.BigIntField(null=True),
        ),
        ops.AddIndex(
            model_name="Subscription",
            index=Index(fields=["status", "user_id"]),
        ),
    ]
