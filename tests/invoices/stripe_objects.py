"""Stripe-shaped invoices, credit notes and charges as the fake Stripe (tests/fakes/
stripe_server.py) makes them (API 2026-10-28.endive): `total_taxes[]` with
`tax_rate_details.tax_rate` an id only, lines with `taxes[]`, `status_transitions`."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

IDS = itertools.count(1)


def ts(text: str) -> int:
    """ "2026-11-03" or "2026-11-03T10:00" as a Stripe timestamp."""
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


def _div_half_up(a: int, b: int) -> int:
    return (2 * a + b) // (2 * b)


def tax_of(amount: int, rate: int, *, inclusive: bool, reason: str, country: str) -> dict[str, Any]:
    if inclusive:
        vat = _div_half_up(amount * rate, 10000 + rate)
        taxable = amount - vat
    else:
        vat = _div_half_up(amount * rate, 10000)
        taxable = amount
    return {
        "amount": vat,
        "tax_behavior": "inclusive" if inclusive else "exclusive",
        "tax_rate_details": {"tax_rate": f"txr_{country}_{rate}_{int(inclusive)}"},
        "taxability_reason": reason,
        "taxable_amount": taxable,
        "type": "tax_rate_details",
    }


def invoice(
    *,
    amounts: tuple[int, ...] = (2900,),
    rate: int | None = 1900,
    country: str = "DE",
    inclusive: bool = True,
    reason: str = "standard_rated",
    status: str = "paid",
    finalized: str = "2026-11-03T10:00",
    paid: str | None = "2026-11-03T10:01",
    vat_id: str | None = None,
    name: str = "Ada Lovelace",
    email: str = "ada@example.com",
    customer: str = "cus_test1",
    stripe_id: str | None = None,
    number: str | None = None,
    exempt: str = "none",
    payment_intent: str | None = None,
    description: str = "Website Starter",
) -> dict[str, Any]:
    """A finalized (or paid) invoice of one customer: one line per amount (the price: gross
    when `inclusive`), taxed at `rate` for `reason` (None: no tax calculated)."""
    n = next(IDS)
    in_id = stripe_id or f"in_test{n:06d}"
    lines = []
    for amount in amounts:
        taxes = (
            [tax_of(amount, rate, inclusive=inclusive, reason=reason, country=country)]
            if rate is not None
            else []
        )
        lines.append(
            {
                "id": f"il_{n}_{len(lines)}",
                "object": "line_item",
                "amount": amount,
                "currency": "eur",
                "description": description,
                "period": {"start": ts(finalized), "end": ts(finalized)},
                "pricing": {"price_details": {"price": "price_x", "product": "prod_x"}},
                "quantity": 1,
                "taxes": taxes,
            }
        )
    taxes = [t for line in lines for t in line["taxes"]]
    summed: dict[str, dict[str, Any]] = {}
    for tax in taxes:
        key = tax["tax_rate_details"]["tax_rate"]
        if key in summed:
            summed[key]["amount"] += tax["amount"]
            summed[key]["taxable_amount"] += tax["taxable_amount"]
        else:
            summed[key] = dict(tax)
    subtotal = sum(amounts)
    incl = sum(t["amount"] for t in taxes if t["tax_behavior"] == "inclusive")
    excl = sum(t["amount"] for t in taxes if t["tax_behavior"] == "exclusive")
    total = subtotal + excl
    return {
        "id": in_id,
        "object": "invoice",
        "account_country": "DE",
        "account_name": "Fake Stripe",
        "account_tax_ids": None,
        "amount_paid": total if status == "paid" else 0,
        "amount_remaining": 0 if status == "paid" else total,
        "billing_reason": "manual",
        "created": ts(finalized) - 5,
        "currency": "eur",
        "customer": customer,
        "customer_address": {
            "city": "Berlin" if country == "DE" else "Paris",
            "country": country,
            "line1": "Unter den Linden 1",
            "line2": None,
            "postal_code": "10117",
            "state": None,
        },
        "customer_email": email,
        "customer_name": name,
        "customer_tax_exempt": exempt,
        "customer_tax_ids": [{"type": "eu_vat", "value": vat_id}] if vat_id else [],
        "description": None,
        "effective_at": ts(finalized),
        "footer": None,
        "hosted_invoice_url": f"http://127.0.0.1:1/invoices/{in_id}",
        "invoice_pdf": f"http://127.0.0.1:1/invoices/{in_id}/pdf",
        "lines": {"object": "list", "data": lines, "has_more": False, "total_count": len(lines)},
        "number": number or f"AGCY1234-{n:04d}",
        "parent": None,
        "payments": (
            {
                "object": "list",
                "data": [{"payment": {"payment_intent": payment_intent, "type": "payment_intent"}}],
            }
            if payment_intent
            else None
        ),
        "period_end": ts(finalized),
        "period_start": ts(finalized),
        "post_payment_credit_notes_amount": 0,
        "status": status,
        "status_transitions": {
            "finalized_at": ts(finalized),
            "marked_uncollectible_at": None,
            "paid_at": ts(paid) if paid and status == "paid" else None,
            "voided_at": None,
        },
        "subtotal": subtotal,
        "subtotal_excluding_tax": subtotal - incl,
        "total": total,
        "total_excluding_tax": total - incl - excl,
        "total_taxes": list(summed.values()),
    }


def credit_note(
    of: dict[str, Any],
    *,
    amount: int | None = None,
    when: str = "2026-11-20T09:00",
    refund: str | None = None,
    status: str = "issued",
) -> dict[str, Any]:
    """A credit note taking back `amount` (gross; default all) of invoice `of`, its tax in
    proportion at the invoice's (single) rate."""
    n = next(IDS)
    total = of["total"] if amount is None else amount
    taxes = []
    for tax in of["total_taxes"]:
        gross = tax["taxable_amount"] + tax["amount"]
        vat = _div_half_up(total * tax["amount"], gross) if gross else 0
        taxes.append({**tax, "amount": vat, "taxable_amount": total - vat})
    vat = sum(t["amount"] for t in taxes)
    return {
        "id": f"cn_test{n:06d}",
        "object": "credit_note",
        "amount": total,
        "created": ts(when),
        "currency": "eur",
        "customer": of["customer"],
        "effective_at": ts(when),
        "invoice": of["id"],
        "memo": None,
        "number": f"{of['number']}-CN-01",
        "pdf": f"http://127.0.0.1:1/credit_notes/cn_{n}/pdf",
        "reason": "order_change",
        "refunds": [{"amount_refunded": total, "refund": refund, "type": "refund"}]
        if refund
        else [],
        "status": status,
        "subtotal": total,
        "subtotal_excluding_tax": total - vat,
        "total": total,
        "total_excluding_tax": total - vat,
        "total_taxes": taxes,
        "type": "post_payment",
        "voided_at": None,
    }


def charge(payment_intent: str, amount: int, refunds: list[tuple[str, int, str]]) -> dict[str, Any]:
    """A charge of `amount` with refunds (id, amount, date)."""
    n = next(IDS)
    return {
        "id": f"ch_test{n:06d}",
        "object": "charge",
        "amount": amount,
        "amount_refunded": sum(r[1] for r in refunds),
        "currency": "eur",
        "customer": "cus_test1",
        "payment_intent": payment_intent,
        "refunded": sum(r[1] for r in refunds) >= amount,
        "refunds": {
            "object": "list",
            "data": [
                {
                    "id": rid,
                    "object": "refund",
                    "amount": ramount,
                    "created": ts(rwhen),
                    "currency": "eur",
                    "status": "succeeded",
                    "charge": f"ch_test{n:06d}",
                }
                for rid, ramount, rwhen in refunds
            ],
        },
    }
