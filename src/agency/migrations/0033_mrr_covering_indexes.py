from tortoise import migrations
from tortoise.indexes import Index
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0032_billing_overview_indexes")]

    initial = False

    operations = [
        ops.RemoveIndex(
            model_name="MrrMovement",
            name=None,
            fields=["currency", "occurred_at"],
        ),
        ops.RemoveIndex(
            model_name="MrrMovement",
            name=None,
            fields=["currency", "day"],
        ),
        ops.AddIndex(
            model_name="MrrMovement",
            index=Index(fields=["currency", "occurred_at", "delta"]),
        ),
        ops.AddIndex(
            model_name="MrrMovement",
            index=Index(fields=["currency", "day", "delta"]),
        ),
        ops.AddIndex(
            model_name="MrrMovement",
            index=Index(fields=["currency", "occurred_at", "kind", "delta"]),
        ),
        ops.AddIndex(
            model_name="MrrMovement",
            index=Index(fields=["occurred_at", "active_delta"]),
        ),
    ]
