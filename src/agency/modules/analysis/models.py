"""The AI website analyses (the table keeps the name it had in insights)."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class Analysis(Model):
    """One AI website analysis (issue 15): the page fetched by our server, the facts found on
    it, the report written from them (by the AI model or the rules) and the speed test run
    beside it. Derived scores and critical issues are computed when read, not stored."""

    id = fields.IntField(primary_key=True)
    public_id = fields.CharField(max_length=32, unique=True)  # uuid4 hex: unguessable
    variant = fields.CharField(max_length=16)  # general | lead | technical | agency
    source = fields.CharField(max_length=64)  # the page that asked for it
    domain = fields.CharField(max_length=253)  # the host the visitor named
    url = fields.CharField(max_length=300)  # what the fetcher asked for first
    email = fields.CharField(max_length=254)  # where the report goes
    status = fields.CharField(max_length=16, default="queued", db_index=True)
    facts: dict[str, object] | None = fields.JSONField(null=True)  # PageFactsOut
    report: dict[str, object] | None = fields.JSONField(null=True)  # AnalysisReportOut
    generated_by = fields.CharField(max_length=16, null=True)  # ai | rules
    generated_note = fields.TextField(null=True)
    speed_test_public_id = fields.CharField(max_length=32, null=True)
    error = fields.TextField(null=True)  # the message the visitor sees
    report_sent = fields.BooleanField(default=False)
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)
    started_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)

    class Meta:
        table = "insights_analysis"
