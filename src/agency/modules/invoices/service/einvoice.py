"""The EN 16931 e-invoice of a stored invoice or credit note: Factur-X / ZUGFeRD CII XML,
profile EN 16931 ("COMFORT"), built with drafthorse and checked against the profile's XSD as it
is written (drafthorse ships the Factur-X 1.0.07 schemas).

VAT categories (EN 16931, UNTDID 5305): standard rate S; reverse charge AE with the exemption
reason "Reverse charge" (code VATEX-EU-AE) and both VAT IDs (BR-AE-02/03); the small-business
rule (§19 UStG) E with its exemption text; a sale outside the EU O (not subject to VAT: no VAT
IDs, BR-O-02); another 0 % E."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from drafthorse.models.accounting import ApplicableTradeTax
from drafthorse.models.document import Document
from drafthorse.models.note import IncludedNote
from drafthorse.models.party import TaxRegistration
from drafthorse.models.payment import PaymentTerms
from drafthorse.models.tradelines import LineItem

from agency.core.errors import Conflict, NotFound
from agency.modules.invoices.models import CREDIT_NOTE, Invoice

PROFILE = "FACTUR-X_EN16931"
GUIDELINE = "urn:cen.eu:en16931:2017"
REVERSE_CHARGE_NOTE = "Reverse charge / Steuerschuldnerschaft des Leistungsempfängers"
SMALL_BUSINESS_NOTE = (
    "No VAT is charged (small business, § 19 UStG). "
    "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet."
)
OUTSIDE_EU_NOTE = "Not subject to VAT in Germany (place of supply outside the EU)"
MSG_E_INVOICE_FAILED = "This invoice's e-invoice could not be made. Please contact us."
log = logging.getLogger(__name__)
MSG_NO_E_INVOICE = "This invoice has no e-invoice: e-invoices are made for business invoices."


@dataclass(frozen=True)
class Seller:
    """The seller as the legal module's settings give it (the agency)."""

    name: str
    street: str
    postcode: str
    city: str
    country: str  # ISO 3166-1 alpha-2
    vat_id: str
    email: str


@dataclass(frozen=True)
class Category:
    code: str
    reason: str | None
    reason_code: str | None


def category(kind: str, rate: int) -> Category:
    if kind == "reverse_charge":
        return Category("AE", "Reverse charge", "VATEX-EU-AE")
    if rate > 0:
        return Category("S", None, None)
    if kind == "small_business":
        return Category("E", "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.", None)
    if kind == "outside_eu":
        return Category("O", "Not subject to VAT", "VATEX-EU-O")
    return Category("E", "Exempt from VAT", None)


def _money(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def _percent(rate: int) -> Decimal:
    return (Decimal(rate) / 100).quantize(Decimal("0.01"))


def _lines(row: Invoice) -> list[dict[str, Any]]:
    """The e-invoice's lines: the invoice's own when they add up per rate to its tax lines,
    else one line per rate with the invoice's description."""
    own = [line for line in row.lines if isinstance(line, dict) and "amount" in line]
    per_rate: dict[int, int] = {}
    for line in own:
        per_rate[int(line.get("rate", 0))] = per_rate.get(int(line.get("rate", 0)), 0) + int(
            line["amount"]
        )
    wanted = {int(t.get("rate", 0)): int(t.get("net", 0)) for t in row.tax_lines}
    if own and per_rate == wanted and len(wanted) == len(row.tax_lines):
        kinds = {int(t.get("rate", 0)): str(t.get("kind", "standard")) for t in row.tax_lines}
        return [
            {
                "description": line.get("description") or row.description or "Service",
                "quantity": int(line.get("quantity") or 1),
                "net": int(line["amount"]),
                "rate": int(line.get("rate", 0)),
                "kind": kinds[int(line.get("rate", 0))],
            }
            for line in own
        ]
    return [
        {
            "description": row.description
            or ("Credit note" if row.kind == CREDIT_NOTE else "Service"),
            "quantity": 1,
            "net": int(t.get("net", 0)),
            "rate": int(t.get("rate", 0)),
            "kind": str(t.get("kind", "standard")),
        }
        for t in row.tax_lines
    ]


def _address(party: Any, *, line1: str, line2: str, postcode: str, city: str, country: str) -> None:
    if line1:
        party.address.line_one = line1[:200]
    if line2:
        party.address.line_two = line2[:200]
    if postcode:
        party.address.postcode = postcode[:20]
    if city:
        party.address.city_name = city[:100]
    party.address.country_id = country


def build_xml(row: Invoice, seller: Seller, *, corrects: tuple[str, date] | None = None) -> bytes:
    """The CII XML of `row` (raises NotFound for a consumer's or a void document)."""
    if row.buyer_type != "business" or row.status == "void" or not row.number:
        raise NotFound(MSG_NO_E_INVOICE)
    currency = row.currency.upper()
    lines = _lines(row)
    kinds = {str(t.get("kind", "standard")) for t in row.tax_lines}
    not_subject = "outside_eu" in kinds

    doc = Document()
    doc.context.guideline_parameter.id = GUIDELINE
    doc.header.id = row.number
    doc.header.type_code = "381" if row.kind == CREDIT_NOTE else "380"
    doc.header.issue_date_time = row.issued_at.date()
    notes: list[str] = []
    if "reverse_charge" in kinds:
        notes.append(REVERSE_CHARGE_NOTE)
    if "small_business" in kinds:
        notes.append(SMALL_BUSINESS_NOTE)
    if not_subject:
        notes.append(OUTSIDE_EU_NOTE)
    if row.footer:
        notes.append(row.footer)
    for text in notes:
        note = IncludedNote()
        note.content = text[:5000]
        doc.header.notes.add(note)

    agreement = doc.trade.agreement
    agreement.seller.name = seller.name
    _address(
        agreement.seller,
        line1=seller.street,
        line2="",
        postcode=seller.postcode,
        city=seller.city,
        country=seller.country,
    )
    if seller.email:
        agreement.seller.electronic_address.uri_ID = ("EM", seller.email)
    if seller.vat_id and not not_subject:
        agreement.seller.tax_registrations.add(TaxRegistration(id=("VA", seller.vat_id)))
    address = row.buyer_address or {}
    agreement.buyer.name = row.buyer_name or row.buyer_email or "Customer"
    _address(
        agreement.buyer,
        line1=str(address.get("line1", "")),
        line2=str(address.get("line2", "")),
        postcode=str(address.get("postal_code", "")),
        city=str(address.get("city", "")),
        country=str(address.get("country") or row.country or seller.country),
    )
    if row.buyer_vat_id and not not_subject:
        agreement.buyer.tax_registrations.add(TaxRegistration(id=("VA", row.buyer_vat_id)))
    if row.order_number:
        agreement.seller_order.issuer_assigned_id = row.order_number

    delivery_date = (row.period_end or row.issued_at).date()
    doc.trade.delivery.event.occurrence = delivery_date

    settlement = doc.trade.settlement
    settlement.currency_code = currency
    if row.period_start and row.period_end and row.period_end > row.period_start:
        settlement.period.start = row.period_start.date()
        settlement.period.end = row.period_end.date()
    if corrects:
        settlement.invoice_referenced_document.issuer_assigned_id = corrects[0]
        settlement.invoice_referenced_document.issue_date_time = corrects[1]

    for index, line in enumerate(lines, start=1):
        cat = category(line["kind"], line["rate"])
        quantity = max(1, line["quantity"])
        item = LineItem()
        item.document.line_id = str(index)
        item.product.name = line["description"][:500]
        unit = (Decimal(line["net"]) / 100 / quantity).quantize(Decimal("0.01"))
        item.agreement.net.amount = unit
        item.delivery.billed_quantity = (Decimal(quantity), "C62")
        item.settlement.trade_tax.type_code = "VAT"
        item.settlement.trade_tax.category_code = cat.code
        if cat.code != "O":
            item.settlement.trade_tax.rate_applicable_percent = _percent(line["rate"])
        item.settlement.monetary_summation.total_amount = _money(line["net"])
        doc.trade.items.add(item)

    for tax_line in row.tax_lines:
        rate, kind = int(tax_line.get("rate", 0)), str(tax_line.get("kind", "standard"))
        cat = category(kind, rate)
        tax = ApplicableTradeTax()
        tax.calculated_amount = _money(int(tax_line.get("vat", 0)))
        tax.type_code = "VAT"
        if cat.reason:
            tax.exemption_reason = cat.reason
        tax.basis_amount = _money(int(tax_line.get("net", 0)))
        tax.category_code = cat.code
        if cat.reason_code:
            tax.exemption_reason_code = cat.reason_code
        if cat.code != "O":
            tax.rate_applicable_percent = _percent(rate)
        settlement.trade_tax.add(tax)

    net = sum(line["net"] for line in lines)
    vat = sum(int(t.get("vat", 0)) for t in row.tax_lines)
    paid = row.paid_at is not None and row.kind != CREDIT_NOTE
    summation = settlement.monetary_summation
    summation.line_total = _money(net)
    summation.charge_total = _money(0)
    summation.allowance_total = _money(0)
    summation.tax_basis_total = _money(net)
    summation.tax_total = (_money(vat), currency)
    summation.grand_total = _money(net + vat)
    summation.prepaid_total = _money(net + vat if paid else 0)
    summation.due_amount = _money(0 if paid else net + vat)
    terms = PaymentTerms()
    if paid and row.paid_at:
        terms.description = f"Paid by card on {row.paid_at.date().isoformat()}."
    elif row.kind == CREDIT_NOTE:
        terms.description = "Refunded to the original means of payment."
    else:
        terms.description = "Payable through the invoice page."
        terms.due = max(row.issued_at.date(), date.today())
    settlement.terms.add(terms)
    try:
        xml: bytes = doc.serialize(schema=PROFILE)  # checked against the profile's XSD
    except SyntaxError as error:  # lxml.etree.XMLSyntaxError
        log.error("invoice %s: its e-invoice fails the XSD: %s", row.id, error)
        raise Conflict(MSG_E_INVOICE_FAILED) from error
    return xml


# Country names a seller may have written in `seller_country`, by their ISO code.
_COUNTRY_NAMES = {
    "germany": "DE",
    "deutschland": "DE",
    "austria": "AT",
    "österreich": "AT",
    "switzerland": "CH",
    "schweiz": "CH",
    "france": "FR",
    "netherlands": "NL",
    "italy": "IT",
    "spain": "ES",
}


def seller_of(legal: Any, *, vat_country: str) -> Seller:
    """The agency as seller: the legal module's details (`LegalSettings`), its country as an
    ISO code (from `seller_country` when it is a code or a known name, else the tax module's
    `vat_country`)."""
    written = str(legal.seller_country or "").strip()
    country = (
        written.upper()
        if len(written) == 2 and written.isalpha()
        else _COUNTRY_NAMES.get(written.lower(), vat_country)
    )
    name = " ".join(part for part in (legal.seller_name, legal.seller_legal_form) if part)
    return Seller(
        name=name or legal.brand_name,
        street=legal.seller_street,
        postcode=legal.seller_postcode,
        city=legal.seller_city,
        country=country,
        vat_id=legal.seller_vat_id,
        email=legal.seller_email,
    )


async def e_invoice(
    invoice_id: int, *, user_id: int, admin: bool, seller: Seller, pdf: bool = False
) -> tuple[str, bytes]:
    """(file name, document) of the e-invoice of invoice `invoice_id`, for its owner or an
    admin: the CII XML, or with `pdf` the hybrid Factur-X PDF that embeds it."""
    from agency.modules.invoices.service import pdf as hybrid  # sibling use cases
    from agency.modules.invoices.service import reads

    row = await reads.get_for(invoice_id, user_id=user_id, admin=admin)
    corrects = None
    if row.kind == CREDIT_NOTE and row.corrects_stripe_id:
        original = await Invoice.get_or_none(stripe_invoice_id=row.corrects_stripe_id)
        if original and original.number:
            corrects = (original.number, original.issued_at.date())
    xml = build_xml(row, seller, corrects=corrects)
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in (row.number or str(row.id)))
    if pdf:
        document = hybrid.hybrid_pdf(row, seller, xml, corrects=corrects[0] if corrects else None)
        return f"{safe}-factur-x.pdf", document
    return f"{safe}-factur-x.xml", xml
