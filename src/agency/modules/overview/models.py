"""The overview's own table: one snapshot of the day's figures per UTC day."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class OverviewSnapshot(Model):
    """A day's figures (`SnapshotFigures`), so that their history never depends on Stripe: the
    hourly job rewrites today's row and yesterday's final one."""

    id = fields.IntField(primary_key=True)
    day = fields.DateField(unique=True)
    figures: dict[str, Any] = fields.JSONField(default=dict)
    taken_at = fields.DatetimeField()

    class Meta:
        table = "overview_snapshot"
