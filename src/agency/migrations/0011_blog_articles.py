import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0010_analyses")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Article",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("title", fields.CharField(max_length=200)),
                ("slug", fields.CharField(unique=True, max_length=200)),
                ("content", fields.TextField(unique=False)),
                ("meta_description", fields.CharField(default="", max_length=300)),
                (
                    "keywords",
                    fields.JSONField(
                        default=list,
                        encoder=functools.partial(dumps, separators=(",", ":")),
                        decoder=loads,
                    ),
                ),
                ("status", fields.CharField(default="draft", db_index=True, max_length=16)),
                ("created_by", fields.IntField(null=True, db_index=True)),
                (
                    "created_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True),
                ),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
                (
                    "published_at",
                    fields.DatetimeField(
                        null=True, db_index=True, auto_now=False, auto_now_add=False
                    ),
                ),
            ],
            options={
                "table": "seo_articles",
                "app": "models",
                "pk_attr": "id",
                "table_description": "One article (spec §3 seo_articles). `content` is sanitised HTML (on save and on render).",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="SlugRedirect",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("old_slug", fields.CharField(unique=True, max_length=200)),
                (
                    "article",
                    fields.ForeignKeyField(
                        "models.Article",
                        source_field="article_id",
                        db_constraint=True,
                        to_field="id",
                        related_name="redirects",
                        on_delete=OnDelete.CASCADE,
                    ),
                ),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "blog_slug_redirect",
                "app": "models",
                "pk_attr": "id",
                "table_description": "An address a published article had: `/blog/{old_slug}` answers 301 to its current one.",
            },
            bases=["Model"],
        ),
    ]
