# ruff: noqa: F811  (the fixtures imported from test_stripe_fake are parameters here)
"""The contract between the fake Stripe and the pinned stripe SDK (offline, version-locked):
every parameter the fake accepts is one the SDK's request types have, and every field the fake
returns exists on the SDK's resource types with its enum values in their Literal lists."""

from __future__ import annotations

from typing import Any

import pytest
import stripe

from tests.fakes.stripe_contract import (
    ENDPOINTS,
    assert_valid_params,
    enum_values,
    object_errors,
    param_errors,
    param_paths,
    resource_type,
)
from tests.fakes.stripe_server import ALLOWED, ALLOWED_NESTED, FakeStripe
from tests.fakes.test_stripe_fake import (  # noqa: F401  (fixtures)
    Receiver,
    client,
    fake,
    receiver,
    server,
)
from tests.fakes.test_stripe_fake_tax import BUSINESS, TAXED, price, session

pytestmark = pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning")

# The fake's lists of accepted top-level parameters, by the SDK endpoint they belong to.
ACCEPTED = {
    "customer_create": "customers.create",
    "customer_update": "customers.update",
    "product_create": "products.create",
    "price_create": "prices.create",
    "price_update": "prices.update",
    "session_create": "checkout.sessions.create",
    "portal_create": "billing_portal.sessions.create",
    "subscription_update": "subscriptions.update",
    "subscription_cancel": "subscriptions.cancel",
    "tax_id_create": "customers.tax_ids.create",
    "refund_create": "refunds.create",
    "credit_note_create": "credit_notes.create",
    "registration_create": "tax.registrations.create",
    "registration_update": "tax.registrations.update",
    "coupon_create": "coupons.create",
}


def test_every_parameter_the_fake_accepts_is_in_the_sdk() -> None:
    assert set(ACCEPTED) == set(ALLOWED)
    for key, endpoint in ACCEPTED.items():
        top = {p for p in param_paths(endpoint) if "." not in p}
        assert ALLOWED[key] <= top, (endpoint, sorted(ALLOWED[key] - top))
    for endpoint, paths in ALLOWED_NESTED.items():
        assert paths <= param_paths(endpoint), (endpoint, sorted(paths - param_paths(endpoint)))


def test_the_walk_reaches_the_tax_parameters() -> None:
    paths = param_paths("checkout.sessions.create")
    assert {
        "automatic_tax.enabled",
        "tax_id_collection.required",
        "customer_update.name",
        "invoice_creation.invoice_data.footer",
        "invoice_creation.invoice_data.custom_fields.value",
        "consent_collection.terms_of_service",
        "line_items.price",
    } <= paths
    assert "country_options.de.standard.place_of_supply_scheme" in param_paths(
        "tax.registrations.create"
    )
    assert set(ENDPOINTS) >= set(ACCEPTED.values())


@pytest.mark.parametrize(
    ("endpoint", "params", "problem"),
    [
        ("checkout.sessions.create", {"automatic_tax": {"enable": True}}, "automatic_tax.enable"),
        ("checkout.sessions.create", {"ui_mode": "hosted"}, "ui_mode"),
        ("checkout.sessions.create", {"tax_id_collection": {"required": "always"}}, "required"),
        ("checkout.sessions.create", {"line_items": [{"prize": "x"}]}, "line_items[0].prize"),
        ("checkout.sessions.create", {"customer_update": {"address": "yes"}}, "address"),
        ("prices.create", {"tax_behavior": "gross"}, "tax_behavior"),
        ("prices.create", {"unit_amount": "twelve"}, "unit_amount"),
        ("customers.tax_ids.create", {"type": "vat", "value": "DE1"}, "type"),
        ("customers.update", {"tax_exempt": "yes"}, "tax_exempt"),
        ("refunds.create", {"reason": "changed_mind"}, "reason"),
        ("credit_notes.create", {"lines": [{"type": "custom"}]}, "lines[0].type"),
        ("tax.registrations.create", {"country_options": {"de": {"type": "oss"}}}, "type"),
    ],
)
def test_invalid_parameters_are_named(endpoint: str, params: dict[str, Any], problem: str) -> None:
    errors = param_errors(endpoint, params)
    assert len(errors) == 1 and problem in errors[0], errors
    with pytest.raises(AssertionError, match=endpoint.replace(".", r"\.")):
        assert_valid_params(endpoint, params)


def test_valid_parameters_pass_as_python_values_and_as_form_strings() -> None:
    assert_valid_params(
        "checkout.sessions.create",
        {
            "mode": "payment",
            "customer": "cus_1",
            "line_items": [{"price": "price_1", "quantity": 1}],
            "automatic_tax": {"enabled": True},
            "tax_id_collection": {"enabled": "true", "required": "if_supported"},
            "billing_address_collection": "required",
            "customer_update": {"address": "auto", "name": "auto"},
            "invoice_creation": {
                "enabled": True,
                "invoice_data": {
                    "footer": "x",
                    "metadata": {"order": "A-1"},
                    "custom_fields": [{"name": "a", "value": "b"}],
                },
            },
            "metadata": {"plan": "x"},
            "locale": "de",
            "payment_intent_data": {"metadata": {"a": "b"}},
        },
    )
    assert_valid_params("prices.create", {"unit_amount": "2900", "tax_behavior": "inclusive"})
    assert_valid_params("customers.update", {"address": {"country": "DE"}, "tax_exempt": "none"})


def _everything(client: stripe.StripeClient, fake: FakeStripe) -> list[dict[str, Any]]:
    """Drive every kind of object and event the fake makes; return what it answered."""
    answers: list[Any] = []
    registration = client.v1.tax.registrations.create(
        params={
            "country": "DE",
            "active_from": "now",
            "country_options": {"de": {"type": "oss_union"}},
        }
    )
    answers.append(registration)
    customer = client.v1.customers.create(
        params={
            "email": "c@example.com",
            "name": "C",
            "address": {"country": "FR", "line1": "1 rue", "city": "Paris", "postal_code": "75001"},
            "tax_exempt": "none",
            "invoice_settings": {"footer": "Footer"},
        }
    )
    answers.append(customer)
    answers.append(
        client.v1.customers.tax_ids.create(
            customer.id, params={"type": "eu_vat", "value": "FR12345678901"}
        )
    )
    one_time = price(client, 10000, "exclusive")
    monthly = price(client, 2900, recurring=True)
    answers += [one_time, monthly]
    cs = session(
        client,
        one_time.id,
        customer=customer.id,
        customer_update={"address": "auto", "name": "auto"},
        invoice_creation={
            "enabled": True,
            "invoice_data": {"footer": "F", "custom_fields": [{"name": "a", "value": "b"}]},
        },
        consent_collection={"terms_of_service": "required"},
        custom_text={"submit": {"message": "Order"}},
        locale="fr",
        **BUSINESS,
    )
    answers.append(cs)
    fake.pay(cs.id, country="FR", line1="1 rue", city="Paris", postal_code="75001",
             business_name="SARL", tax_id="FR12345678901")  # fmt: skip
    sub_cs = session(client, monthly.id, "subscription", customer_email="s@example.com", **TAXED)
    fake.pay(sub_cs.id)
    done = client.v1.checkout.sessions.retrieve(
        cs.id, params={"expand": ["total_details.breakdown", "line_items", "invoice"]}
    )
    answers.append(done)
    sub_done = client.v1.checkout.sessions.retrieve(sub_cs.id)
    fake.renew(sub_done.subscription)
    failed = fake.fail(sub_done.subscription)
    answers.append(client.v1.invoices.void_invoice(failed["latest_invoice"]))
    answers.append(client.v1.invoices.line_items.list(failed["latest_invoice"]))
    invoice = client.v1.invoices.retrieve(done.invoice.id, params={"expand": ["payments"]})
    answers.append(invoice)
    answers.append(client.v1.tax_rates.retrieve(invoice.total_taxes[0].tax_rate_details.tax_rate))
    note = client.v1.credit_notes.create(
        params={"invoice": invoice.id, "amount": 1000, "refund_amount": 1000, "reason": "duplicate"}
    )
    answers.append(note)
    answers.append(client.v1.credit_notes.void_credit_note(note.id))
    refund = client.v1.refunds.create(params={"payment_intent": done.payment_intent, "amount": 500})
    answers.append(refund)
    answers.append(client.v1.charges.retrieve(refund.charge, params={"expand": ["refunds"]}))
    answers.append(client.v1.customers.retrieve(customer.id, params={"expand": ["tax_ids"]}))
    answers.append(client.v1.customers.tax_ids.list(customer.id))
    answers.append(client.v1.tax.registrations.list())
    answers.append(client.v1.invoices.list())
    answers.append(client.v1.credit_notes.list())
    answers.append(client.v1.billing_portal.sessions.create(params={"customer": customer.id}))
    return [a.to_dict() if hasattr(a, "to_dict") else a for a in answers]


def test_every_field_the_fake_returns_is_in_the_sdk(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    answers = _everything(client, fake)
    errors: list[str] = []
    for answer in answers:
        errors += object_errors(answer)
    for object_id in list(fake.objects):
        errors += object_errors(fake.get(object_id))
    kinds = {fake.get(i)["object"] for i in fake.objects}
    assert kinds >= {
        "checkout.session",
        "invoice",
        "tax_id",
        "tax_rate",
        "credit_note",
        "refund",
        "charge",
        "customer",
        "price",
        "subscription",
        "payment_intent",
    }
    for event in fake.events():
        errors += object_errors(event)
        previous = event["data"].get("previous_attributes") or {}
        kind = event["data"]["object"]["object"]
        errors += [
            f"{event['type']}.previous_attributes.{k}"
            for k in previous
            if k not in resource_type(kind).__annotations__
        ]
    assert not errors, "\n".join(errors)
    types = {e["type"] for e in fake.events()}
    assert types >= {
        "customer.tax_id.created",
        "customer.tax_id.updated",
        "invoice.created",
        "invoice.finalized",
        "invoice.paid",
        "invoice.payment_succeeded",
        "invoice.payment_failed",
        "invoice.voided",
        "credit_note.created",
        "credit_note.voided",
        "refund.created",
        "charge.refunded",
        "checkout.session.completed",
    }
    # Event types are Stripe's own (the webhook endpoint's list in the pinned SDK).
    from stripe.params._webhook_endpoint_create_params import WebhookEndpointCreateParams

    allowed = enum_values(WebhookEndpointCreateParams, "enabled_events")
    assert types <= set(allowed), sorted(types - set(allowed))


def test_every_parameter_sent_to_the_fake_was_valid(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    _everything(client, fake)
    received = fake.received()
    assert {r["endpoint"] for r in received} >= {
        "checkout.sessions.create",
        "customers.create",
        "customers.tax_ids.create",
        "prices.create",
        "refunds.create",
        "credit_notes.create",
        "tax.registrations.create",
    }
    for record in received:
        assert_valid_params(record["endpoint"], record["params"])
