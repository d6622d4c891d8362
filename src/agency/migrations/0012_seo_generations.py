import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0011_blog_articles")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Generation",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("public_id", fields.CharField(unique=True, max_length=32)),
                ("kind", fields.CharField(max_length=16)),
                ("status", fields.CharField(default="queued", db_index=True, max_length=16)),
                ("topic", fields.CharField(null=True, max_length=200)),
                ("title", fields.CharField(null=True, max_length=200)),
                (
                    "request",
                    fields.JSONField(
                        default=dict,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                (
                    "ideas",
                    fields.JSONField(
                        null=True,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("article_id", fields.IntField(null=True)),
                ("model", fields.CharField(null=True, max_length=100)),
                ("error", fields.TextField(null=True, unique=False)),
                ("created_by", fields.IntField(null=True, db_index=True)),
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
                "table": "seo_generation",
                "app": "models",
                "pk_attr": "id",
                "table_description": "An AI generation job: three ideas on a topic, or the article of one idea.",
            },
            bases=["Model"],
        ),
    ]
