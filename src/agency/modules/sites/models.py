"""Customer websites."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

LIVE, BUILDING = "live", "building"


class Website(Model):
    id = fields.IntField(primary_key=True)
    # The owner's user id (the auth module's); read through auth's api, not a foreign key.
    user_id = fields.IntField(db_index=True)
    domain = fields.CharField(max_length=253)
    page_speed = fields.IntField(null=True)
    status = fields.CharField(max_length=16, default=BUILDING)
    created_at = fields.DatetimeField(auto_now_add=True)
    deleted_at = fields.DatetimeField(null=True)

    class Meta:
        table = "sites_website"
