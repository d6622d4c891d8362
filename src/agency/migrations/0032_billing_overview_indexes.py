from tortoise import migrations
from tortoise.indexes import Index
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0031_overview_indexes")]

    initial = False

    operations = [
        ops.AddIndex(
            model_name="Order",
            index=Index(fields=["user_id", "status", "order_date"]),
        ),
        ops.AddIndex(
            model_name="RevenueEntry",
            index=Index(fields=["currency", "kind", "occurred_at", "net"]),
        ),
        ops.AddIndex(
            model_name="RevenueEntry",
            index=Index(fields=["currency", "occurred_at", "plan_key", "kind", "net"]),
        ),
    ]
