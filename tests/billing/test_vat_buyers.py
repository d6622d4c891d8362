"""The issue's six buyers, each over HTTP against the fake Stripe and a fake VIES, on both
databases: POST /api/billing/quote, POST /api/billing/checkout, paying on Stripe's page, the
events delivered to our webhook, the invoice stored (invoices_api.invoices_for_user) and the
agency's VAT report. Every parameter the product sent to Stripe is valid for the pinned SDK.

Prices are gross (prices_include_vat, the default): Pro AI costs €999.00 (99900 cents)
whatever the VAT, so 19 % VAT is 15950 cents of it (99900 * 1900 / 11900, rounded half up),
and under the reverse charge the buyer pays the full amount as net. The agency has no
One-Stop-Shop (vat_oss off; the fake Stripe holds only a German registration): EU consumers
pay Germany's 19 %.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from agency.modules.billing.models import CheckoutSession, CustomerTaxId, Order
from agency.modules.billing.service.order_numbers import order_number
from agency.modules.invoices import api as invoices_api
from agency.modules.invoices.models import Invoice
from tests.billing.conftest import checkout, deliver, tax_shop_of
from tests.billing.vies_fake import FakeVies
from tests.fakes.stripe_contract import assert_valid_params
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import call, signed_up

PRO_AI = 99900
VAT_19 = 15950  # of a gross 99900 at 19 %
SUBSCRIPTION = 2900  # Professional, per month
VAT_19_SUB = 463  # of a gross 2900 at 19 %

VERIFIED_FR = "FR40303265045"  # VIES: valid; Stripe: verified
UNVERIFIED_NL = "NL111111111B40"  # VIES: invalid; Stripe's test value: unverified
PENDING_NL = "NL222222222B07"  # VIES: down; Stripe's test value: stays pending
GERMAN_VAT_ID = "DE136695976"
MSG_VIES_INVALID = "This VAT ID is not valid according to the EU's VIES service."
SMALL_BUSINESS = "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet."


# A billing address in each buyer's country, as typed on Stripe's page.
ADDRESSES: dict[str, dict[str, str]] = {
    "DE": {"line1": "Unter den Linden 1", "postal_code": "10117", "city": "Berlin"},
    "FR": {"line1": "1 rue de Rivoli", "postal_code": "75001", "city": "Paris"},
    "NL": {"line1": "Dam 1", "postal_code": "1012 JS", "city": "Amsterdam"},
}


@pytest.fixture
async def small_shop(
    tmp_path: Any, database_url: str, fake: FakeStripe, vies: FakeVies
) -> AsyncIterator[Any]:
    """A small business (§19 UStG): no Stripe Tax (the tax module refuses both at once)."""
    async with tax_shop_of(tmp_path, database_url, fake, vies, vat_mode="small_business") as app:
        yield app


def quarter_now() -> str:
    now = datetime.now(UTC)
    return f"{now.year}Q{(now.month - 1) // 3 + 1}"


def session_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


async def quote(client: Any, **body: Any) -> dict[str, Any]:
    status, data = await call(client, "post", "/api/billing/quote", body)
    assert status == 200, data
    return dict(data)


async def buy(
    fake: FakeStripe, client: Any, plan: str, pay: dict[str, Any], **body: Any
) -> tuple[str, dict[str, Any]]:
    """Check out, pay on the fake's page with `pay` (billing details), deliver every event of
    the test so far to our webhook; returns the session id and Stripe's session."""
    status, data = await checkout(client, plan, **body)
    assert status == 200, data
    cs = session_of(data["url"])
    await fake.pay_async(cs, **{**ADDRESSES[pay["country"]], **pay})
    for event in fake.events():
        response = await deliver(client, event)
        assert response.status_code == 200, await response.get_data(as_text=True)
    return cs, fake.get(cs)


def sent_params_are_valid(fake: FakeStripe) -> None:
    """Everything the product sent to the fake is valid for the pinned SDK (the contract)."""
    sent = fake.received()
    assert sent
    for call_ in sent:
        if call_["endpoint"] in (
            "checkout.sessions.create",
            "customers.create",
            "customers.update",
            "customers.tax_ids.create",
            "prices.create",
            "prices.update",
            "products.create",
        ):
            assert_valid_params(call_["endpoint"], call_["params"])


def session_params(fake: FakeStripe) -> dict[str, Any]:
    [params] = fake.received("checkout.sessions.create")
    return params


async def only_invoice(user_id: int) -> dict[str, Any]:
    listing = (await invoices_api.invoices_for_user(user_id)).model_dump(mode="json")
    [invoice] = listing["invoices"]
    return dict(invoice)


async def report() -> dict[str, Any]:
    return (await invoices_api.vat_report(quarter_now())).model_dump(mode="json")


async def test_a_german_consumer_subscribes_with_german_vat(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app, "anna@example.de")
    offer = await quote(client, plan="professional", buyer_type="consumer", country="DE")
    assert offer == {
        "currency": "eur",
        "net": SUBSCRIPTION - VAT_19_SUB,
        "vat": VAT_19_SUB,
        "gross": SUBSCRIPTION,
        "rate": 1900,
        "kind": "standard",
        "country": "DE",
        "note": offer["note"],
        "vat_id_status": None,
        "calculated_at_payment": True,
    }
    cs, _ = await buy(fake, client, "professional", {"country": "DE"}, buyer_type="consumer")

    params = session_params(fake)
    assert params["automatic_tax"] == {"enabled": "true"}
    assert params["tax_id_collection"] == {"enabled": "true"}  # a consumer: not required
    assert params["billing_address_collection"] == "required"
    assert params["customer_update"] == {"address": "auto", "name": "auto"}
    assert "invoice_creation" not in params  # a subscription has its invoices anyway
    sent_params_are_valid(fake)

    session = await CheckoutSession.get(id=cs)
    assert (session.country, session.vat_id, session.vat_id_status) == ("DE", None, None)
    order = await Order.get(checkout_session_id=cs)
    assert (order.country, order.buyer_type) == ("DE", "consumer")
    invoice = await only_invoice(client.user_id)
    assert (invoice["gross"], invoice["vat"], invoice["net"]) == (
        SUBSCRIPTION,
        VAT_19_SUB,
        SUBSCRIPTION - VAT_19_SUB,
    )
    assert (invoice["buyer_type"], invoice["country"], invoice["reverse_charge"]) == (
        "consumer",
        "DE",
        False,
    )
    assert [(t["rate"], t["vat"]) for t in invoice["tax_lines"]] == [(1900, VAT_19_SUB)]
    assert invoice["status"] == "paid" and invoice["number"] and invoice["hosted_url"]
    stored = await Invoice.get(user_id=client.user_id)
    assert stored.order_number == order_number(order.id)  # the order the subscription began with

    vat = await report()
    assert [(r["country"], r["rate"], r["net"], r["vat"]) for r in vat["rows"]] == [
        ("DE", 1900, SUBSCRIPTION - VAT_19_SUB, VAT_19_SUB)
    ]
    assert vat["reverse_charge"] == [] and vat["oss"] == []


async def test_a_french_consumer_pays_german_vat_without_the_one_stop_shop(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app, "claire@example.fr")
    offer = await quote(client, plan="pro-ai", buyer_type="consumer", country="fr")
    assert (offer["country"], offer["rate"], offer["vat"], offer["gross"]) == (
        "FR",
        1900,
        VAT_19,
        PRO_AI,
    )
    cs, _ = await buy(fake, client, "pro-ai", {"country": "FR"}, country="FR")

    params = session_params(fake)
    invoice_data = params["invoice_creation"]["invoice_data"]
    assert params["invoice_creation"]["enabled"] == "true"
    assert "Demo Agentur GmbH" in invoice_data["footer"]  # the seller's details
    assert SMALL_BUSINESS not in invoice_data["footer"]
    assert invoice_data["metadata"]["plan"] == "pro-ai"
    assert invoice_data["metadata"]["user_id"] == str(client.user_id)
    sent_params_are_valid(fake)

    order = await Order.get(checkout_session_id=cs)
    assert order.invoice_id and order.country == "FR"
    invoice = await only_invoice(client.user_id)
    assert (invoice["gross"], invoice["vat"], invoice["country"]) == (PRO_AI, VAT_19, "FR")
    assert (await Invoice.get(user_id=client.user_id)).order_number == order_number(order.id)

    vat = await report()
    assert [(r["country"], r["rate"], r["vat"]) for r in vat["rows"]] == [("FR", 1900, VAT_19)]
    assert vat["threshold"]["current_year"] == PRO_AI - VAT_19  # a cross-border consumer sale


async def test_a_german_business_with_its_vat_id_pays_german_vat(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app, "buero@example.de")
    offer = await quote(
        client, plan="pro-ai", buyer_type="business", country="DE", vat_id="DE 136 695 976"
    )
    assert (offer["kind"], offer["rate"], offer["vat_id_status"]) == ("standard", 1900, "valid")
    cs, _ = await buy(
        fake,
        client,
        "pro-ai",
        {"country": "DE", "business_name": "Büro GmbH", "tax_id": GERMAN_VAT_ID},
        buyer_type="business",
        country="DE",
        vat_id="DE 136 695 976",
    )
    params = session_params(fake)
    # Offered, not required: a business without a VAT ID can still buy.
    assert params["tax_id_collection"] == {"enabled": "true"}
    [attached] = fake.received("customers.tax_ids.create")
    assert attached == {"type": "eu_vat", "value": GERMAN_VAT_ID}
    sent_params_are_valid(fake)

    order = await Order.get(checkout_session_id=cs)
    assert (order.buyer_type, order.vat_id, order.vat_id_status) == (
        "business",
        GERMAN_VAT_ID,
        "valid",
    )
    ids = await CustomerTaxId.filter(user_id=client.user_id)
    assert {(t.value, t.verification_status) for t in ids} == {(GERMAN_VAT_ID, "verified")}
    invoice = await only_invoice(client.user_id)
    assert (invoice["buyer_type"], invoice["vat"], invoice["reverse_charge"]) == (
        "business",
        VAT_19,
        False,
    )
    assert (await report())["reverse_charge"] == []


async def test_an_eu_business_with_a_verified_vat_id_is_reverse_charged(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app, "achats@example.fr")
    offer = await quote(client, plan="pro-ai", buyer_type="business", vat_id=VERIFIED_FR)
    assert offer == {
        "currency": "eur",
        "net": PRO_AI,
        "vat": 0,
        "gross": PRO_AI,
        "rate": 0,
        "kind": "reverse_charge",
        "country": "FR",  # from the VAT ID, none chosen
        "note": offer["note"],
        "vat_id_status": "valid",
        "calculated_at_payment": True,
    }
    cs, _ = await buy(
        fake,
        client,
        "pro-ai",
        {"country": "FR", "business_name": "SA Sodimas", "tax_id": VERIFIED_FR},
        buyer_type="business",
        country="FR",
        vat_id=VERIFIED_FR,
    )
    footer = session_params(fake)["invoice_creation"]["invoice_data"]["footer"]
    assert "Steuerschuldnerschaft des Leistungsempfängers" in footer
    assert f"VAT ID of the customer: {VERIFIED_FR}" in footer
    sent_params_are_valid(fake)

    session = await CheckoutSession.get(id=cs)
    assert (session.country, session.vat_id, session.vat_id_status) == ("FR", VERIFIED_FR, "valid")
    invoice = await only_invoice(client.user_id)
    assert (invoice["gross"], invoice["net"], invoice["vat"]) == (PRO_AI, PRO_AI, 0)
    assert invoice["reverse_charge"] is True and invoice["buyer_type"] == "business"
    assert invoice["e_invoice_url"]  # a business invoice has its e-invoice

    vat = await report()
    assert [(r["vat_id"], r["country"], r["net"]) for r in vat["reverse_charge"]] == [
        (VERIFIED_FR, "FR", PRO_AI)
    ]


async def test_an_eu_business_whose_vat_id_vies_refuses_pays_vat(
    tax_shop: Any, fake: FakeStripe, vies: FakeVies
) -> None:
    vies.invalid.add(UNVERIFIED_NL)
    client = await signed_up(tax_shop.app, "inkoop@example.nl")
    offer = await quote(client, plan="pro-ai", buyer_type="business", vat_id=UNVERIFIED_NL)
    assert (offer["vat_id_status"], offer["kind"], offer["vat"]) == ("invalid", "standard", VAT_19)

    status, data = await checkout(
        client, "pro-ai", buyer_type="business", country="NL", vat_id=UNVERIFIED_NL
    )
    assert status == 400
    assert data["error"]["message"] == MSG_VIES_INVALID
    assert data["error"]["fields"] == {"vat_id": MSG_VIES_INVALID}
    assert fake.received("checkout.sessions.create") == []

    # Without it on /start, the buyer gives it on Stripe's page: Stripe cannot verify it either.
    cs, _ = await buy(
        fake,
        client,
        "pro-ai",
        {"country": "NL", "business_name": "Inkoop BV", "tax_id": UNVERIFIED_NL},
        buyer_type="business",
        country="NL",
    )
    sent_params_are_valid(fake)
    ids = await CustomerTaxId.filter(user_id=client.user_id)
    assert {(t.value, t.verification_status) for t in ids} == {(UNVERIFIED_NL, "unverified")}
    order = await Order.get(checkout_session_id=cs)
    assert (order.country, order.vat_id, order.vat_id_status) == ("NL", UNVERIFIED_NL, None)
    invoice = await only_invoice(client.user_id)
    assert (invoice["vat"], invoice["reverse_charge"], invoice["country"]) == (VAT_19, False, "NL")
    assert (await report())["reverse_charge"] == []


async def test_an_eu_business_whose_vat_id_is_pending_pays_vat_until_confirmed(
    tax_shop: Any, fake: FakeStripe, vies: FakeVies
) -> None:
    vies.down.add(PENDING_NL)
    client = await signed_up(tax_shop.app, "finance@example.nl")
    offer = await quote(client, plan="pro-ai", buyer_type="business", vat_id=PENDING_NL)
    assert (offer["vat_id_status"], offer["kind"], offer["rate"]) == ("pending", "standard", 1900)
    cs, _ = await buy(
        fake,
        client,
        "pro-ai",
        {"country": "NL", "business_name": "Finance BV", "tax_id": PENDING_NL},
        buyer_type="business",
        country="NL",
        vat_id=PENDING_NL,
    )
    sent_params_are_valid(fake)
    session = await CheckoutSession.get(id=cs)
    assert (session.vat_id, session.vat_id_status) == (PENDING_NL, "pending")
    ids = await CustomerTaxId.filter(user_id=client.user_id)
    assert {(t.value, t.verification_status) for t in ids} == {(PENDING_NL, "pending")}
    invoice = await only_invoice(client.user_id)
    assert (invoice["vat"], invoice["reverse_charge"]) == (VAT_19, False)  # never 0 % unverified
    vat = await report()
    assert vat["reverse_charge"] == []
    assert [(r["country"], r["rate"], r["vat"]) for r in vat["rows"]] == [("NL", 1900, VAT_19)]


async def test_a_small_business_charges_no_vat_and_says_why(
    small_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(small_shop.app, "kunde@example.de")
    offer = await quote(client, plan="pro-ai", buyer_type="consumer", country="DE")
    assert (offer["kind"], offer["rate"], offer["vat"], offer["net"], offer["gross"]) == (
        "small_business",
        0,
        0,
        PRO_AI,
        PRO_AI,
    )
    assert offer["calculated_at_payment"] is False
    cs, _ = await buy(fake, client, "pro-ai", {"country": "DE"})
    params = session_params(fake)
    assert params["automatic_tax"] == {"enabled": "false"}
    assert SMALL_BUSINESS in params["invoice_creation"]["invoice_data"]["footer"]
    sent_params_are_valid(fake)

    order = await Order.get(checkout_session_id=cs)
    stripe_invoice = fake.get(order.invoice_id or "")
    assert SMALL_BUSINESS in stripe_invoice["footer"]
    invoice = await only_invoice(client.user_id)
    assert (invoice["gross"], invoice["vat"], invoice["net"]) == (PRO_AI, 0, PRO_AI)
    assert (await Invoice.get(user_id=client.user_id)).small_business is True
    vat = await report()
    assert [(r["rate"], r["vat"], r["gross"]) for r in vat["rows"]] == [(0, 0, PRO_AI)]
