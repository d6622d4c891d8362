"""A failed renewal payment (Stripe's invoice.payment_failed) notifies the customer once; the
payment that succeeds afterwards adds nothing."""

from __future__ import annotations

from typing import Any

from agency.modules.billing.models import Subscription
from agency.modules.notifications.models import Notification
from tests.billing.conftest import deliver
from tests.billing.test_purchase import buy
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import call, sign_up


async def test_a_failed_renewal_notifies_the_customer_once(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    for event in await buy(fake, client, "starter"):
        await deliver(client, event)
    assert (await call(client, "get", "/api/notifications"))[1]["unread"] == 0
    subscription = await Subscription.get()
    before = len(fake.events())
    await fake.fail_async(subscription.id)
    failed = fake.events()[before:]
    assert "invoice.payment_failed" in [event["type"] for event in failed]
    for event in failed + failed:  # Stripe may deliver an event twice
        await deliver(client, event)
    _, data = await call(client, "get", "/api/notifications")
    assert data["unread"] == 1
    [notice] = data["notifications"]
    assert (notice["kind"], notice["title"], notice["link"]) == (
        "payment_failed",
        "Your payment failed",
        "/dashboard/billing",
    )
    assert "update your payment method" in notice["body"]
    before = len(fake.events())
    await fake.renew_async(subscription.id)
    for event in fake.events()[before:]:
        await deliver(client, event)
    assert await Notification.all().count() == 1
