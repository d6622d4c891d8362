"""Stripe's invoices, credit notes and refunds stored from their events (shapes as the fake
Stripe sends them), on both databases: idempotent, never moving back, refunds and credit
notes counted once, and kept when the account goes."""

from __future__ import annotations

from typing import Any

import pytest

from agency.modules.invoices import api
from agency.modules.invoices.models import Invoice, Refund
from agency.modules.invoices.service import user_data
from tests.invoices import stripe_objects as so

pytestmark = pytest.mark.db


async def only() -> Invoice:
    rows = await Invoice.filter(kind="invoice")
    assert len(rows) == 1
    return rows[0]


async def test_a_german_consumer_invoice_is_stored_with_its_tax(orm: str) -> None:
    invoice = so.invoice(amounts=(2900,), status="open", paid=None)
    await api.record_invoice(invoice, user_id=7, buyer_type="consumer", order_number="AG-000001")
    row = await only()
    assert (row.number, row.status, row.user_id, row.order_number) == (
        invoice["number"],
        "open",
        7,
        "AG-000001",
    )
    assert (row.net, row.vat, row.gross, row.currency, row.country) == (
        2437,
        463,
        2900,
        "eur",
        "DE",
    )
    assert row.tax_lines == [
        {
            "rate": 1900,
            "net": 2437,
            "vat": 463,
            "taxability_reason": "standard_rated",
            "kind": "standard",
        }
    ]
    assert row.buyer_name == "Ada Lovelace" and row.buyer_address["city"] == "Berlin"
    assert row.hosted_url and row.pdf_url and row.paid_at is None
    assert row.lines[0]["amount"] == 2437 and row.lines[0]["rate"] == 1900
    assert not row.reverse_charge and not row.small_business


async def test_recording_is_idempotent_and_never_moves_back(orm: str) -> None:
    finalized = so.invoice(status="open", paid=None)
    paid = {
        **finalized,
        "status": "paid",
        "status_transitions": {
            **finalized["status_transitions"],
            "paid_at": so.ts("2026-11-03T10:02"),
        },
    }
    for event in (finalized, paid, finalized, paid):  # duplicates, and an old event last
        await api.record_invoice(event, user_id=7, buyer_type=None, order_number=None)
    row = await only()
    assert row.status == "paid"
    assert row.paid_at is not None and row.paid_at.isoformat().startswith("2026-11-03T10:02")
    assert await Invoice.all().count() == 1


async def test_a_draft_is_not_an_invoice_yet(orm: str) -> None:
    draft = {**so.invoice(status="draft", paid=None), "number": None}
    await api.record_invoice(draft, user_id=1, buyer_type=None, order_number=None)
    assert await Invoice.all().count() == 0


async def test_reverse_charge_for_an_eu_business_keeps_both_sides(orm: str) -> None:
    invoice = so.invoice(
        amounts=(49000,),
        rate=0,
        country="FR",
        reason="reverse_charge",
        inclusive=False,
        vat_id="FR40303265045",
        name="Société Test SARL",
        exempt="reverse",
    )
    await api.record_invoice(invoice, user_id=3, buyer_type=None, order_number=None)
    row = await only()
    assert row.reverse_charge and row.buyer_type == "business"
    assert row.buyer_vat_id == "FR40303265045" and row.country == "FR"
    assert (row.net, row.vat, row.gross) == (49000, 0, 49000)
    assert [line["kind"] for line in row.tax_lines] == ["reverse_charge"]


async def test_rates_come_from_the_amounts_snapped_to_a_standard_rate(orm: str) -> None:
    # A French consumer charged German VAT (no One-Stop-Shop): 19 %, not France's 20 %.
    invoice = so.invoice(amounts=(1, 99, 2900), rate=1900, country="FR")
    await api.record_invoice(invoice, user_id=3, buyer_type="consumer", order_number=None)
    row = await only()
    assert [line["rate"] for line in row.tax_lines] == [1900]
    assert {line["rate"] for line in row.lines if line["vat"]} == {1900}
    # Finland's 25.5 %, exclusive prices.
    fi = so.invoice(amounts=(10000,), rate=2550, country="FI", inclusive=False)
    await api.record_invoice(fi, user_id=3, buyer_type="consumer", order_number=None)
    row = await Invoice.get(stripe_invoice_id=fi["id"])
    assert row.tax_lines[0]["rate"] == 2550 and (row.net, row.vat, row.gross) == (
        10000,
        2550,
        12550,
    )
    # A rate the caller fetched (GET /v1/tax_rates/{id}) wins.
    odd = so.invoice(amounts=(1000,), rate=700, country="DE")
    rate_id = odd["total_taxes"][0]["tax_rate_details"]["tax_rate"]
    await api.record_invoice(
        odd, user_id=3, buyer_type=None, order_number=None, tax_rates={rate_id: 700}
    )
    assert (await Invoice.get(stripe_invoice_id=odd["id"])).tax_lines[0]["rate"] == 700


async def test_no_tax_calculated_is_one_zero_line_and_small_business_says_so(orm: str) -> None:
    plain = so.invoice(amounts=(2900,), rate=None)
    await api.record_invoice(
        plain, user_id=1, buyer_type=None, order_number=None, small_business=True
    )
    row = await only()
    assert row.small_business and (row.net, row.vat, row.gross) == (2900, 0, 2900)
    assert row.tax_lines == [
        {"rate": 0, "net": 2900, "vat": 0, "taxability_reason": None, "kind": "small_business"}
    ]
    us = so.invoice(amounts=(5000,), rate=0, reason="not_collecting", country="US")
    await api.record_invoice(us, user_id=1, buyer_type=None, order_number=None)
    assert (await Invoice.get(stripe_invoice_id=us["id"])).tax_lines[0]["kind"] == "outside_eu"


async def test_a_refund_marks_the_invoice_and_is_stored_once(orm: str) -> None:
    invoice = so.invoice(amounts=(2900,), payment_intent="pi_1")
    await api.record_invoice(invoice, user_id=5, buyer_type=None, order_number=None)
    partial = so.charge("pi_1", 2900, [("re_1", 1000, "2026-11-10")])
    await api.record_refund(partial, user_id=None)
    await api.record_refund(partial, user_id=None)
    row = await only()
    assert row.amount_refunded == 1000
    listed = (await api.invoices_for_user(5)).invoices
    assert [(i.status, i.refunded) for i in listed] == [("partially_refunded", 1000)]
    full = so.charge("pi_1", 2900, [("re_1", 1000, "2026-11-10"), ("re_2", 1900, "2026-11-11")])
    full["id"] = partial["id"]
    await api.record_refund(full, user_id=None)
    assert await Refund.all().count() == 2
    assert all(r.user_id == 5 for r in await Refund.all())
    assert (await api.invoices_for_user(5)).invoices[0].status == "refunded"


async def test_a_credit_note_is_its_own_row_and_counts_once_with_its_refund(orm: str) -> None:
    invoice = so.invoice(amounts=(2900,), payment_intent="pi_2", vat_id="DE136695976")
    # The credit note arrives before its invoice, the refund after both.
    note = so.credit_note(invoice, refund="re_9")
    await api.record_credit_note(note, user_id=None)
    await api.record_invoice(invoice, user_id=8, buyer_type="business", order_number="AG-000008")
    await api.record_refund(so.charge("pi_2", 2900, [("re_9", 2900, "2026-11-20")]), user_id=None)
    await api.record_credit_note(note, user_id=None)
    stored = await Invoice.get(stripe_invoice_id=note["id"])
    assert stored.kind == "credit_note" and stored.country == "DE" and stored.user_id == 8
    assert (stored.net, stored.vat, stored.gross) == (2437, 463, 2900)
    assert (await Refund.get(stripe_refund_id="re_9")).credit_note_stripe_id == note["id"]
    listed = (await api.invoices_for_user(8)).invoices
    assert [(i.kind, i.status) for i in listed] == [
        ("credit_note", "issued"),
        ("invoice", "refunded"),
    ]
    assert listed[0].corrects == invoice["number"] and listed[1].refunded == 2900
    assert listed[1].e_invoice_url == f"/api/invoices/{listed[1].id}/e-invoice"
    voided = {**note, "status": "void", "voided_at": so.ts("2026-11-21")}
    await api.record_credit_note(voided, user_id=None)
    await api.record_credit_note(note, user_id=None)  # an older event: still void
    assert (await Invoice.get(stripe_invoice_id=note["id"])).status == "void"


async def test_a_deleted_account_keeps_its_invoices_without_the_link(orm: str) -> None:
    invoice = so.invoice(payment_intent="pi_3")
    await api.record_invoice(invoice, user_id=11, buyer_type=None, order_number=None)
    await api.record_refund(so.charge("pi_3", 2900, [("re_3", 100, "2026-11-05")]), user_id=11)
    exported: Any = await user_data.export_user(11)
    assert [e["number"] for e in exported] == [invoice["number"]]
    await user_data.erase_user(11)
    row = await only()
    assert row.user_id is None and row.buyer_email is None
    assert row.buyer_name == "Ada Lovelace" and row.buyer_address and row.number  # §14(4) UStG
    assert (await Refund.get(stripe_refund_id="re_3")).user_id is None


async def test_unexpected_shapes_do_not_break_recording(orm: str) -> None:
    bare = {
        "id": "in_bare",
        "number": "X-1",
        "status": "paid",
        "total": 100,
        "total_taxes": [None, {"amount": "x"}],
        "lines": None,
        "customer_tax_ids": "?",
        "customer_address": 5,
        "status_transitions": None,
    }
    await api.record_invoice(bare, user_id=None, buyer_type="weird", order_number=None)
    row = await only()
    assert (row.gross, row.buyer_type, row.currency) == (100, "consumer", "eur")
    with pytest.raises(ValueError):
        await api.record_invoice({}, user_id=None, buyer_type=None, order_number=None)
    await api.record_refund({"id": "ch_x", "amount_refunded": 50}, user_id=None)
    assert (await Refund.get(stripe_refund_id="charge:ch_x")).amount == 50
