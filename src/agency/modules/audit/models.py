"""The audit log's one table."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class AuditEntry(Model):
    """One admin action: who (a user, or the command line when `actor_id` is None), what
    (`action`, one of `agency.modules.audit.api.ACTIONS`), on what (`target_type`, `target_id`,
    a readable `target_label`) and the values before and after (None: nothing before/after)."""

    id = fields.IntField(primary_key=True)
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)
    actor_id = fields.IntField(null=True, db_index=True)
    actor_email = fields.CharField(max_length=254, null=True)
    action = fields.CharField(max_length=64, db_index=True)
    target_type = fields.CharField(max_length=32)
    target_id = fields.CharField(max_length=64)
    target_label = fields.CharField(max_length=200, default="")
    before: Any = fields.JSONField(null=True)
    after: Any = fields.JSONField(null=True)

    class Meta:
        table = "audit_entry"
