import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0029_billing_mrr")]

    initial = False

    operations = [
        ops.CreateModel(
            name="OverviewSnapshot",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("day", fields.DateField(unique=True)),
                (
                    "figures",
                    fields.JSONField(
                        default=dict,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("taken_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={
                "table": "overview_snapshot",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A day's figures (`SnapshotFigures`), so that their history never depends on Stripe: the",
            },
            bases=["Model"],
        ),
    ]
