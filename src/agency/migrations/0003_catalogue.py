import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0002_accounts_mail_ratelimits")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Family",
            fields=[
                (
                    "key",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40),
                ),
                ("title", fields.CharField(max_length=200)),
                ("description", fields.TextField(unique=False)),
                ("cta", fields.CharField(max_length=100)),
                ("show_domain", fields.BooleanField(default=False)),
                (
                    "bullets",
                    fields.JSONField(
                        default=list,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("default_plan", fields.CharField(max_length=64)),
                ("sort_order", fields.IntField(default=0)),
            ],
            options={"table": "catalogue_family", "app": "models", "pk_attr": "key"},
            bases=["Model"],
        ),
        ops.CreateModel(
            name="Plan",
            fields=[
                (
                    "key",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64),
                ),
                ("family", fields.CharField(db_index=True, max_length=40)),
                ("name", fields.CharField(max_length=100)),
                ("description", fields.TextField(unique=False)),
                ("price", fields.IntField()),
                ("currency", fields.CharField(default="EUR", max_length=3)),
                ("original_price", fields.IntField(null=True)),
                ("save_percent", fields.IntField(null=True)),
                ("mode", fields.CharField(max_length=16)),
                ("interval", fields.CharField(null=True, max_length=16)),
                ("badge", fields.CharField(null=True, max_length=16)),
                (
                    "features",
                    fields.JSONField(
                        default=list,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("delivery", fields.CharField(null=True, max_length=50)),
                ("guarantee", fields.CharField(null=True, max_length=100)),
                ("checkout", fields.BooleanField(default=True)),
                ("active", fields.BooleanField(default=True)),
                ("sort_order", fields.IntField(default=0)),
                ("stripe_product_id", fields.CharField(null=True, max_length=255)),
                ("stripe_price_id", fields.CharField(null=True, db_index=True, max_length=255)),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={"table": "catalogue_plan", "app": "models", "pk_attr": "key"},
            bases=["Model"],
        ),
    ]
