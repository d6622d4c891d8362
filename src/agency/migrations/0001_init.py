import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name="Job",
            fields=[
                (
                    "id",
                    fields.BigIntField(
                        generated=True, primary_key=True, unique=True, db_index=True
                    ),
                ),
                ("kind", fields.CharField(db_index=True, max_length=64)),
                (
                    "payload",
                    fields.JSONField(
                        default=dict,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("status", fields.CharField(default="queued", db_index=True, max_length=16)),
                ("attempts", fields.IntField(default=0)),
                ("max_attempts", fields.IntField(default=5)),
                ("run_at", fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
                ("locked_by", fields.CharField(null=True, max_length=128)),
                (
                    "locked_until",
                    fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
                ),
                ("last_error", fields.TextField(null=True, unique=False)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={"table": "job", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
    ]
