"""The customer's invoice list and the admins' list."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from tortoise.expressions import Q

from agency.core.errors import NotFound, ValidationFailed
from agency.core.sql import fits_int_id
from agency.modules.auth import api as auth_api
from agency.modules.invoices.models import CREDIT_NOTE, INVOICE, Invoice
from agency.modules.invoices.schemas import (
    AdminInvoiceList,
    AdminInvoiceOut,
    InvoiceList,
    InvoiceOut,
    TaxLineOut,
)

MONTH = re.compile(r"^\s*(\d{4})-(\d{2})\s*$")
MSG_MONTH = "Please give a month such as 2026-11."
E_INVOICE_PATH = "/api/invoices/{id}/e-invoice"


def amount_text(cents: int, currency: str = "eur") -> str:
    """An amount as the CLI and the invoice PDF write it: "1,234.50 EUR", "-19.00 EUR"."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100:,}.{abs(cents) % 100:02d} {currency.upper()}"


def status_of(row: Invoice) -> str:
    """A paid invoice paid back shows as refunded / partially_refunded."""
    if row.kind == INVOICE and row.status == "paid" and row.amount_refunded > 0:
        return "refunded" if row.amount_refunded >= row.gross else "partially_refunded"
    return row.status


def has_e_invoice(row: Invoice) -> bool:
    """Business documents that were issued (not void drafts) have an e-invoice."""
    return row.buyer_type == "business" and row.status != "void" and bool(row.number)


def invoice_out(row: Invoice, numbers: dict[str, str]) -> InvoiceOut:
    return InvoiceOut(**_fields(row, numbers))


def _fields(row: Invoice, numbers: dict[str, str]) -> dict[str, object]:
    return {
        "id": row.id,
        "number": row.number or row.stripe_invoice_id,
        "kind": row.kind,
        "status": status_of(row),
        "issued_at": row.issued_at,
        "currency": row.currency,
        "net": row.net,
        "vat": row.vat,
        "gross": row.gross,
        "refunded": row.amount_refunded if row.kind == INVOICE else 0,
        "tax_lines": [
            TaxLineOut(
                rate=int(line.get("rate", 0)),
                net=int(line.get("net", 0)),
                vat=int(line.get("vat", 0)),
                kind=str(line.get("kind", "standard")),
            )
            for line in row.tax_lines
        ],
        "buyer_type": row.buyer_type,
        "country": row.country,
        "reverse_charge": row.reverse_charge,
        "hosted_url": row.hosted_url,
        "pdf_url": row.pdf_url,
        "e_invoice_url": E_INVOICE_PATH.format(id=row.id) if has_e_invoice(row) else None,
        "description": row.description,
        "corrects": numbers.get(row.corrects_stripe_id or ""),
    }


async def _numbers(rows: list[Invoice]) -> dict[str, str]:
    """The numbers of the invoices the credit notes among `rows` correct."""
    wanted = {r.corrects_stripe_id for r in rows if r.kind == CREDIT_NOTE and r.corrects_stripe_id}
    if not wanted:
        return {}
    found = await Invoice.filter(stripe_invoice_id__in=sorted(wanted)).values_list(
        "stripe_invoice_id", "number"
    )
    return {stripe_id: number or stripe_id for stripe_id, number in found}


async def invoices_for_user(user_id: int) -> InvoiceList:
    """The user's invoices and credit notes, newest first."""
    rows = await Invoice.filter(user_id=user_id).order_by("-issued_at", "-id")
    numbers = await _numbers(rows)
    return InvoiceList(invoices=[invoice_out(row, numbers) for row in rows])


async def get_for(invoice_id: int, *, user_id: int, admin: bool) -> Invoice:
    """The invoice, if the user may see it (its owner or an admin); else NotFound."""
    row = await Invoice.get_or_none(id=invoice_id) if fits_int_id(invoice_id) else None
    if row is None or (not admin and row.user_id != user_id):
        raise NotFound("No such invoice.")
    return row


def parse_month(text: str) -> tuple[datetime, datetime] | None:
    """ "2026-11" -> [start, end) of that month (UTC); "" -> None; else ValidationFailed."""
    if not text.strip():
        return None
    found = MONTH.match(text)
    month = int(found.group(2)) if found else 0
    if not found or not 1 <= month <= 12 or not 1970 <= int(found.group(1)) <= 9998:
        raise ValidationFailed(MSG_MONTH, fields={"month": MSG_MONTH})
    year = int(found.group(1))
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=UTC)
    return start, end


async def admin_invoices(customer: str = "", month: str = "") -> AdminInvoiceList:
    """Every invoice and credit note, newest first; `customer`: an e-mail (or part of one, or
    a name), a user id or a Stripe customer id; `month`: YYYY-MM (issued then)."""
    query = Invoice.all()
    bounds = parse_month(month)
    if bounds:
        query = query.filter(issued_at__gte=bounds[0], issued_at__lt=bounds[1])
    customer = customer.strip()
    if customer:
        condition = Q(stripe_customer_id=customer) | Q(buyer_email__iexact=customer)
        if customer.isdigit() and len(customer) < 10:
            condition |= Q(user_id=int(customer))
        elif not customer.startswith("cus_"):
            user_ids = await auth_api.find_user_ids(customer)
            if user_ids:
                condition |= Q(user_id__in=user_ids)
        query = query.filter(condition)
    rows = await query.order_by("-issued_at", "-id").limit(5000)
    numbers = await _numbers(rows)
    accounts = await auth_api.accounts_by_ids([r.user_id for r in rows if r.user_id])
    return AdminInvoiceList(
        invoices=[
            AdminInvoiceOut(
                **_fields(row, numbers),
                user_id=row.user_id,
                email=accounts[row.user_id].email if row.user_id in accounts else None,
                buyer_name=row.buyer_name,
                buyer_vat_id=row.buyer_vat_id,
                stripe_invoice_id=row.stripe_invoice_id,
                stripe_customer_id=row.stripe_customer_id,
                order_number=row.order_number,
                paid_at=row.paid_at,
            )
            for row in rows
        ]
    )
