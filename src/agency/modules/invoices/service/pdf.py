"""The hybrid e-invoice (ZUGFeRD / Factur-X): a plain invoice PDF drawn with reportlab (its
own Bitstream Vera fonts, embedded), an sRGB output intent, and the EN 16931 CII XML embedded
as `factur-x.xml` by factur-x, which writes the PDF/A-3 metadata (XMP) and checks the XML
against the XSD again. Readers show the PDF; accounting software reads the XML.

The PDF is laid out for §14(4) UStG: seller and buyer with addresses and VAT IDs, number, date,
the period of service, the lines with their net amounts, the net amount, rate and VAT per rate
or the reason for none (reverse charge, § 19 UStG), the gross total and whether it is paid."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from agency.modules.invoices.models import CREDIT_NOTE, Invoice
from agency.modules.invoices.service.einvoice import OUTSIDE_EU_NOTE, SMALL_BUSINESS_NOTE, Seller
from agency.modules.invoices.service.reads import amount_text
from agency.modules.tax.api import rate_text

REVERSE_CHARGE_LINES = (
    "Reverse charge: the recipient is liable for the VAT.",
    "Steuerschuldnerschaft des Leistungsempfängers.",
)
SMALL_BUSINESS_LINES = tuple(
    f"{part}." if not part.endswith(".") else part for part in SMALL_BUSINESS_NOTE.split(". ", 1)
)  # "No VAT is charged (small business, § 19 UStG)." and "Gemäß § 19 UStG wird ..."
_FONTS: dict[str, str] = {}


def _fonts() -> tuple[str, str]:
    """reportlab's own Vera fonts as TrueType (embedded, as PDF/A requires)."""
    if not _FONTS:
        import reportlab
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont

        folder = Path(reportlab.__file__).parent / "fonts"
        pdfmetrics.registerFont(TTFont("AgencyVera", str(folder / "Vera.ttf")))
        pdfmetrics.registerFont(TTFont("AgencyVeraBold", str(folder / "VeraBd.ttf")))
        _FONTS.update(regular="AgencyVera", bold="AgencyVeraBold")
    return _FONTS["regular"], _FONTS["bold"]


def _address_lines(address: dict[str, Any] | None, country: str | None) -> list[str]:
    address = address or {}
    lines = [str(address.get(key) or "") for key in ("line1", "line2")]
    place = " ".join(str(address.get(key) or "") for key in ("postal_code", "city")).strip()
    lines.append(place)
    lines.append(str(address.get("country") or country or ""))
    return [line for line in lines if line]


def render_pdf(row: Invoice, seller: Seller, *, corrects: str | None = None) -> bytes:
    """The invoice (or credit note) as a plain PDF."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    regular, bold = _fonts()
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4, pageCompression=1, invariant=1, initialFontName=regular)
    title = "Credit note" if row.kind == CREDIT_NOTE else "Invoice"
    pdf.setTitle(f"{title} {row.number}")
    pdf.setAuthor(seller.name)
    width, height = A4
    left, y = 56.0, height - 64.0

    def text(value: str, size: float = 9.5, font: str = regular, x: float = left) -> None:
        nonlocal y
        pdf.setFont(font, size)
        pdf.drawString(x, y, value[:110])
        y -= size + 4

    text(seller.name, 12, bold)
    text(
        ", ".join(
            p
            for p in (seller.street, f"{seller.postcode} {seller.city}".strip(), seller.country)
            if p
        )
    )
    if seller.vat_id:
        text(f"VAT ID (USt-IdNr.): {seller.vat_id}")
    y -= 14
    for buyer_line in [
        row.buyer_name or "Customer",
        *_address_lines(row.buyer_address, row.country),
    ]:
        text(buyer_line)
    if row.buyer_vat_id:
        text(f"VAT ID: {row.buyer_vat_id}")
    y -= 14
    text(f"{title} {row.number}", 15, bold)
    text(f"Date: {row.issued_at.date().isoformat()}")
    if row.period_start and row.period_end:
        text(
            f"Period of service: {row.period_start.date().isoformat()} to "
            f"{row.period_end.date().isoformat()}"
        )
    if corrects:
        text(f"Corrects invoice {corrects}")
    if row.order_number:
        text(f"Order: {row.order_number}")
    y -= 10
    pdf.setFont(bold, 9.5)
    pdf.drawString(left, y, "Description")
    pdf.drawRightString(width - 56, y, "Net")
    y -= 16
    lines = [line for line in row.lines if isinstance(line, dict) and "amount" in line] or [
        {"description": row.description or title, "quantity": 1, "amount": row.net}
    ]
    for line in lines:
        quantity = int(line.get("quantity") or 1)
        label = (
            f"{quantity} x {line.get('description') or ''}"
            if quantity > 1
            else str(line.get("description") or "")
        )
        pdf.setFont(regular, 9.5)
        pdf.drawString(left, y, label[:95])
        pdf.drawRightString(width - 56, y, amount_text(int(line["amount"]), row.currency))
        y -= 14
    y -= 8
    for tax in row.tax_lines:
        rate, kind = int(tax.get("rate", 0)), str(tax.get("kind", "standard"))
        basis = amount_text(int(tax.get("net", 0)), row.currency)
        if kind == "reverse_charge":
            label = f"Net {basis}: 0 % VAT, reverse charge"
        elif kind == "small_business":
            label = f"Net {basis}: no VAT (§ 19 UStG)"
        elif kind == "outside_eu":
            label = f"Net {basis}: not subject to VAT in Germany"
        else:
            label = f"Net {basis}: VAT {rate_text(rate)}"
        pdf.setFont(regular, 9.5)
        pdf.drawString(left, y, label)
        pdf.drawRightString(width - 56, y, amount_text(int(tax.get("vat", 0)), row.currency))
        y -= 14
    pdf.setFont(bold, 11)
    pdf.drawString(left, y - 4, "Total")
    pdf.drawRightString(width - 56, y - 4, amount_text(row.gross, row.currency))
    y -= 28
    kinds = {str(t.get("kind")) for t in row.tax_lines}
    notes: list[str] = []
    if "reverse_charge" in kinds:
        notes.extend(REVERSE_CHARGE_LINES)
    if "small_business" in kinds:
        notes.extend(SMALL_BUSINESS_LINES)
    if "outside_eu" in kinds:
        notes.append(OUTSIDE_EU_NOTE + ".")
    if row.kind != CREDIT_NOTE and row.paid_at:
        notes.append(f"Paid on {row.paid_at.date().isoformat()}. Thank you.")
    for note in notes:
        text(note.strip())
    pdf.setFont(regular, 7.5)
    pdf.drawString(left, 40, f"{seller.name} · {seller.email}"[:120])
    pdf.showPage()
    pdf.save()
    return out.getvalue()


def _with_output_intent(pdf_bytes: bytes) -> bytes:
    """The PDF with an sRGB output intent (PDF/A: the colours' meaning)."""
    from PIL import ImageCms
    from pypdf import PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    writer = PdfWriter(clone_from=io.BytesIO(pdf_bytes))
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    stream = DecodedStreamObject()
    stream.set_data(profile)
    stream[NameObject("/N")] = NumberObject(3)
    intent = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/OutputIntent"),
            NameObject("/S"): NameObject("/GTS_PDFA1"),
            NameObject("/OutputConditionIdentifier"): TextStringObject("sRGB"),
            NameObject("/Info"): TextStringObject("sRGB IEC61966-2.1"),
            NameObject("/DestOutputProfile"): writer._add_object(stream),
        }
    )
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([intent])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def hybrid_pdf(row: Invoice, seller: Seller, xml: bytes, *, corrects: str | None = None) -> bytes:
    """The Factur-X PDF: the plain PDF with the XML embedded (level EN 16931)."""
    from facturx import generate_from_binary

    base = _with_output_intent(render_pdf(row, seller, corrects=corrects))
    result: bytes = generate_from_binary(
        base, xml, flavor="factur-x", level="en16931", check_xsd=True, lang="en"
    )
    return result
