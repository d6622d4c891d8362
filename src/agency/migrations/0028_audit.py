import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0027_order_tax")]

    initial = False

    operations = [
        ops.CreateModel(
            name="AuditEntry",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                (
                    "created_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True),
                ),
                ("actor_id", fields.IntField(null=True, db_index=True)),
                ("actor_email", fields.CharField(null=True, max_length=254)),
                ("action", fields.CharField(db_index=True, max_length=64)),
                ("target_type", fields.CharField(max_length=32)),
                ("target_id", fields.CharField(max_length=64)),
                ("target_label", fields.CharField(default="", max_length=200)),
                (
                    "before",
                    fields.JSONField(
                        null=True,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                (
                    "after",
                    fields.JSONField(
                        null=True,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
            ],
            options={
                "table": "audit_entry",
                "app": "models",
                "pk_attr": "id",
                "table_description": "One admin action: who (a user, or the command line when `actor_id` is None), what",
            },
            bases=["Model"],
        ),
    ]
