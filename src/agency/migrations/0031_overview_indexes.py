from tortoise import migrations
from tortoise.indexes import Index
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0030_overview")]

    initial = False

    operations = [
        ops.AddIndex(
            model_name="Lead",
            index=Index(fields=["created_at", "source"]),
        ),
        ops.AddIndex(
            model_name="SpeedTest",
            index=Index(fields=["source", "created_at", "email"]),
        ),
    ]
