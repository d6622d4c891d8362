"""The article manager's AI generations: one row per request for ideas or for an article, the
job's visible state (queued, running, done, failed) and its outcome."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class Generation(Model):
    """An AI generation job: three ideas on a topic, or the article of one idea.

    Kind ideas takes `topic` and gives `ideas`; kind article takes the idea (`title`,
    `request`) and gives the saved draft's `article_id`. `error` is the message the article
    manager shows in its red 'Error' box."""

    id = fields.IntField(primary_key=True)
    public_id = fields.CharField(max_length=32, unique=True)  # uuid4 hex: unguessable
    kind = fields.CharField(max_length=16)  # ideas | article
    status = fields.CharField(max_length=16, default="queued", db_index=True)
    topic = fields.CharField(max_length=200, null=True)
    title = fields.CharField(max_length=200, null=True)
    # kind article: the idea asked for (title, description, keywords, outline)
    request: dict[str, object] = fields.JSONField(default=dict)
    ideas: list[dict[str, object]] | None = fields.JSONField(null=True)
    article_id = fields.IntField(null=True)  # blog's article (not a foreign key across modules)
    model = fields.CharField(max_length=100, null=True)  # the AI model that answered
    error = fields.TextField(null=True)
    created_by = fields.IntField(null=True, db_index=True)  # the admin's user id
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)
    started_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)

    class Meta:
        table = "seo_generation"
