"""Shapes of the invoice lists and the VAT report (design: GET /api/invoices)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, Field

InvoiceStatus = Literal[
    "paid", "open", "void", "uncollectible", "refunded", "partially_refunded", "issued"
]


class TaxLineOut(BaseModel):
    rate: int = Field(description="The VAT rate in basis points (1900 = 19 %).")
    net: int
    vat: int
    kind: str = Field(
        description="standard, reverse_charge, small_business, outside_eu or zero (another "
        "reason for 0 %)."
    )


class InvoiceOut(BaseModel):
    """An invoice or a credit note as the customer sees it. Amounts in cents; a credit note's
    are what it takes back (positive)."""

    id: int
    number: str
    kind: Literal["invoice", "credit_note"]
    status: InvoiceStatus = Field(
        description="Stripe's status, or refunded / partially_refunded for a paid invoice paid "
        "back; a credit note is issued or void."
    )
    issued_at: datetime
    currency: str
    net: int
    vat: int
    gross: int
    refunded: int = Field(description="How much of the invoice was paid back (cents).")
    tax_lines: list[TaxLineOut]
    buyer_type: str
    country: str | None
    reverse_charge: bool
    hosted_url: str | None
    pdf_url: str | None
    e_invoice_url: str | None = Field(
        description="The EN 16931 e-invoice (CII XML) of a business invoice, else null."
    )
    description: str
    corrects: str | None = Field(
        default=None, description="A credit note's: the number of the invoice it corrects."
    )


class InvoiceList(BaseModel):
    invoices: list[InvoiceOut]


class AdminInvoiceOut(InvoiceOut):
    user_id: int | None
    email: str | None = Field(description="The account's e-mail (null: deleted or unknown).")
    buyer_name: str | None
    buyer_vat_id: str | None
    stripe_invoice_id: str
    stripe_customer_id: str | None
    order_number: str | None
    paid_at: datetime | None


class AdminInvoiceList(BaseModel):
    invoices: list[AdminInvoiceOut]


class AdminInvoiceQuery(BaseModel):
    customer: str = Field(
        default="", max_length=320, description="An e-mail, a user id or a Stripe customer id."
    )
    month: str = Field(default="", max_length=7, description="YYYY-MM: invoices issued then.")


class EInvoiceQuery(BaseModel):
    format: Literal["xml", "pdf"] = Field(
        default="xml", description="xml: the CII XML; pdf: the hybrid Factur-X PDF embedding it."
    )


class VatReportQuery(BaseModel):
    quarter: str = Field(default="", max_length=16, description="The quarter: 2026Q4.")
    format: Literal["json", "csv"] = "json"


class VatRow(BaseModel):
    """Sales of one currency, country and rate (and kind) in the quarter, net of credit notes
    and refunds made in it."""

    currency: str
    country: str | None
    rate: int
    kind: str
    net: int
    vat: int
    gross: int
    documents: int


class ReverseChargeRow(BaseModel):
    """One EU business customer's reverse-charge sales (the recapitulative statement)."""

    vat_id: str
    country: str
    name: str | None
    currency: str
    net: int
    documents: int


class OssRow(BaseModel):
    """Consumer sales to one other EU country at one rate (the One-Stop-Shop return)."""

    country: str
    rate: int
    currency: str
    net: int
    vat: int


class Threshold(BaseModel):
    """The EU-wide €10,000 threshold for cross-border consumer sales (electronic services):
    exceeded in the previous or the current calendar year means the consumer's country's VAT."""

    limit: int = Field(description="In cents of EUR: 1000000.")
    year: int
    current_year: int = Field(description="Net cross-border EU consumer sales this year so far.")
    previous_year: int
    exceeded: bool
    line: str


class CurrencyTotal(BaseModel):
    currency: str
    net: int
    vat: int
    gross: int


class VatReport(BaseModel):
    quarter: str
    start: date
    end: date = Field(description="The last day of the quarter.")
    home_country: str
    basis: str = Field(description="What counts in the quarter (paid invoices by payment date).")
    rows: list[VatRow]
    totals: list[CurrencyTotal]
    reverse_charge: list[ReverseChargeRow]
    oss: list[OssRow]
    threshold: Threshold
    unlinked_refunds: int = Field(
        description="Refunds in the quarter that no stored invoice explains (cents; not in rows)."
    )
