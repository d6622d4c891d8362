from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0007_ratelimit_sliding_log")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Schedule",
            fields=[
                (
                    "name",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64),
                ),
                ("next_run_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
                (
                    "last_run_at",
                    fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
                ),
            ],
            options={
                "table": "job_schedule",
                "app": "models",
                "pk_attr": "name",
                "table_description": "When the next run of a periodic job is due (one row per schedule name).",
            },
            bases=["Model"],
        ),
    ]
