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
        # The owner's overview counts a period's leads per source from this index alone.
        indexes = (("created_at", "source"),)


class NewsletterConsent(Model):
    """A ticked newsletter box that reached the server: who (the e-mail), where (the form or
    page), which wording they ticked (its version), when, and what Kit made of it. Kept to
    demonstrate the consent (GDPR Art. 7(1)), whatever Kit answered."""

    id = fields.IntField(primary_key=True)
    email = fields.CharField(max_length=320, db_index=True)
    form = fields.CharField(max_length=64)
    wording_version = fields.CharField(max_length=64)
    # subscribed, refused (Kit refused or did not answer) or not_configured (no Kit).
    outcome = fields.CharField(max_length=16)
    created_at = fields.DatetimeField(auto_now_add=True, db_index=True)

    class Meta:
        table = "leads_newsletter_consent"
