from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0023_billing_tax")]

    initial = False

    operations = [
        ops.AddField(
            model_name="Order",
            name="invoice_id",
            field=fields.CharField(null=True, db_index=True, max_length=255),
        ),
    ]
