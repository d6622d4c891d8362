"""VAT IDs as VIES last answered about them: the cache of checks and the evidence kept for the
tax office (the consultation number of a qualified check)."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class VatIdCheck(Model):
    """One VAT ID (compact, with its prefix: "DE136695976") and what VIES said about it.

    status: `valid` or `invalid` (VIES's answer, at `checked_at`), or `pending` (VIES has not
    answered yet: its outage, `last_error`; the `tax.vies_recheck` job asks again).
    request_identifier: VIES's consultation number, given when the agency's own VAT ID was sent
    with the check (`vies_requester_vat_id`)."""

    id = fields.IntField(primary_key=True)
    number = fields.CharField(max_length=20, unique=True)
    country = fields.CharField(max_length=2)
    status = fields.CharField(max_length=16, db_index=True)
    name: str | None = fields.TextField(null=True)
    address: str | None = fields.TextField(null=True)
    request_identifier = fields.CharField(max_length=64, null=True)
    checked_at = fields.DatetimeField(null=True)
    attempts = fields.IntField(default=0)
    last_error = fields.CharField(max_length=200, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "tax_vat_id_check"
