from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0022_leads_newsletter_consent")]

    initial = False

    operations = [
        ops.CreateModel(
            name="CustomerTaxId",
            fields=[
                (
                    "id",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=255),
                ),
                ("stripe_customer_id", fields.CharField(db_index=True, max_length=255)),
                ("user_id", fields.IntField(null=True, db_index=True)),
                ("type", fields.CharField(max_length=32)),
                ("value", fields.CharField(max_length=64)),
                ("verification_status", fields.CharField(null=True, max_length=16)),
                ("verified_name", fields.CharField(null=True, max_length=255)),
                ("stripe_updated", fields.BigIntField(default=0)),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={
                "table": "billing_customer_tax_id",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A tax ID on a Stripe customer (`customer.tax_id.*` events), with Stripe's verification:",
            },
            bases=["Model"],
        ),
        ops.AddField(
            model_name="CheckoutSession",
            name="country",
            field=fields.CharField(null=True, max_length=2),
        ),
        ops.AddField(
            model_name="CheckoutSession",
            name="vat_id",
            field=fields.CharField(null=True, max_length=20),
        ),
        ops.AddField(
            model_name="CheckoutSession",
            name="vat_id_status",
            field=fields.CharField(null=True, max_length=16),
        ),
        ops.AddField(
            model_name="Order",
            name="amount_refunded",
            field=fields.IntField(default=0),
        ),
        ops.AddField(
            model_name="Order",
            name="country",
            field=fields.CharField(null=True, max_length=2),
        ),
        ops.AddField(
            model_name="Order",
            name="vat_id",
            field=fields.CharField(null=True, max_length=20),
        ),
        ops.AddField(
            model_name="Order",
            name="vat_id_status",
            field=fields.CharField(null=True, max_length=16),
        ),
    ]
