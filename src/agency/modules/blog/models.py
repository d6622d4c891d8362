"""Articles (written by the article manager, shown by the public blog) and the old addresses of
published articles whose slug changed."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class Article(Model):
    """One article (spec §3 seo_articles). `content` is sanitised HTML (on save and on render)."""

    id = fields.IntField(primary_key=True)
    title = fields.CharField(max_length=200)
    slug = fields.CharField(max_length=200, unique=True)
    content = fields.TextField()
    # markdown | html: how the body is written. Markdown keeps its text in `source` and
    # `content` is its rendering (sanitised); html (AI drafts, older articles) has no source.
    body_format = fields.CharField(max_length=16, default="html")
    source = fields.TextField(default="")
    meta_description = fields.CharField(max_length=300, default="")
    keywords: list[str] = fields.JSONField(default=list)
    # draft | published | archived
    status = fields.CharField(max_length=16, default="draft", db_index=True)
    # The writer's user id (auth's; not a foreign key); None once the account is erased.
    created_by = fields.IntField(null=True, db_index=True)
    # en | de: the language the article is written in (German pages say lang="de").
    language = fields.CharField(max_length=8, default="en")
    # speed_test | start: where the call to action at the end of the article leads.
    call_to_action = fields.CharField(max_length=16, default="speed_test")
    # The cover image: files `{cover_key}-{width}.{ext}` in the data directory's blog-covers
    # folder (service/covers.py), the largest `cover_width` x `cover_height` pixels.
    cover_key = fields.CharField(max_length=80, null=True)
    cover_width = fields.IntField(null=True)
    cover_height = fields.IntField(null=True)
    cover_alt = fields.CharField(max_length=200, default="")
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)
    updated_at = fields.DatetimeField(auto_now=True)
    published_at = fields.DatetimeField(null=True, db_index=True)

    class Meta:
        table = "seo_articles"


class SlugRedirect(Model):
    """An address a published article had: `/blog/{old_slug}` answers 301 to its current one."""

    id = fields.IntField(primary_key=True)
    old_slug = fields.CharField(max_length=200, unique=True)
    article: fields.ForeignKeyRelation[Article] = fields.ForeignKeyField(
        "models.Article", related_name="redirects", on_delete=fields.CASCADE
    )
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "blog_slug_redirect"
