"""Stripe's invoices, credit notes and refunds, stored as their events arrive.

Each call is idempotent on the Stripe id: the first event creates the row, later ones (finalized
→ paid → refunded, or void) update it; an event older than what is stored never moves the
status back. Drafts (no number yet) are not stored: an invoice exists for the books once it is
finalized."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from tortoise.transactions import in_transaction

from agency.modules.invoices.models import CREDIT_NOTE, INVOICE, Invoice, Refund
from agency.modules.invoices.service import stripe_shapes as s

log = logging.getLogger(__name__)

# How far along an invoice is: a lower-ranked status never replaces a higher one.
_RANK = {"draft": 0, "open": 1, "uncollectible": 2, "paid": 3, "void": 3}
BUYER_TYPES = ("consumer", "business")


def _buyer_type(given: str | None, vat_id: str | None, reverse_charge: bool) -> str:
    if given in BUYER_TYPES:
        return str(given)
    return "business" if vat_id or reverse_charge else "consumer"


def _description(lines: list[dict[str, Any]], fallback: Any) -> str:
    names = [line["description"] for line in lines if line["description"]]
    return ("; ".join(names) or s.text(fallback) or "")[:2000]


async def record_invoice(
    invoice: Mapping[str, Any],
    *,
    user_id: int | None,
    buyer_type: str | None,
    order_number: str | None,
    small_business: bool = False,
    tax_rates: Mapping[str, int] | None = None,
) -> None:
    """Store (or update) a finalized Stripe invoice. `small_business`: the agency charges no
    VAT under §19 UStG (tax settings' vat_mode); `tax_rates`: basis points by tax rate id, for
    rates the invoice does not carry itself."""
    stripe_id = s.ref(invoice.get("id"))
    if not stripe_id:
        raise ValueError("a Stripe invoice without an id")
    status = (
        str(invoice["status"])[: s.STATUS_MAX] if isinstance(invoice.get("status"), str) else "open"
    )
    number = s.text(invoice.get("number"), 64)
    if status == "draft" or not number:
        return  # not yet an invoice for the books: finalization gives it its number
    rates = dict(tax_rates or {})
    address = s.address(invoice.get("customer_address"))
    vat_id = s.vat_id_of(invoice.get("customer_tax_ids"))
    country = s.country_code((address or {}).get("country")) or (
        s.country_code(vat_id[:2].replace("EL", "GR")) if vat_id else None
    )
    taxes = invoice.get("total_taxes")
    reverse_charge = invoice.get("customer_tax_exempt") == "reverse" or any(
        isinstance(t, dict) and t.get("taxability_reason") == s.REVERSE
        for t in (taxes if isinstance(taxes, list) else [])
    )
    gross = s.cents(invoice.get("total"))
    lines = s.tax_lines(
        taxes,
        net_total=0,  # replaced below once the net is known
        country=country,
        rates=rates,
        small_business=small_business,
        reverse_charge=reverse_charge,
    )
    vat = sum(line.vat for line in lines)
    excluding = invoice.get("total_excluding_tax")
    net = excluding if isinstance(excluding, int) else gross - vat
    lines = s.tax_lines(
        taxes,
        net_total=net,
        country=country,
        rates=rates,
        small_business=small_business,
        reverse_charge=reverse_charge,
    )
    item_lines = s.invoice_lines(invoice, country, rates)
    transitions = s.obj(invoice.get("status_transitions"))
    issued_at = (
        s.when(transitions.get("finalized_at"))
        or s.when(invoice.get("effective_at"))
        or s.when(invoice.get("created"))
        or datetime.now(UTC)
    )
    starts = [line["period_start"] for line in item_lines if line["period_start"]]
    ends = [line["period_end"] for line in item_lines if line["period_end"]]
    parent = s.obj(invoice.get("parent"))
    values: dict[str, Any] = {
        "number": number,
        "kind": INVOICE,
        "stripe_customer_id": s.ref(invoice.get("customer")),
        "subscription_id": s.ref(s.obj(parent.get("subscription_details")).get("subscription")),
        "billing_reason": s.text(invoice.get("billing_reason"), 64),
        "issued_at": issued_at,
        "period_start": s.when(min(starts)) if starts else s.when(invoice.get("period_start")),
        "period_end": s.when(max(ends)) if ends else s.when(invoice.get("period_end")),
        "currency": (s.text(invoice.get("currency"), 3) or "eur").lower(),
        "net": net,
        "vat": vat,
        "gross": gross,
        "country": country,
        "buyer_type": _buyer_type(buyer_type, vat_id, reverse_charge),
        "buyer_name": s.text(invoice.get("customer_name"), 300),
        "buyer_email": s.text(invoice.get("customer_email"), 320),
        "buyer_address": address,
        "buyer_vat_id": vat_id,
        "seller_name": s.text(invoice.get("account_name"), 300),
        "seller_country": s.country_code(invoice.get("account_country")),
        "seller_vat_id": s.seller_vat_id_of(invoice.get("account_tax_ids")),
        "reverse_charge": reverse_charge,
        "small_business": small_business and vat == 0,
        "hosted_url": s.text(invoice.get("hosted_invoice_url")),
        "pdf_url": s.text(invoice.get("invoice_pdf")),
        "description": _description(item_lines, invoice.get("description")),
        "footer": s.text(invoice.get("footer"), 5000),
        "tax_lines": [line.as_dict() for line in lines],
        "lines": item_lines,
        "stripe_created": s.cents(invoice.get("created")),
    }
    paid_at = s.when(transitions.get("paid_at"))
    voided_at = s.when(transitions.get("voided_at"))
    payment_intent = s.payment_intent_of(invoice)
    async with in_transaction():
        row = await Invoice.get_or_none(stripe_invoice_id=stripe_id)
        if row is None:
            row = Invoice(stripe_invoice_id=stripe_id, status=status, **values)
        else:
            row.update_from_dict(values)
            if _RANK.get(status, 1) >= _RANK.get(row.status, 1):
                row.status = status
        if user_id is not None:
            row.user_id = user_id
        if order_number:
            row.order_number = order_number[:32]
        if payment_intent:
            row.payment_intent_id = payment_intent
        row.paid_at = row.paid_at or paid_at or (issued_at if row.status == "paid" else None)
        row.voided_at = row.voided_at or voided_at
        await row.save()
    await _settle(row)
    await _fill_credit_notes(row)


async def record_credit_note(credit_note: Mapping[str, Any], *, user_id: int | None) -> None:
    """Store (or update) a Stripe credit note (credit_note.created/updated/voided): a document of
    its own that takes back part or all of an invoice; its refunds are then the credit note's."""
    stripe_id = s.ref(credit_note.get("id"))
    if not stripe_id:
        raise ValueError("a Stripe credit note without an id")
    invoice_id = s.ref(credit_note.get("invoice"))
    original = await Invoice.get_or_none(stripe_invoice_id=invoice_id) if invoice_id else None
    status = str(credit_note.get("status") or "issued")[: s.STATUS_MAX]
    country = original.country if original else None
    small_business = original.small_business if original else False
    taxes = credit_note.get("total_taxes")
    reverse_charge = bool(original and original.reverse_charge) or any(
        isinstance(t, dict) and t.get("taxability_reason") == s.REVERSE
        for t in (taxes if isinstance(taxes, list) else [])
    )
    gross = s.cents(credit_note.get("total"))
    vat = (
        sum(s.cents(t.get("amount")) for t in taxes if isinstance(t, dict))
        if isinstance(taxes, list)
        else 0
    )
    excluding = credit_note.get("total_excluding_tax")
    net = excluding if isinstance(excluding, int) else gross - vat
    known = {line["rate"] for line in original.tax_lines} if original else set()
    lines = s.tax_lines(
        taxes,
        net_total=net,
        country=country,
        rates={},
        small_business=small_business,
        reverse_charge=reverse_charge,
    )
    if original and len(known) == 1 and all(line.vat == 0 for line in lines):
        for line in lines:  # a 0 % note of a 0 % invoice: the invoice's kind (reverse charge)
            line.kind = original.tax_lines[0].get("kind", line.kind)
    issued_at = (
        s.when(credit_note.get("effective_at"))
        or s.when(credit_note.get("created"))
        or datetime.now(UTC)
    )
    memo = s.text(credit_note.get("memo"), 500)
    values: dict[str, Any] = {
        "number": s.text(credit_note.get("number"), 64),
        "kind": CREDIT_NOTE,
        "status": status,
        "corrects_stripe_id": invoice_id,
        "stripe_customer_id": s.ref(credit_note.get("customer")),
        "issued_at": issued_at,
        "voided_at": s.when(credit_note.get("voided_at")),
        "currency": (s.text(credit_note.get("currency"), 3) or "eur").lower(),
        "net": net,
        "vat": vat,
        "gross": gross,
        "reverse_charge": reverse_charge,
        "small_business": small_business,
        "pdf_url": s.text(credit_note.get("pdf")),
        "description": memo or (f"Credit note for {original.number}" if original else ""),
        "tax_lines": [line.as_dict() for line in lines],
        "stripe_created": s.cents(credit_note.get("created")),
    }
    if original:
        values.update(_buyer_of(original))
    refund_ids = [
        found
        for entry in credit_note.get("refunds") or []
        if isinstance(entry, dict) and (found := s.ref(entry.get("refund")))
    ]
    async with in_transaction():
        row = await Invoice.get_or_none(stripe_invoice_id=stripe_id)
        if row is None:
            row = Invoice(stripe_invoice_id=stripe_id, **values)
        else:
            if row.status == "void":
                values["status"] = "void"  # a voided note stays void
            row.update_from_dict(values)
        if user_id is not None:
            row.user_id = user_id
        elif original and row.user_id is None:
            row.user_id = original.user_id
        row.refund_ids = refund_ids or row.refund_ids
        await row.save()
        if refund_ids:
            await Refund.filter(stripe_refund_id__in=refund_ids).update(
                credit_note_stripe_id=stripe_id
            )
    if original:
        await _settle(original)


async def record_refund(
    charge: Mapping[str, Any], *, user_id: int | None, invoice_id: str | None = None
) -> None:
    """Store the refunds of a Stripe charge (charge.refunded). The invoice they pay back is
    `invoice_id` when the caller knows it, else the stored invoice of the charge's payment
    intent. Without the refunds list (not expanded) the charge's `amount_refunded` is kept as
    one refund."""
    charge_id = s.ref(charge.get("id"))
    if not charge_id:
        raise ValueError("a Stripe charge without an id")
    payment_intent = s.ref(charge.get("payment_intent"))
    currency = (s.text(charge.get("currency"), 3) or "eur").lower()
    listed = s.obj(charge.get("refunds")).get("data")
    refunds = [r for r in listed if isinstance(r, dict)] if isinstance(listed, list) else []
    entries: list[tuple[str, int, str, datetime]] = []
    for refund in refunds:
        refund_id = s.ref(refund.get("id"))
        if refund_id:
            status = str(refund.get("status") or "succeeded")[: s.STATUS_MAX]
            created = s.when(refund.get("created")) or datetime.now(UTC)
            entries.append((refund_id, s.cents(refund.get("amount")), status, created))
    if not entries and s.cents(charge.get("amount_refunded")) > 0:
        entries.append(
            (
                f"charge:{charge_id}"[: s.ID_MAX],
                s.cents(charge.get("amount_refunded")),
                "succeeded",
                datetime.now(UTC),
            )
        )
    invoice = None
    if invoice_id:
        invoice = await Invoice.get_or_none(stripe_invoice_id=invoice_id)
    elif payment_intent:
        invoice = await Invoice.filter(payment_intent_id=payment_intent, kind=INVOICE).first()
    notes = (
        await Invoice.filter(kind=CREDIT_NOTE, corrects_stripe_id=invoice.stripe_invoice_id)
        if invoice
        else []
    )
    covered = {refund_id: note.stripe_invoice_id for note in notes for refund_id in note.refund_ids}
    async with in_transaction():
        for refund_id, amount, status, created in entries:
            row = await Refund.get_or_none(stripe_refund_id=refund_id)
            values: dict[str, Any] = {
                "stripe_charge_id": charge_id,
                "payment_intent_id": payment_intent,
                "amount": amount,
                "currency": currency,
                "status": status,
            }
            if invoice:
                values["stripe_invoice_id"] = invoice.stripe_invoice_id
            if refund_id in covered:
                values["credit_note_stripe_id"] = covered[refund_id]
            if row is None:
                row = Refund(stripe_refund_id=refund_id, refunded_at=created, **values)
            else:
                row.update_from_dict(values)
            if user_id is not None:
                row.user_id = user_id
            elif invoice and row.user_id is None:
                row.user_id = invoice.user_id
            await row.save()
    if invoice:
        await _settle(invoice)
    elif entries:
        log.info("refund of charge %s: no stored invoice to link it to", charge_id)


def _buyer_of(invoice: Invoice) -> dict[str, Any]:
    return {
        "country": invoice.country,
        "buyer_type": invoice.buyer_type,
        "buyer_name": invoice.buyer_name,
        "buyer_address": invoice.buyer_address,
        "buyer_vat_id": invoice.buyer_vat_id,
        "seller_name": invoice.seller_name,
        "seller_country": invoice.seller_country,
        "seller_vat_id": invoice.seller_vat_id,
        "order_number": invoice.order_number,
        "period_start": invoice.period_start,
        "period_end": invoice.period_end,
    }


async def _settle(invoice: Invoice) -> None:
    """The amount paid back on an invoice: its refunds or its credit notes, whichever is more
    (a refunded credit note is counted once)."""
    refunds = await Refund.filter(
        stripe_invoice_id=invoice.stripe_invoice_id, status__in=("succeeded", "pending")
    )
    notes = await Invoice.filter(
        kind=CREDIT_NOTE, corrects_stripe_id=invoice.stripe_invoice_id
    ).exclude(status="void")
    refunded = min(invoice.gross, max(sum(r.amount for r in refunds), sum(n.gross for n in notes)))
    if refunded != invoice.amount_refunded:
        await Invoice.filter(id=invoice.id).update(amount_refunded=refunded)
        invoice.amount_refunded = refunded


async def _fill_credit_notes(invoice: Invoice) -> None:
    """Credit notes that arrived before their invoice take its buyer and country now."""
    early = await Invoice.filter(
        kind=CREDIT_NOTE, corrects_stripe_id=invoice.stripe_invoice_id, country=None
    )
    for note in early:
        note.update_from_dict(_buyer_of(invoice))
        note.reverse_charge = note.reverse_charge or invoice.reverse_charge
        note.small_business = invoice.small_business
        if note.user_id is None:
            note.user_id = invoice.user_id
        await note.save()
    if early:
        await _settle(invoice)
