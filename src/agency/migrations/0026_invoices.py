import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0025_tax")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Invoice",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("stripe_invoice_id", fields.CharField(unique=True, max_length=255)),
                ("number", fields.CharField(null=True, db_index=True, max_length=64)),
                ("kind", fields.CharField(default="invoice", max_length=16)),
                ("status", fields.CharField(max_length=32)),
                ("corrects_stripe_id", fields.CharField(null=True, db_index=True, max_length=255)),
                ("user_id", fields.IntField(null=True, db_index=True)),
                ("stripe_customer_id", fields.CharField(null=True, db_index=True, max_length=255)),
                ("order_number", fields.CharField(null=True, max_length=32)),
                ("payment_intent_id", fields.CharField(null=True, db_index=True, max_length=255)),
                ("subscription_id", fields.CharField(null=True, max_length=255)),
                ("billing_reason", fields.CharField(null=True, max_length=64)),
                ("issued_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
                (
                    "period_start",
                    fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
                ),
                ("period_end", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ("paid_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ("voided_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ("currency", fields.CharField(max_length=3)),
                ("net", fields.BigIntField(default=0)),
                ("vat", fields.BigIntField(default=0)),
                ("gross", fields.BigIntField(default=0)),
                ("amount_refunded", fields.BigIntField(default=0)),
                ("country", fields.CharField(null=True, max_length=2)),
                ("buyer_type", fields.CharField(default="consumer", max_length=16)),
                ("buyer_name", fields.CharField(null=True, max_length=300)),
                ("buyer_email", fields.CharField(null=True, max_length=320)),
                (
                    "buyer_address",
                    fields.JSONField(
                        null=True,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("buyer_vat_id", fields.CharField(null=True, max_length=32)),
                ("seller_name", fields.CharField(null=True, max_length=300)),
                ("seller_country", fields.CharField(null=True, max_length=2)),
                ("seller_vat_id", fields.CharField(null=True, max_length=32)),
                ("reverse_charge", fields.BooleanField(default=False)),
                ("small_business", fields.BooleanField(default=False)),
                ("hosted_url", fields.CharField(null=True, max_length=2000)),
                ("pdf_url", fields.CharField(null=True, max_length=2000)),
                ("description", fields.TextField(default="", unique=False)),
                ("footer", fields.TextField(null=True, unique=False)),
                (
                    "tax_lines",
                    fields.JSONField(
                        default=list,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                (
                    "lines",
                    fields.JSONField(
                        default=list,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                (
                    "refund_ids",
                    fields.JSONField(
                        default=list,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("stripe_created", fields.BigIntField(default=0)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={
                "table": "invoices_invoice",
                "app": "models",
                "pk_attr": "id",
                "table_description": "An invoice (`kind` invoice) or a credit note (`kind` credit_note, `corrects` the stored",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="Refund",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("stripe_refund_id", fields.CharField(unique=True, max_length=255)),
                ("stripe_charge_id", fields.CharField(db_index=True, max_length=255)),
                ("payment_intent_id", fields.CharField(null=True, db_index=True, max_length=255)),
                ("stripe_invoice_id", fields.CharField(null=True, db_index=True, max_length=255)),
                ("credit_note_stripe_id", fields.CharField(null=True, max_length=255)),
                ("user_id", fields.IntField(null=True, db_index=True)),
                ("amount", fields.BigIntField()),
                ("currency", fields.CharField(max_length=3)),
                ("status", fields.CharField(default="succeeded", max_length=32)),
                ("refunded_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "invoices_refund",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A refund of a charge (charge.refunded), linked to the invoice it pays back when known.",
            },
            bases=["Model"],
        ),
    ]
