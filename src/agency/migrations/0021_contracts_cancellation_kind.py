from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0020_contracts")]

    initial = False

    operations = [
        ops.AlterModelOptions(
            name="Cancellation",
            options={
                "table": "contracts_cancellation",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A subscription cancelled through the cancel page: an ordinary cancellation is set to end",
            },
        ),
        ops.AddField(
            model_name="Cancellation",
            name="kind",
            field=fields.CharField(default="ordinary", max_length=16),
        ),
        ops.AddField(
            model_name="Cancellation",
            name="reason",
            field=fields.TextField(null=True, unique=False),
        ),
    ]
