"""Invoices, credit notes and refunds as Stripe's events told us: what an accountant needs,
frozen at finalization as Stripe freezes them. Kept 10 years (§147 AO, §14b UStG); never
deleted with an account (see `service.user_data`)."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model

INVOICE, CREDIT_NOTE = "invoice", "credit_note"


class Invoice(Model):
    """An invoice (`kind` invoice) or a credit note (`kind` credit_note, `corrects` the stored
    invoice it corrects, its amounts positive: what it takes back). Amounts are integer cents of
    `currency`. `tax_lines`: one entry per rate, {"rate": basis points, "net", "vat",
    "taxability_reason", "kind"}."""

    id = fields.IntField(primary_key=True)
    stripe_invoice_id = fields.CharField(max_length=255, unique=True)  # in_... or cn_...
    number = fields.CharField(max_length=64, null=True, db_index=True)
    kind = fields.CharField(max_length=16, default=INVOICE)
    status = fields.CharField(max_length=32)
    # The corrected invoice of a credit note: its Stripe id, and its row once stored.
    corrects_stripe_id = fields.CharField(max_length=255, null=True, db_index=True)
    user_id = fields.IntField(null=True, db_index=True)  # None: unknown or account deleted
    stripe_customer_id = fields.CharField(max_length=255, null=True, db_index=True)
    order_number = fields.CharField(max_length=32, null=True)
    payment_intent_id = fields.CharField(max_length=255, null=True, db_index=True)
    subscription_id = fields.CharField(max_length=255, null=True)
    billing_reason = fields.CharField(max_length=64, null=True)
    issued_at = fields.DatetimeField()
    period_start = fields.DatetimeField(null=True)
    period_end = fields.DatetimeField(null=True)
    paid_at = fields.DatetimeField(null=True)
    voided_at = fields.DatetimeField(null=True)
    currency = fields.CharField(max_length=3)
    net = fields.BigIntField(default=0)
    vat = fields.BigIntField(default=0)
    gross = fields.BigIntField(default=0)
    amount_refunded = fields.BigIntField(default=0)
    country = fields.CharField(max_length=2, null=True)
    buyer_type = fields.CharField(max_length=16, default="consumer")
    buyer_name = fields.CharField(max_length=300, null=True)
    buyer_email = fields.CharField(max_length=320, null=True)
    # Stripe's address shape: line1, line2, postal_code, city, state, country.
    buyer_address: dict[str, Any] | None = fields.JSONField(null=True)
    buyer_vat_id = fields.CharField(max_length=32, null=True)
    seller_name = fields.CharField(max_length=300, null=True)
    seller_country = fields.CharField(max_length=2, null=True)
    seller_vat_id = fields.CharField(max_length=32, null=True)
    reverse_charge = fields.BooleanField(default=False)
    small_business = fields.BooleanField(default=False)
    hosted_url = fields.CharField(max_length=2000, null=True)
    pdf_url = fields.CharField(max_length=2000, null=True)
    description = fields.TextField(default="")
    footer = fields.TextField(null=True)
    tax_lines: list[dict[str, Any]] = fields.JSONField(default=list)
    # The invoice's lines: {"description", "quantity", "amount" (net), "vat", "rate",
    # "period_start", "period_end"} (the e-invoice's line items).
    lines: list[dict[str, Any]] = fields.JSONField(default=list)
    # A credit note's refunds (their Stripe ids): those are then counted through the note.
    refund_ids: list[str] = fields.JSONField(default=list)
    stripe_created = fields.BigIntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "invoices_invoice"


class Refund(Model):
    """A refund of a charge (charge.refunded), linked to the invoice it pays back when known.
    `credit_note_stripe_id` is set when a credit note covers it (the note carries the VAT)."""

    id = fields.IntField(primary_key=True)
    stripe_refund_id = fields.CharField(max_length=255, unique=True)
    stripe_charge_id = fields.CharField(max_length=255, db_index=True)
    payment_intent_id = fields.CharField(max_length=255, null=True, db_index=True)
    stripe_invoice_id = fields.CharField(max_length=255, null=True, db_index=True)
    credit_note_stripe_id = fields.CharField(max_length=255, null=True)
    user_id = fields.IntField(null=True, db_index=True)
    amount = fields.BigIntField()
    currency = fields.CharField(max_length=3)
    status = fields.CharField(max_length=32, default="succeeded")
    refunded_at = fields.DatetimeField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "invoices_refund"
