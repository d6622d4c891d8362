import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.indexes import Index
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0008_job_schedule")]

    initial = False

    operations = [
        ops.CreateModel(
            name="SpeedTest",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("public_id", fields.CharField(unique=True, max_length=32)),
                ("domain", fields.CharField(max_length=261)),
                ("url", fields.CharField(max_length=300)),
                ("strategy", fields.CharField(max_length=16)),
                ("provider", fields.CharField(max_length=16)),
                ("status", fields.CharField(default="queued", db_index=True, max_length=16)),
                ("source", fields.CharField(max_length=64)),
                ("email", fields.CharField(null=True, max_length=254)),
                ("score", fields.IntField(null=True)),
                ("speed_index_ms", fields.IntField(null=True)),
                ("total_blocking_time_ms", fields.IntField(null=True)),
                ("lcp_ms", fields.IntField(null=True)),
                ("layout_shift", fields.FloatField(null=True)),
                ("fcp_ms", fields.IntField(null=True)),
                (
                    "field_data",
                    fields.JSONField(
                        default=list,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                (
                    "opportunities",
                    fields.JSONField(
                        default=list,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("reused_from", fields.IntField(null=True)),
                ("error", fields.TextField(null=True, unique=False)),
                (
                    "created_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True),
                ),
                ("started_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                (
                    "finished_at",
                    fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
                ),
            ],
            options={
                "table": "insights_speed_test",
                "app": "models",
                "indexes": [Index(fields=["domain", "strategy", "finished_at"])],
                "pk_attr": "id",
                "table_description": "One speed test of a domain: a job's visible state and, once done, its result. The rows",
            },
            bases=["Model"],
        ),
    ]
