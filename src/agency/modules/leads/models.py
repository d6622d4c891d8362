"""Leads from the public forms (the table keeps the name it had in insights)."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class Lead(Model):
    id = fields.IntField(primary_key=True)
    source = fields.CharField(max_length=64, db_index=True)
    email = fields.CharField(max_length=320)
    name = fields.CharField(max_length=200, null=True)
    domain = fields.CharField(max_length=253, null=True)
    message = fields.TextField(null=True)
    page = fields.CharField(max_length=200, null=True)
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)

    class Meta:
        table = "insights_lead"
