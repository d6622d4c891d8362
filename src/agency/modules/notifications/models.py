"""A user's notifications."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

KIND_MAX = 32
TITLE_MAX = 200
BODY_MAX = 2000
LINK_MAX = 500


class Notification(Model):
    id = fields.IntField(primary_key=True)
    # The user's id (the auth module's); read through auth's api, not a foreign key.
    user_id = fields.IntField(db_index=True)
    kind = fields.CharField(max_length=KIND_MAX)  # one of schemas.KINDS
    title = fields.CharField(max_length=TITLE_MAX)
    body = fields.TextField()
    # A path inside the web UI ("/dashboard/support"), or none.
    link = fields.CharField(max_length=LINK_MAX, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    read_at = fields.DatetimeField(null=True)

    class Meta:
        table = "notifications_notification"
