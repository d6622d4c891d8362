"""Support requests and the agency's replies."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

OPEN, ANSWERED, RESOLVED = "open", "answered", "resolved"
STATUSES = (OPEN, ANSWERED, RESOLVED)

NAME_MAX = 200
SUBJECT_MAX = 200
MESSAGE_MAX = 5000
DOMAIN_MAX = 253


class SupportRequest(Model):
    id = fields.IntField(primary_key=True)
    # The customer's user id (the auth module's), or none for a visitor; not a foreign key.
    user_id = fields.IntField(null=True, db_index=True)
    name = fields.CharField(max_length=NAME_MAX)
    email = fields.CharField(max_length=320)
    subject = fields.CharField(max_length=SUBJECT_MAX)
    message = fields.TextField()
    # One of the customer's own websites (the sites module's id), and its domain at the time.
    website_id = fields.IntField(null=True)
    website_domain = fields.CharField(max_length=DOMAIN_MAX, null=True)
    status = fields.CharField(max_length=16, default=OPEN, db_index=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    replies: fields.ReverseRelation[SupportReply]

    class Meta:
        table = "support_request"


class SupportReply(Model):
    id = fields.IntField(primary_key=True)
    request: fields.ForeignKeyRelation[SupportRequest] = fields.ForeignKeyField(
        "models.SupportRequest", related_name="replies", on_delete=fields.CASCADE
    )
    body = fields.TextField()
    # The admin who wrote it (the auth module's user id).
    admin_id = fields.IntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "support_reply"
