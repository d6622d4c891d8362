"""Signed events the program cannot act on are recorded and answered 200 as ignored, with the
reason, once and for all: a 5xx would make Stripe retry them for days."""

from __future__ import annotations

from typing import Any

from agency.modules.billing.models import Customer, Order, Subscription, WebhookEvent
from tests.billing.conftest import deliver
from tests.billing.test_purchase import buy
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import sign_up


def _event(event_id: str, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": event_id,
        "object": "event",
        "type": kind,
        "created": 1_700_000_000,
        "livemode": False,
        "data": {"object": obj},
    }


async def _delivered_twice_as_ignored(client: Any, event: dict[str, Any], reason: str) -> None:
    first = await deliver(client, event)
    assert first.status_code == 200, await first.get_data(as_text=True)
    assert (await first.get_json())["outcome"] == "ignored"
    stored = await WebhookEvent.get(id=event["id"])
    assert stored.status == "ignored"
    assert reason in (stored.error or ""), stored.error
    again = await deliver(client, event)  # Stripe's redelivery
    assert again.status_code == 200
    assert (await again.get_json())["outcome"] == "duplicate"
    assert await WebhookEvent.filter(id=event["id"]).count() == 1


def _price_id(fake: FakeStripe) -> str:
    return next(
        obj["id"]
        for obj in fake.objects.values()
        if obj.get("object") == "price" and obj.get("type") == "one_time" and obj.get("active")
    )


async def test_a_checkout_created_outside_the_program_is_ignored(
    shop: Any, fake: FakeStripe
) -> None:
    """A payment link or a session made in Stripe's dashboard: no client_reference_id, no
    metadata, a customer we never created."""
    gateway = shop.app.extensions["billing.gateway"]
    session = await gateway.create_checkout_session(
        {
            "mode": "payment",
            "line_items": [{"price": _price_id(fake), "quantity": 1}],
            "success_url": "http://elsewhere.test/ok",
            "cancel_url": "http://elsewhere.test/no",
        }
    )
    assert session.get("client_reference_id") is None
    before = len(fake.events())
    await fake.pay_async(session["id"])
    completed = next(e for e in fake.events()[before:] if e["type"] == "checkout.session.completed")
    client = shop.test_client()
    await _delivered_twice_as_ignored(client, completed, "no known user")
    assert await Order.all().count() == 0


async def test_a_checkout_stripe_does_not_know_is_ignored(shop: Any) -> None:
    event = _event(
        "evt_unknown_session",
        "checkout.session.completed",
        {"id": "cs_test_never_made", "object": "checkout.session", "client_reference_id": None},
    )
    await _delivered_twice_as_ignored(shop.test_client(), event, "cs_test_never_made")


async def test_an_unknown_subscription_is_ignored(shop: Any) -> None:
    event = _event(
        "evt_unknown_subscription",
        "customer.subscription.updated",
        {"id": "sub_never_made", "object": "subscription", "customer": "cus_nobody"},
    )
    await _delivered_twice_as_ignored(shop.test_client(), event, "sub_never_made")
    assert await Subscription.all().count() == 0


async def test_an_invoice_of_an_unknown_subscription_is_ignored(shop: Any) -> None:
    event = _event(
        "evt_unknown_invoice",
        "invoice.paid",
        {
            "id": "in_never_made",
            "object": "invoice",
            "customer": "cus_nobody",
            "subscription": "sub_also_never_made",
        },
    )
    await _delivered_twice_as_ignored(shop.test_client(), event, "sub_also_never_made")


async def test_a_subscription_of_an_unknown_customer_is_ignored(
    shop: Any, fake: FakeStripe
) -> None:
    """The subscription exists at Stripe, but its customer is nobody we know."""
    client = shop.test_client()
    await sign_up(client)
    events = await buy(fake, client, "professional")
    created = next(e for e in events if e["type"] == "customer.subscription.created")
    subscription = fake.objects[created["data"]["object"]["id"]]
    subscription["metadata"] = {}
    await Customer.all().delete()  # a customer that is not one of ours
    await _delivered_twice_as_ignored(client, created, "unknown customer")
    assert await Subscription.all().count() == 0


async def test_a_known_event_still_applies_after_ignored_ones(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    events = await buy(fake, client, "pro-ai")
    for event in events:
        assert (await deliver(client, event)).status_code == 200
    assert await Order.all().count() == 1
