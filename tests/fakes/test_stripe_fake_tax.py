# ruff: noqa: F811  (the fixtures imported from test_stripe_fake are parameters here)
"""The fake Stripe's tax, tax IDs, invoices, refunds and credit notes, driven through the official
SDK over real HTTP (issue 27, item 8)."""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import httpx
import pytest
import stripe
from hypothesis import given
from hypothesis import strategies as st

from tests.fakes.stripe_server import EU_RATES, INVOICE_PREFIX, FakeStripe
from tests.fakes.test_stripe_fake import (  # noqa: F401  (fixtures)
    Receiver,
    client,
    fake,
    receiver,
    server,
)

pytestmark = pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning")


def product(client: stripe.StripeClient) -> Any:
    return client.v1.products.create(params={"name": "Website"})


def price(
    client: stripe.StripeClient,
    amount: int,
    behavior: str = "inclusive",
    *,
    recurring: bool = False,
    currency: str = "eur",
) -> Any:
    params: dict[str, Any] = {
        "product": product(client).id,
        "unit_amount": amount,
        "currency": currency,
        "tax_behavior": behavior,
    }
    if recurring:
        params["recurring"] = {"interval": "month"}
    return client.v1.prices.create(params=params)


def session(client: stripe.StripeClient, price_id: str, mode: str = "payment", **extra: Any) -> Any:
    params: dict[str, Any] = {
        "mode": mode,
        "line_items": [{"price": price_id, "quantity": 1}],
        "success_url": "https://shop.test/ok",
        **extra,
    }
    if mode == "payment" and "customer" not in extra:
        params.setdefault("customer_creation", "always")
        params.setdefault("customer_email", "buyer@example.com")
    return client.v1.checkout.sessions.create(params=params)


TAXED = {"automatic_tax": {"enabled": True}}
BUSINESS = {"automatic_tax": {"enabled": True}, "tax_id_collection": {"enabled": True}}


def paid(client: stripe.StripeClient, cs_id: str) -> Any:
    return client.v1.checkout.sessions.retrieve(
        cs_id, params={"expand": ["total_details.breakdown", "line_items"]}
    )


# ------------------------------------------------------------------ session parameters


def test_session_echoes_the_tax_parameters(client: stripe.StripeClient) -> None:
    p = price(client, 2900)
    cs = session(
        client,
        p.id,
        automatic_tax={"enabled": True},
        tax_id_collection={"enabled": True, "required": "if_supported"},
        billing_address_collection="required",
        invoice_creation={
            "enabled": True,
            "invoice_data": {
                "footer": "Agency GmbH, HRB 1",
                "metadata": {"order": "A-1"},
                "custom_fields": [{"name": "Order", "value": "A-1"}],
                "description": "Website",
            },
        },
        locale="de",
        consent_collection={"terms_of_service": "required"},
        custom_text={"submit": {"message": "Order with obligation to pay"}},
    )
    assert cs.automatic_tax.enabled is True
    assert cs.automatic_tax.status == "requires_location_inputs"
    assert cs.tax_id_collection.to_dict() == {"enabled": True, "required": "if_supported"}
    assert cs.billing_address_collection == "required"
    assert cs.invoice_creation.enabled is True
    data = cs.invoice_creation.invoice_data
    assert data.footer == "Agency GmbH, HRB 1" and data.metadata.to_dict() == {"order": "A-1"}
    assert data.custom_fields[0].to_dict() == {"name": "Order", "value": "A-1"}
    assert cs.locale == "de" and cs.consent_collection.terms_of_service == "required"
    assert cs.custom_text.submit.message == "Order with obligation to pay"
    assert cs.ui_mode == "hosted_page"


@pytest.mark.parametrize(
    ("extra", "param", "message"),
    [
        ({"customer_update": {"address": "auto"}}, "customer_update", "only be used with"),
        ({"automatic_tax": {"enabled": True, "colour": "x"}}, "automatic_tax[colour]", None),
        ({"locale": "xx"}, "locale", None),
        ({"tax_id_collection": {"enabled": False, "required": "if_supported"}}, None, None),
        ({"billing_address_collection": "always"}, "billing_address_collection", None),
        ({"customer_update": {"address": "sometimes"}}, None, None),
    ],
)
def test_session_refuses_what_stripe_refuses(
    client: stripe.StripeClient, extra: dict[str, Any], param: str | None, message: str | None
) -> None:
    p = price(client, 2900)
    with pytest.raises(stripe.InvalidRequestError) as info:
        session(client, p.id, **extra)
    if param:
        assert info.value.param == param
    if message:
        assert message in str(info.value.user_message)


def test_invoice_creation_is_for_payment_mode_only(client: stripe.StripeClient) -> None:
    p = price(client, 2900, recurring=True)
    with pytest.raises(stripe.InvalidRequestError) as info:
        session(
            client,
            p.id,
            "subscription",
            customer_email="a@example.com",
            invoice_creation={"enabled": True},
        )
    assert info.value.param == "invoice_creation"


def test_existing_customer_needs_customer_update(client: stripe.StripeClient) -> None:
    p = price(client, 2900)
    customer = client.v1.customers.create(params={"email": "a@example.com", "name": "Ada"})
    with pytest.raises(stripe.InvalidRequestError) as info:
        session(client, p.id, customer=customer.id, **TAXED)
    assert info.value.param == "customer_update[address]"
    assert "requires a valid address on the Customer" in str(info.value.user_message)
    with pytest.raises(stripe.InvalidRequestError) as info:
        session(
            client,
            p.id,
            customer=customer.id,
            customer_update={"address": "auto"},
            **BUSINESS,
        )
    assert info.value.param == "customer_update[name]"
    ok = session(
        client,
        p.id,
        customer=customer.id,
        customer_update={"address": "auto", "name": "auto"},
        **BUSINESS,
    )
    assert ok.customer == customer.id


def test_price_tax_behavior_cannot_change_once_set(client: stripe.StripeClient) -> None:
    fixed = price(client, 2900, "inclusive")
    with pytest.raises(stripe.InvalidRequestError) as info:
        client.v1.prices.update(fixed.id, params={"tax_behavior": "exclusive"})
    assert info.value.param == "tax_behavior"
    assert client.v1.prices.update(fixed.id, params={"tax_behavior": "inclusive"}).id == fixed.id
    loose = price(client, 2900, "unspecified")
    assert client.v1.prices.update(loose.id, params={"tax_behavior": "exclusive"}).tax_behavior == (
        "exclusive"
    )
    with pytest.raises(stripe.InvalidRequestError):
        price(client, 2900, "sometimes")


# ------------------------------------------------------------------ tax


def test_german_consumer_pays_19_percent_inside_an_inclusive_price(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    cs = session(client, price(client, 2900).id, **TAXED)
    fake.pay(cs.id)
    done = paid(client, cs.id)
    assert done.automatic_tax.status == "complete"
    assert (done.amount_subtotal, done.amount_total) == (2900, 2900)
    assert done.total_details.amount_tax == 463  # 2900 * 19 / 119 = 463.03
    assert done.customer_details.address.country == "DE"
    assert done.customer_details.tax_exempt == "none"
    tax = done.total_details.breakdown.taxes[0]
    assert tax.amount == 463 and tax.taxable_amount == 2437
    assert tax.taxability_reason == "standard_rated"
    assert tax.rate.percentage == 19.0 and tax.rate.country == "DE" and tax.rate.inclusive
    line = done.line_items.data[0]
    assert (line.amount_subtotal, line.amount_tax, line.amount_total) == (2900, 463, 2900)


def test_exclusive_price_adds_the_tax(client: stripe.StripeClient, fake: FakeStripe) -> None:
    cs = session(client, price(client, 10000, "exclusive").id, **TAXED)
    fake.pay(cs.id, country="AT", line1="Ring 1", postal_code="1010", city="Wien")
    done = paid(client, cs.id)
    # Austria's consumer without the OSS registration: Germany's rate (below the threshold).
    assert (done.amount_subtotal, done.total_details.amount_tax, done.amount_total) == (
        10000,
        1900,
        11900,
    )
    intent = client.v1.payment_intents.retrieve(done.payment_intent)
    assert intent.amount == 11900


def test_oss_registration_charges_the_buyers_country(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    reg = client.v1.tax.registrations.create(
        params={
            "country": "DE",
            "active_from": "now",
            "country_options": {"de": {"type": "oss_union"}},
        }
    )
    assert reg.status == "active" and reg.country_options.de.type == "oss_union"
    listed = client.v1.tax.registrations.list(params={"status": "active"})
    assert {r.country_options.de.type for r in listed.data} == {"standard", "oss_union"}
    cs = session(client, price(client, 12000).id, **TAXED)
    fake.pay(cs.id, country="FR", line1="1 rue de Rivoli", postal_code="75001", city="Paris")
    done = paid(client, cs.id)
    assert done.total_details.amount_tax == 2000  # 12000 * 20 / 120
    assert done.total_details.breakdown.taxes[0].rate.country == "FR"


@pytest.mark.parametrize(
    ("vat_id", "status", "tax", "reason", "exempt"),
    [
        ("FR12345678901", "verified", 0, "reverse_charge", "reverse"),
        ("FR12111111111", "unverified", 1900, "standard_rated", "none"),
        ("FR12222222222", "pending", 1900, "standard_rated", "none"),
    ],
)
def test_eu_business_reverse_charge_needs_a_verified_vat_id(
    client: stripe.StripeClient,
    fake: FakeStripe,
    receiver: Receiver,
    vat_id: str,
    status: str,
    tax: int,
    reason: str,
    exempt: str,
) -> None:
    cs = session(client, price(client, 10000, "exclusive").id, **BUSINESS)
    fake.pay(
        cs.id,
        country="FR",
        line1="1 rue de Rivoli",
        postal_code="75001",
        city="Paris",
        business_name="Exemple SARL",
        tax_id=vat_id,
    )
    done = paid(client, cs.id)
    assert done.total_details.amount_tax == tax
    assert done.total_details.breakdown.taxes[0].taxability_reason == reason
    details = done.customer_details
    assert details.business_name == "Exemple SARL" and details.tax_exempt == exempt
    assert [t.to_dict() for t in details.tax_ids] == [{"type": "eu_vat", "value": vat_id}]
    saved = client.v1.customers.tax_ids.list(done.customer).data
    assert [(t.value, t.verification.status) for t in saved] == [(vat_id, status)]
    customer = client.v1.customers.retrieve(done.customer)
    assert customer.name == "Exemple SARL" and customer.address.country == "FR"
    types = receiver.types()
    assert types[0] == "customer.tax_id.created"
    assert ("customer.tax_id.updated" in types) == (status != "pending")


def test_outside_the_eu_nothing_is_collected(client: stripe.StripeClient, fake: FakeStripe) -> None:
    cs = session(client, price(client, 10000, "exclusive").id, **TAXED)
    fake.pay(cs.id, country="US", line1="1 Main St", postal_code="10001", city="New York")
    done = paid(client, cs.id)
    assert done.total_details.amount_tax == 0 and done.amount_total == 10000
    assert done.total_details.breakdown.taxes[0].taxability_reason == "not_collecting"


def test_without_automatic_tax_there_is_no_tax(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    cs = session(client, price(client, 2900).id, billing_address_collection="required")
    result = fake.pay(cs.id)
    done = paid(client, cs.id)
    assert done.automatic_tax.enabled is False and done.total_details.amount_tax == 0
    assert done.total_details.breakdown.taxes == []
    # A required address defaults to a German one.
    assert result["session"]["customer_details"]["address"]["city"] == "Berlin"


def test_tax_exempt_customer_and_saved_address(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    customer = client.v1.customers.create(
        params={
            "email": "x@example.com",
            "tax_exempt": "exempt",
            "address": {"country": "DE", "line1": "A 1", "postal_code": "10115", "city": "Berlin"},
        }
    )
    assert customer.tax_exempt == "exempt" and customer.address.country == "DE"
    cs = session(client, price(client, 2900).id, customer=customer.id, **TAXED)
    # Known address: Stripe calculates at once.
    assert cs.automatic_tax.status == "complete"
    fake.pay(cs.id)
    done = paid(client, cs.id)
    assert done.total_details.amount_tax == 0
    assert done.total_details.breakdown.taxes[0].taxability_reason == "customer_exempt"
    updated = client.v1.customers.update(customer.id, params={"tax_exempt": "none"})
    assert updated.tax_exempt == "none"
    with pytest.raises(stripe.InvalidRequestError):
        client.v1.customers.update(customer.id, params={"tax_exempt": "sometimes"})


def test_required_tax_id_and_collection_errors(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    cs = session(
        client,
        price(client, 2900).id,
        automatic_tax={"enabled": True},
        tax_id_collection={"enabled": True, "required": "if_supported"},
    )
    with pytest.raises(Exception, match="Please provide a tax ID"):
        fake.pay(cs.id)
    with pytest.raises(Exception, match="Invalid value for eu_vat"):
        fake.pay(cs.id, tax_id="DE12")
    plain = session(client, price(client, 2900).id)
    with pytest.raises(Exception, match="does not collect tax IDs"):
        fake.pay(plain.id, tax_id="DE123456789")
    fake.pay(cs.id, tax_id="DE 123 456 789", business_name="Muster GmbH")
    assert paid(client, cs.id).customer_details.tax_ids[0].value == "DE123456789"


# ------------------------------------------------------------------ tax IDs API


def test_tax_ids_api(client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver) -> None:
    customer = client.v1.customers.create(params={"email": "b@example.com", "name": "Beta BV"})
    created = client.v1.customers.tax_ids.create(
        customer.id, params={"type": "eu_vat", "value": "NL123456789B01"}
    )
    assert created.verification.status == "pending" and created.country == "NL"
    assert created.customer == customer.id
    got = client.v1.customers.tax_ids.retrieve(customer.id, created.id)
    assert got.verification.status == "verified" and got.verification.verified_name == "Beta BV"
    events = receiver.events()
    assert [e.type for e in events] == ["customer.tax_id.created", "customer.tax_id.updated"]
    assert events[0].data.object.verification.status == "pending"
    assert events[1].data.object.verification.status == "verified"
    assert events[1].data.previous_attributes.verification.status == "pending"

    pending = client.v1.customers.tax_ids.create(
        customer.id, params={"type": "eu_vat", "value": "DE222222222"}
    )
    bad = client.v1.customers.tax_ids.create(
        customer.id, params={"type": "eu_vat", "value": "DE111111111"}
    )
    listed = client.v1.customers.tax_ids.list(customer.id)
    assert {t.id: t.verification.status for t in listed.data} == {
        created.id: "verified",
        pending.id: "pending",
        bad.id: "unverified",
    }
    expanded = client.v1.customers.retrieve(customer.id, params={"expand": ["tax_ids"]})
    assert len(expanded.tax_ids.data) == 3

    for value, param in (("DE12345678", "value"), ("XX123456789", "value")):
        with pytest.raises(stripe.InvalidRequestError) as info:
            client.v1.customers.tax_ids.create(
                customer.id, params={"type": "eu_vat", "value": value}
            )
        assert info.value.code == "tax_id_invalid" and info.value.param == param
        assert str(info.value.user_message) == "Invalid value for eu_vat."
    with pytest.raises(stripe.InvalidRequestError) as info:
        client.v1.customers.tax_ids.create(
            customer.id,
            params={"type": "xx_vat", "value": "1"},  # type: ignore[typeddict-item]
        )
    assert info.value.param == "type"

    deleted = client.v1.customers.tax_ids.delete(customer.id, bad.id)
    assert deleted.deleted is True
    assert receiver.types()[-1] == "customer.tax_id.deleted"
    with pytest.raises(stripe.InvalidRequestError) as info:
        client.v1.customers.tax_ids.retrieve(customer.id, bad.id)
    assert info.value.code == "resource_missing"


def test_customer_create_with_tax_id_data(client: stripe.StripeClient, fake: FakeStripe) -> None:
    customer = client.v1.customers.create(
        params={"name": "Gamma", "tax_id_data": [{"type": "eu_vat", "value": "IT12345678901"}]}
    )
    ids = client.v1.customers.tax_ids.list(customer.id).data
    assert [(t.value, t.verification.status) for t in ids] == [("IT12345678901", "verified")]


# ------------------------------------------------------------------ invoices


def test_payment_invoice_numbered_hosted_and_pdf(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    p = price(client, 2900)
    numbers = []
    for email in ("one@example.com", "two@example.com"):
        cs = session(
            client,
            p.id,
            customer_email=email,
            invoice_creation={
                "enabled": True,
                "invoice_data": {
                    "footer": "Agency GmbH \u00b7 Berlin",
                    "metadata": {"order": email},
                },
            },
            **TAXED,
        )
        fake.pay(cs.id)
        done = client.v1.checkout.sessions.retrieve(cs.id)
        invoice = client.v1.invoices.retrieve(done.invoice)
        numbers.append(invoice.number)
    assert numbers == [f"{INVOICE_PREFIX}-0001", f"{INVOICE_PREFIX}-0002"]
    assert invoice.status == "paid" and invoice.billing_reason == "manual"
    assert invoice.parent is None and invoice.customer == done.customer
    assert invoice.footer == "Agency GmbH \u00b7 Berlin"
    assert invoice.metadata.to_dict() == {"order": "two@example.com"}
    assert invoice.account_country == "DE" and invoice.account_name
    assert (invoice.subtotal, invoice.total, invoice.amount_paid) == (2900, 2900, 2900)
    assert (invoice.subtotal_excluding_tax, invoice.total_excluding_tax) == (2437, 2437)
    tax = invoice.total_taxes[0]
    assert (tax.amount, tax.taxable_amount, tax.tax_behavior) == (463, 2437, "inclusive")
    assert tax.taxability_reason == "standard_rated" and tax.type == "tax_rate_details"
    rate = client.v1.tax_rates.retrieve(tax.tax_rate_details.tax_rate)
    assert (rate.percentage, rate.country, rate.tax_type) == (19.0, "DE", "vat")
    assert invoice.lines.data[0].taxes[0].amount == 463
    assert invoice.customer_address.city == "Berlin" and invoice.customer_tax_exempt == "none"
    assert invoice.status_transitions.finalized_at and invoice.status_transitions.paid_at

    types = receiver.types()[-5:]
    assert types == [
        "invoice.created",
        "invoice.finalized",
        "invoice.paid",
        "invoice.payment_succeeded",
        "checkout.session.completed",
    ]
    created = receiver.events()[-5].data.object
    assert created.status == "draft" and created.number is None
    assert created.hosted_invoice_url is None and created.invoice_pdf is None
    finalized = receiver.events()[-4].data.object
    assert finalized.status == "open" and finalized.number == invoice.number

    page = httpx.get(invoice.hosted_invoice_url)
    assert page.status_code == 200 and invoice.number in page.text
    assert "Agency GmbH" in page.text
    pdf = httpx.get(invoice.invoice_pdf)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF-1.") and pdf.content.rstrip().endswith(b"%%EOF")
    assert invoice.number.encode() in pdf.content
    _check_xref(pdf.content)


def _check_xref(pdf: bytes) -> None:
    """Every xref entry points at its ``n 0 obj`` (the PDF is well-formed for readers)."""
    start = int(pdf.rsplit(b"startxref", 1)[1].split()[0])
    table = pdf[start:].split(b"trailer")[0].split(b"\n")[2:]
    offsets = [int(row[:10]) for row in table if row.strip()][1:]
    for number, offset in enumerate(offsets, 1):
        assert pdf[offset:].startswith(f"{number} 0 obj".encode())


def test_reverse_charge_invoice_freezes_the_buyer(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    cs = session(client, price(client, 10000, "exclusive").id, invoice_creation={"enabled": True},
                 **BUSINESS)  # fmt: skip
    fake.pay(
        cs.id,
        country="AT",
        line1="Ring 1",
        postal_code="1010",
        city="Wien",
        business_name="Beispiel GmbH",
        tax_id="ATU12345678",
    )
    done = client.v1.checkout.sessions.retrieve(cs.id)
    invoice = client.v1.invoices.retrieve(done.invoice)
    assert invoice.customer_tax_exempt == "reverse"
    assert [t.to_dict() for t in invoice.customer_tax_ids] == [
        {"type": "eu_vat", "value": "ATU12345678"}
    ]
    assert invoice.customer_name == "Beispiel GmbH"
    assert (invoice.total, invoice.total_taxes[0].amount) == (10000, 0)
    assert invoice.total_taxes[0].taxability_reason == "reverse_charge"
    assert "Reverse charge" in httpx.get(invoice.hosted_invoice_url).text
    # Frozen: a later change to the customer does not change the finalized invoice.
    client.v1.customers.update(done.customer, params={"name": "Renamed"})
    assert client.v1.invoices.retrieve(done.invoice).customer_name == "Beispiel GmbH"


def test_subscription_invoices_carry_tax_on_renewal(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    p = price(client, 4900, recurring=True)
    cs = session(client, p.id, "subscription", customer_email="s@example.com", **TAXED)
    fake.pay(cs.id)
    done = client.v1.checkout.sessions.retrieve(cs.id)
    first = client.v1.invoices.retrieve(done.invoice)
    assert first.number and first.total_taxes[0].amount == 782  # 4900 * 19 / 119
    sub = client.v1.subscriptions.retrieve(done.subscription)
    assert sub.automatic_tax.enabled is True
    renewed = fake.renew(done.subscription)
    second = client.v1.invoices.retrieve(renewed["latest_invoice"])
    assert second.total_taxes[0].amount == 782 and second.hosted_invoice_url
    n1, n2 = (int(n.rsplit("-", 1)[1]) for n in (first.number, second.number))
    assert n2 == n1 + 1


# ------------------------------------------------------------------ refunds and credit notes


def _bought(client: stripe.StripeClient, fake: FakeStripe, amount: int = 10000) -> Any:
    cs = session(client, price(client, amount).id, invoice_creation={"enabled": True}, **TAXED)
    fake.pay(cs.id)
    return client.v1.checkout.sessions.retrieve(cs.id)


def test_refunds(client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver) -> None:
    done = _bought(client, fake)
    receiver.received.clear()
    part = client.v1.refunds.create(
        params={
            "payment_intent": done.payment_intent,
            "amount": 2500,
            "reason": "requested_by_customer",
        }
    )
    assert part.status == "succeeded" and part.amount == 2500 and part.charge.startswith("ch_")
    charge = client.v1.charges.retrieve(part.charge, params={"expand": ["refunds"]})
    assert (charge.amount_refunded, charge.refunded) == (2500, False)
    assert [r.id for r in charge.refunds.data] == [part.id]
    assert receiver.types() == ["refund.created", "charge.refunded"]
    assert receiver.events()[1].data.previous_attributes.amount_refunded == 0
    with pytest.raises(stripe.InvalidRequestError) as info:
        client.v1.refunds.create(params={"charge": part.charge, "amount": 9000})
    assert info.value.code == "amount_too_large"
    # Which invoice a refunded charge belongs to: the invoice payments of its payment intent.
    payments = client.v1.invoice_payments.list(
        params={"payment": {"type": "payment_intent", "payment_intent": done.payment_intent}}
    )
    assert [pay.invoice for pay in payments.data] == [done.invoice]
    rest = fake.refund(done.id)
    assert rest["amount"] == 7500
    assert client.v1.charges.retrieve(part.charge).refunded is True
    with pytest.raises(stripe.InvalidRequestError) as info:
        client.v1.refunds.create(params={"charge": part.charge})
    assert info.value.code == "charge_already_refunded"
    with pytest.raises(stripe.InvalidRequestError) as info:
        client.v1.refunds.create(params={})
    assert info.value.code == "parameter_missing"


def test_credit_notes(client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver) -> None:
    done = _bought(client, fake)
    invoice = client.v1.invoices.retrieve(done.invoice)
    receiver.received.clear()
    note = client.v1.credit_notes.create(
        params={
            "invoice": invoice.id,
            "amount": 5950,
            "refund_amount": 5950,
            "reason": "order_change",
            "memo": "Half the work",
        }
    )
    assert note.number == f"{invoice.number}-CN-01" and note.status == "issued"
    assert note.type == "post_payment" and note.total == 5950
    assert note.total_taxes[0].amount == 950  # 5950 * 19 / 119
    assert note.subtotal_excluding_tax == 5000 and note.total_excluding_tax == 5000
    assert note.refunds[0].amount_refunded == 5950
    assert note.lines.data[0].invoice_line_item == invoice.lines.data[0].id
    assert receiver.types() == ["credit_note.created", "refund.created", "charge.refunded"]
    again = client.v1.invoices.retrieve(invoice.id)
    assert again.post_payment_credit_notes_amount == 5950
    assert client.v1.credit_notes.retrieve(note.id).id == note.id
    pdf = httpx.get(note.pdf)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")

    with pytest.raises(stripe.InvalidRequestError) as info:
        client.v1.credit_notes.create(params={"invoice": invoice.id, "amount": 5000})
    assert info.value.param == "amount"

    line = client.v1.credit_notes.create(
        params={
            "invoice": invoice.id,
            "lines": [
                {
                    "type": "invoice_line_item",
                    "invoice_line_item": invoice.lines.data[0].id,
                    "amount": 1190,
                }
            ],
            "out_of_band_amount": 1190,
        }
    )
    assert line.number.endswith("-CN-02") and line.total_taxes[0].amount == 190

    voided = client.v1.credit_notes.void_credit_note(note.id)
    assert voided.status == "void" and voided.voided_at
    assert receiver.types()[-1] == "credit_note.voided"
    assert client.v1.invoices.retrieve(invoice.id).post_payment_credit_notes_amount == 1190
    with pytest.raises(stripe.InvalidRequestError):
        client.v1.credit_notes.void_credit_note(note.id)
    listed = client.v1.credit_notes.list(params={"invoice": invoice.id})
    assert {c.id for c in listed.data} == {note.id, line.id}


# ------------------------------------------------------------------ the hosted page


def test_pay_page_collects_address_and_vat_id(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    cs = session(client, price(client, 10000, "exclusive").id, **BUSINESS)
    page = httpx.get(cs.url).text
    for name in ("line1", "postal_code", "city", "country", "is_business", "business_name",
                 "tax_id"):  # fmt: skip
        assert f'name="{name}"' in page
    assert "I\u2019m purchasing as a business" in page
    answer = httpx.post(
        cs.url,
        data={
            "card_number": "4242 4242 4242 4242",
            "line1": "Via Roma 1",
            "postal_code": "00100",
            "city": "Roma",
            "country": "IT",
            "is_business": "1",
            "business_name": "Esempio Srl",
            "tax_id": "IT12345678901",
        },
    )
    assert answer.status_code == 303
    done = paid(client, cs.id)
    assert done.customer_details.address.city == "Roma"
    assert done.customer_details.tax_exempt == "reverse" and done.total_details.amount_tax == 0

    other = session(client, price(client, 2900).id, **BUSINESS)
    wrong = httpx.post(
        other.url,
        data={"card_number": "4242424242424242", "is_business": "1", "tax_id": "IT1"},
    )
    assert wrong.status_code == 400 and "Invalid value for eu_vat." in wrong.text

    plain = session(client, price(client, 2900).id)
    text = httpx.get(plain.url).text
    assert 'name="line1"' not in text and 'name="tax_id"' not in text


def test_received_params_are_recorded(client: stripe.StripeClient, fake: FakeStripe) -> None:
    p = price(client, 2900)
    session(client, p.id, **TAXED)
    sent = fake.received("checkout.sessions.create")
    assert sent[-1]["automatic_tax"] == {"enabled": "true"}
    assert sent[-1]["line_items"] == [{"price": p.id, "quantity": "1"}]
    assert fake.received("prices.create")[-1]["tax_behavior"] == "inclusive"
    assert {r["endpoint"] for r in fake.received()} >= {
        "products.create",
        "prices.create",
        "checkout.sessions.create",
    }


def test_vat_id_attached_before_checkout_gives_reverse_charge(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    """The product's way: the VAT ID checked on /start goes onto the customer first."""
    customer = client.v1.customers.create(params={"email": "d@example.com", "name": "Dana"})
    client.v1.customers.tax_ids.create(
        customer.id, params={"type": "eu_vat", "value": "NL123456789B01"}
    )
    cs = session(
        client,
        price(client, 10000, "exclusive").id,
        customer=customer.id,
        customer_update={"address": "auto", "name": "auto"},
        invoice_creation={"enabled": True},
        **BUSINESS,
    )
    fake.pay(cs.id, country="NL", line1="Dam 1", postal_code="1012", city="Amsterdam")
    done = paid(client, cs.id)
    assert done.total_details.amount_tax == 0 and done.customer_details.tax_exempt == "reverse"
    assert [t.value for t in done.customer_details.tax_ids] == ["NL123456789B01"]
    invoice = client.v1.invoices.retrieve(done.invoice)
    assert invoice.customer_tax_exempt == "reverse"
    assert invoice.customer_address.country == "NL"
    assert client.v1.customers.retrieve(customer.id).address.city == "Amsterdam"


def test_open_invoices_can_be_voided_or_marked_uncollectible(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    p = price(client, 2900, recurring=True)
    cs = session(client, p.id, "subscription", customer_email="v@example.com")
    fake.pay(cs.id)
    sub_id = client.v1.checkout.sessions.retrieve(cs.id).subscription
    paid_invoice = client.v1.checkout.sessions.retrieve(cs.id).invoice
    failed = fake.fail(sub_id)
    open_id = failed["latest_invoice"]
    lines = client.v1.invoices.line_items.list(open_id)
    assert lines.data[0].amount == 2900
    by_sub = client.v1.invoices.list(params={"subscription": sub_id})
    assert {i.id for i in by_sub.data} == {paid_invoice, open_id}
    with pytest.raises(stripe.InvalidRequestError) as info:
        client.v1.invoices.void_invoice(paid_invoice)
    assert info.value.code == "invoice_not_open"
    marked = client.v1.invoices.mark_uncollectible(open_id)
    assert marked.status == "uncollectible" and marked.status_transitions.marked_uncollectible_at
    assert receiver.types()[-1] == "invoice.marked_uncollectible"


def test_void_an_open_invoice(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    p = price(client, 2900, recurring=True)
    cs = session(client, p.id, "subscription", customer_email="w@example.com")
    fake.pay(cs.id)
    sub_id = client.v1.checkout.sessions.retrieve(cs.id).subscription
    open_id = fake.fail(sub_id)["latest_invoice"]
    voided = client.v1.invoices.void_invoice(open_id)
    assert voided.status == "void" and voided.amount_remaining == 0
    assert receiver.types()[-1] == "invoice.voided"


def test_a_pending_vat_id_verified_later(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    customer = client.v1.customers.create(params={"name": "Delta SRL"})
    pending = client.v1.customers.tax_ids.create(
        customer.id, params={"type": "eu_vat", "value": "RO222222222"}
    )
    assert receiver.types() == ["customer.tax_id.created"]
    done = fake.verify_tax_id(pending.id)
    assert done["verification"]["status"] == "verified"
    assert done["verification"]["verified_name"] == "Delta SRL"
    event = receiver.events()[-1]
    assert event.type == "customer.tax_id.updated"
    assert event.data.previous_attributes.verification.status == "pending"
    answer = httpx.post(
        f"{fake.base_url}/_fake/tax_ids/{pending.id}/verification", json={"status": "unverified"}
    )
    assert answer.json()["verification"]["status"] == "unverified"
    assert client.v1.customers.tax_ids.retrieve(customer.id, pending.id).verification.status == (
        "unverified"
    )


def test_mixed_lines_are_taxed_line_by_line(client: stripe.StripeClient, fake: FakeStripe) -> None:
    gross, net = price(client, 2900), price(client, 1000, "exclusive")
    cs = client.v1.checkout.sessions.create(
        params={
            "mode": "payment",
            "customer_email": "m@example.com",
            "line_items": [{"price": gross.id, "quantity": 2}, {"price": net.id, "quantity": 1}],
            "invoice_creation": {"enabled": True},
            "automatic_tax": {"enabled": True},
        }
    )
    fake.pay(cs.id)
    done = paid(client, cs.id)
    # 5800 gross holds 926 (5800 * 19 / 119 = 926.05); 1000 net gets 190 on top.
    assert [li.amount_tax for li in done.line_items.data] == [926, 190]
    assert (done.amount_subtotal, done.total_details.amount_tax, done.amount_total) == (
        6800,
        1116,
        6990,
    )
    invoice = client.v1.invoices.retrieve(done.invoice)
    assert (invoice.subtotal, invoice.total, invoice.total_excluding_tax) == (6800, 6990, 5874)
    assert invoice.subtotal_excluding_tax == 5874
    assert sorted((t.tax_behavior, t.amount) for t in invoice.total_taxes) == [
        ("exclusive", 190),
        ("inclusive", 926),
    ]
    assert sum(t.amount for t in invoice.total_taxes) == sum(
        t.amount for line in invoice.lines.data for t in line.taxes
    )


@functools.cache
def _offline_fake() -> FakeStripe:
    return FakeStripe()


@given(
    amount=st.integers(min_value=0, max_value=10**9),
    rate=st.sampled_from(sorted(set(EU_RATES.values()))),
    inclusive=st.booleans(),
)
def test_line_tax_arithmetic(amount: int, rate: int, inclusive: bool) -> None:
    fake_ = _offline_fake()
    decision = {"rate": rate, "reason": "standard_rated", "country": "DE", "exempt": "none"}
    behavior = "inclusive" if inclusive else "exclusive"
    tax = fake_._line_tax(amount, {"tax_behavior": behavior, "currency": "eur"}, decision)
    assert tax is not None
    exact = Fraction(amount * rate, 10000 + rate if inclusive else 10000)
    assert abs(tax["amount"] - exact) <= Fraction(1, 2)
    if inclusive:
        assert tax["amount"] + tax["taxable_amount"] == amount
    else:
        assert tax["taxable_amount"] == amount
