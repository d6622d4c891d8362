import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0009_speed_tests")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Analysis",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("public_id", fields.CharField(unique=True, max_length=32)),
                ("variant", fields.CharField(max_length=16)),
                ("source", fields.CharField(max_length=64)),
                ("domain", fields.CharField(max_length=253)),
                ("url", fields.CharField(max_length=300)),
                ("email", fields.CharField(max_length=254)),
                ("status", fields.CharField(default="queued", db_index=True, max_length=16)),
                (
                    "facts",
                    fields.JSONField(
                        null=True,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                (
                    "report",
                    fields.JSONField(
                        null=True,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("generated_by", fields.CharField(null=True, max_length=16)),
                ("generated_note", fields.TextField(null=True, unique=False)),
                ("speed_test_public_id", fields.CharField(null=True, max_length=32)),
                ("error", fields.TextField(null=True, unique=False)),
                ("report_sent", fields.BooleanField(default=False)),
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
                "table": "insights_analysis",
                "app": "models",
                "pk_attr": "id",
                "table_description": "One AI website analysis (issue 15): the page fetched by our server, the facts found on",
            },
            bases=["Model"],
        ),
    ]
