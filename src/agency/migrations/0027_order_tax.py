from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0026_invoices")]

    initial = False

    operations = [
        ops.AddField(
            model_name="Order",
            name="amount_tax",
            field=fields.IntField(null=True),
        ),
        ops.AddField(
            model_name="Order",
            name="vat_kind",
            field=fields.CharField(null=True, max_length=16),
        ),
        ops.AddField(
            model_name="Order",
            name="vat_rate",
            field=fields.IntField(null=True),
        ),
    ]
