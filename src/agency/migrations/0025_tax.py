from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0024_order_invoice")]

    initial = False

    operations = [
        ops.CreateModel(
            name="VatIdCheck",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("number", fields.CharField(unique=True, max_length=20)),
                ("country", fields.CharField(max_length=2)),
                ("status", fields.CharField(db_index=True, max_length=16)),
                ("name", fields.TextField(null=True, unique=False)),
                ("address", fields.TextField(null=True, unique=False)),
                ("request_identifier", fields.CharField(null=True, max_length=64)),
                ("checked_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ("attempts", fields.IntField(default=0)),
                ("last_error", fields.CharField(null=True, max_length=200)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={
                "table": "tax_vat_id_check",
                "app": "models",
                "pk_attr": "id",
                "table_description": 'One VAT ID (compact, with its prefix: "DE136695976") and what VIES said about it.',
            },
            bases=["Model"],
        ),
    ]
