"""The tax and invoice events billing handles (refunds, credit notes, customers' tax IDs): each
applied once, converging in any order, unknown objects ignored with the reason, and their
shapes checked before anything is stored."""

from __future__ import annotations

from typing import Any

import pytest

from agency.modules.billing.models import CustomerTaxId, Order, WebhookEvent
from agency.modules.billing.service import effects
from agency.modules.billing.service.order_numbers import order_number
from agency.modules.invoices import api as invoices_api
from agency.modules.invoices.models import Invoice
from tests.billing.conftest import checkout, deliver
from tests.fakes.stripe_contract import enum_values
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import call, signed_up

BERLIN = {"country": "DE", "line1": "Unter den Linden 1", "postal_code": "10117", "city": "Berlin"}


async def _deliver_all(client: Any, events: list[dict[str, Any]]) -> None:
    for event in events:
        response = await deliver(client, event)
        assert response.status_code == 200, await response.get_data(as_text=True)


async def _bought(shop: Any, fake: FakeStripe, email: str, **body: Any) -> tuple[Any, Order]:
    client = await signed_up(shop.app, email)
    status, data = await checkout(client, "pro-ai", **body)
    assert status == 200, data
    cs = data["url"].rstrip("/").rsplit("/", 1)[1]
    pay: dict[str, Any] = dict(BERLIN)
    if body.get("buyer_type") == "business":
        pay["tax_id"] = "DE136695976"
    await fake.pay_async(cs, **pay)
    await _deliver_all(client, fake.events())
    return client, await Order.get(checkout_session_id=cs)


async def test_refunds_mark_the_order_and_the_invoice(tax_shop: Any, fake: FakeStripe) -> None:
    client, order = await _bought(tax_shop, fake, "refund@example.de")
    before = len(fake.events())
    await fake.refund_async(order.payment_intent_id or "", 20000)
    refunded = fake.events()[before:]
    assert "charge.refunded" in {e["type"] for e in refunded}
    await _deliver_all(client, refunded + refunded)  # Stripe delivers twice: applied once
    await order.refresh_from_db()
    assert (order.status, order.amount_refunded) == ("paid", 20000)
    [invoice] = (await invoices_api.invoices_for_user(client.user_id)).invoices
    assert (invoice.status, invoice.refunded) == ("partially_refunded", 20000)
    _, orders = await call(client, "get", "/api/billing/orders")
    assert [(o["status"], o["amount_refunded"]) for o in orders["orders"]] == [("paid", 20000)]

    before = len(fake.events())
    await fake.refund_async(order.payment_intent_id or "")  # the rest
    await _deliver_all(client, fake.events()[before:])
    await order.refresh_from_db()
    assert (order.status, order.amount_refunded) == ("refunded", order.amount)
    [invoice] = (await invoices_api.invoices_for_user(client.user_id)).invoices
    assert (invoice.status, invoice.refunded) == ("refunded", order.amount)


async def test_a_credit_note_is_stored_beside_its_invoice(tax_shop: Any, fake: FakeStripe) -> None:
    client, order = await _bought(tax_shop, fake, "credit@example.de")
    gateway = tax_shop.app.extensions["billing.gateway"]
    before = len(fake.events())
    await gateway.client.v1.credit_notes.create_async(
        params={"invoice": order.invoice_id, "amount": 11900, "refund_amount": 11900}
    )
    events = fake.events()[before:]
    assert "credit_note.created" in {e["type"] for e in events}
    await _deliver_all(client, events)
    listing = (await invoices_api.invoices_for_user(client.user_id)).invoices
    notes = [i for i in listing if i.kind == "credit_note"]
    assert [(n.gross, n.vat) for n in notes] == [(11900, 1900)]


async def test_tax_id_events_in_any_order_converge_and_deletion_sticks(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app, "ids@example.fr")
    status, data = await checkout(client, "pro-ai", buyer_type="business", vat_id="FR40303265045")
    assert status == 200, data
    events = [e for e in fake.events() if e["type"].startswith("customer.tax_id.")]
    assert [e["type"] for e in events] == ["customer.tax_id.created", "customer.tax_id.updated"]
    await _deliver_all(client, list(reversed(events)))  # the update first: refetched, the same
    [row] = await CustomerTaxId.all()
    assert (row.user_id, row.type, row.value) == (client.user_id, "eu_vat", "FR40303265045")
    assert (row.verification_status, row.verified_name) == ("verified", row.verified_name)
    assert row.verified_name

    gateway = tax_shop.app.extensions["billing.gateway"]
    before = len(fake.events())
    await gateway.client.v1.customers.tax_ids.delete_async(row.stripe_customer_id, row.id)
    [deleted] = fake.events()[before:]
    await _deliver_all(client, [deleted])
    assert await CustomerTaxId.all().count() == 0
    # A late copy of the creation (a new id: a redelivery after the deletion) changes nothing.
    late = {**events[0], "id": events[0]["id"] + "late"}
    response = await deliver(client, late)
    assert (await response.get_json())["outcome"] == "ignored"
    assert await CustomerTaxId.all().count() == 0
    stored = await WebhookEvent.get(id=late["id"])
    assert "unknown at Stripe" in (stored.error or "")


def _event(kind: str, obj: dict[str, Any], event_id: str = "evt_tax_1") -> dict[str, Any]:
    return {
        "id": event_id,
        "object": "event",
        "type": kind,
        "created": 1_700_000_000,
        "data": {"object": obj},
    }


async def test_unknown_tax_objects_are_ignored_with_the_reason(tax_shop: Any) -> None:
    client = tax_shop.test_client()
    cases = [
        (
            _event(
                "customer.tax_id.created",
                {"id": "txi_nobody", "object": "tax_id", "customer": "cus_nobody"},
                "evt_a",
            ),
            "none of ours",
        ),
        (_event("credit_note.created", {"id": "cn_never"}, "evt_b"), "cn_never"),
        (_event("charge.refunded", {"id": "ch_never"}, "evt_c"), "ch_never"),
        (_event("invoice.finalized", {"id": "in_never"}, "evt_d"), "in_never"),
    ]
    for event, reason in cases:
        response = await deliver(client, event)
        assert response.status_code == 200
        assert (await response.get_json())["outcome"] == "ignored"
        stored = await WebhookEvent.get(id=event["id"])
        assert reason in (stored.error or ""), stored.error


@pytest.mark.parametrize(
    ("kind", "obj", "where"),
    [
        ("customer.tax_id.updated", {"id": ["txi_1"]}, "data.object.id"),
        ("customer.tax_id.updated", {"id": "txi_1", "customer": ["cus_1"]}, "data.object.customer"),
        ("credit_note.created", {"customer": "cus_1"}, "data.object.id"),
        ("charge.refunded", {"id": "ch_1", "payment_intent": 42}, "data.object.payment_intent"),
        ("invoice.voided", {"id": {"id": "in_1"}}, "data.object.id"),
    ],
)
async def test_malformed_tax_events_are_refused_before_anything_is_stored(
    tax_shop: Any, kind: str, obj: dict[str, Any], where: str
) -> None:
    response = await deliver(tax_shop.test_client(), _event(kind, obj))
    assert response.status_code == 400
    assert where in (await response.get_json())["error"]["message"]
    assert await WebhookEvent.all().count() == 0


def test_every_handled_event_is_one_the_webhook_endpoint_can_subscribe_to() -> None:
    from stripe.params._webhook_endpoint_create_params import WebhookEndpointCreateParams

    allowed = enum_values(WebhookEndpointCreateParams, "enabled_events")
    assert set(allowed) >= effects.HANDLED


async def test_a_renewal_invoice_is_stored_with_the_subscriptions_order(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app, "renew@example.de")
    status, data = await checkout(client, "professional")
    assert status == 200, data
    await fake.pay_async(data["url"].rstrip("/").rsplit("/", 1)[1], **BERLIN)
    await _deliver_all(client, fake.events())
    [order] = await Order.filter(user_id=client.user_id)
    before = len(fake.events())
    await fake.renew_async(order.subscription_id or "")
    await _deliver_all(client, fake.events()[before:])
    invoices = (await invoices_api.invoices_for_user(client.user_id)).invoices
    assert [(i.gross, i.vat, i.status) for i in invoices] == [(2900, 463, "paid")] * 2
    stored = await Invoice.filter(user_id=client.user_id)
    assert {i.order_number for i in stored} == {order_number(order.id)}
