"""The speed tests of domains (the table keeps the name it had in insights)."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class SpeedTest(Model):
    """One speed test of a domain: a job's visible state and, once done, its result. The rows
    of a domain are its speed history (the customer dashboard charts them)."""

    id = fields.IntField(primary_key=True)
    public_id = fields.CharField(max_length=32, unique=True)  # uuid4 hex: unguessable
    domain = fields.CharField(max_length=261)  # host (253 at most), with a :port when given
    url = fields.CharField(max_length=300)  # what the provider was asked to test
    strategy = fields.CharField(max_length=16)  # mobile | desktop
    provider = fields.CharField(max_length=16)  # psi | lighthouse
    status = fields.CharField(max_length=16, default="queued", db_index=True)
    source = fields.CharField(max_length=64)  # the page (or module) that asked for it
    email = fields.CharField(max_length=254, null=True)  # where the report goes
    score = fields.IntField(null=True)
    speed_index_ms = fields.IntField(null=True)
    total_blocking_time_ms = fields.IntField(null=True)
    lcp_ms = fields.IntField(null=True)
    layout_shift = fields.FloatField(null=True)  # CLS
    fcp_ms = fields.IntField(null=True)
    field_data: list[dict[str, object]] = fields.JSONField(default=list)
    opportunities: list[dict[str, object]] = fields.JSONField(default=list)
    reused_from = fields.IntField(null=True)  # the test whose result this one answered with
    error = fields.TextField(null=True)  # the message the visitor sees
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)
    started_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)

    class Meta:
        table = "insights_speed_test"
        # The speed history's, and the owner's overview's visitors' tests of a period (a
        # covering index: the count and the e-mail addresses read only it).
        indexes = (("domain", "strategy", "finished_at"), ("source", "created_at", "email"))
