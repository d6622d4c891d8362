"""Purchases end to end at the API level: checkout against our fake Stripe over HTTP, the
fake's stored events delivered to our webhook endpoint, and what the dashboard then reads."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.core.ratelimit import RateCounter
from agency.modules.billing.models import Order, Subscription, WebhookEvent
from agency.modules.sites import api as sites_api
from tests.billing.conftest import VISITOR, checkout, deliver, signature
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import HEADERS, call, sign_up


def session_id(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


async def buy(fake: FakeStripe, client: Any, plan: str, **body: Any) -> list[dict[str, Any]]:
    """Check out, pay on the fake; returns the events Stripe would send, in its order."""
    status, data = await checkout(client, plan, **body)
    assert status == 200, data
    before = len(fake.events())
    await fake.pay_async(session_id(data["url"]))
    return fake.events()[before:]


async def test_visitor_buys_professional_and_the_dashboard_shows_it(
    shop: Any, fake: FakeStripe
) -> None:
    client = shop.test_client()
    events = await buy(fake, client, "professional", domain="https://www.ada-shop.com/", **VISITOR)
    assert {e["type"] for e in events} >= {
        "customer.subscription.created",
        "invoice.paid",
        "checkout.session.completed",
    }
    me = await call(client, "get", "/api/auth/me")  # the account was created and signed in
    assert me[0] == 200 and me[1]["user"]["first_name"] == "Ada"
    assert (await call(client, "get", "/api/billing/subscription"))[1] == {"subscription": None}

    for event in events:
        response = await deliver(client, event)
        assert response.status_code == 200, await response.get_data()

    _, data = await call(client, "get", "/api/billing/subscription")
    subscription = data["subscription"]
    assert subscription["subscription_status"] == "active"
    assert (
        subscription["plan_name"] == "Professional" and subscription["plan_key"] == "professional"
    )
    assert (subscription["payment_method_brand"], subscription["payment_method_last4"]) == (
        "visa",
        "4242",
    )
    assert subscription["current_period_end"] > 0
    _, orders = await call(client, "get", "/api/billing/orders")
    assert [(o["plan_key"], o["amount"], o["currency"]) for o in orders["orders"]] == [
        ("professional", 2900, "EUR")
    ]
    _, sites = await call(client, "get", "/api/sites")
    assert [(w["domain"], w["status"]) for w in sites["websites"]] == [("ada-shop.com", "building")]


async def test_one_time_plan_becomes_an_order(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    events = await buy(fake, client, "pro-ai")
    for event in events:
        assert (await deliver(client, event)).status_code == 200
    _, orders = await call(client, "get", "/api/billing/orders")
    assert [(o["plan_name"], o["amount"], o["card_last4"]) for o in orders["orders"]] == [
        ("Pro AI", 99900, "4242")
    ]
    assert (await call(client, "get", "/api/billing/subscription"))[1] == {"subscription": None}


async def test_the_return_to_success_alone_records_nothing(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    _status, data = await checkout(client, "pro-ai")
    cs = session_id(data["url"])
    await fake.pay_async(cs)  # paid at Stripe, but no webhook has arrived yet
    _, state = await call(client, "get", f"/api/billing/checkout/{cs}")
    assert state["status"] == "pending"
    assert await Order.all().count() == 0
    for event in fake.events():
        await deliver(client, event)
    _, state = await call(client, "get", f"/api/billing/checkout/{cs}")
    assert (state["status"], state["plan_name"]) == ("paid", "Pro AI")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"plan": ""}, "Please select a package"),
        ({"plan": "professional"}, "Please fill in all required fields"),
        (
            {"plan": "professional", **VISITOR, "full_name": " "},
            "Please fill in all required fields",
        ),
        ({"plan": "no-such-plan", **VISITOR}, "Please select a valid package"),
        ({"plan": "growth-funnel", **VISITOR}, "Please select a valid package"),
        (
            {"plan": "professional", **VISITOR, "password": "12345"},
            "Password must be at least 6 characters",
        ),
        (
            {"plan": "professional", **VISITOR, "domain": "not a domain"},
            "Please enter a valid domain (e.g., example.com)",
        ),
    ],
)
async def test_checkout_messages(shop: Any, body: dict[str, str], message: str) -> None:
    client = shop.test_client()
    response = await client.post("/api/billing/checkout", json=body, headers=HEADERS)
    assert response.status_code == 400
    assert (await response.get_json())["error"]["message"] == message


async def test_registered_email_needs_its_password(shop: Any, fake: FakeStripe) -> None:
    owner = shop.test_client()
    await sign_up(owner, email="ada@example.com")
    stranger = shop.test_client()
    status, data = await checkout(stranger, "professional", **{**VISITOR, "password": "guessing"})
    assert status == 409
    assert data["error"] == {
        "code": "email_registered",
        "message": "This email is already registered.",
        "fields": {"email": "This email is already registered."},
    }
    status, data = await checkout(stranger, "professional", **VISITOR)  # the right password
    assert status == 200 and data["url"].startswith(fake.base_url)
    assert (await call(stranger, "get", "/api/auth/me"))[1]["user"]["email"] == "ada@example.com"


async def test_the_stripe_customer_is_created_once(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    await checkout(client, "pro-ai")
    await checkout(client, "starter-clip")
    sessions = [o for o in fake.objects.values() if o.get("object") == "checkout.session"]
    assert len({s["customer"] for s in sessions}) == 1
    assert len([o for o in fake.objects.values() if o.get("object") == "customer"]) == 1


async def test_an_active_subscriber_is_not_charged_twice(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    for event in await buy(fake, client, "professional"):
        await deliver(client, event)
    status, data = await checkout(client, "professional")
    assert status == 409 and data["error"]["code"] == "already_subscribed"


@pytest.mark.parametrize("problem", ["missing", "wrong secret", "stale", "tampered"])
async def test_bad_signatures_answer_400_and_store_nothing(
    shop: Any, fake: FakeStripe, problem: str
) -> None:
    client = shop.test_client()
    await sign_up(client)
    event = (await buy(fake, client, "pro-ai"))[-1]
    payload = json.dumps(event)
    header = {
        "missing": "",
        "wrong secret": signature(payload, secret="whsec_other"),
        "stale": signature(payload, at=int(event["created"]) - 301),
        "tampered": signature(payload.replace("paid", "unpaid")),
    }[problem]
    response = await client.post(
        "/api/billing/webhook",
        data=payload,
        headers={"Content-Type": "application/json", "Stripe-Signature": header},
    )
    assert response.status_code == 400
    assert (await response.get_json())["error"]["code"] == "bad_signature"
    assert await WebhookEvent.all().count() == 0 and await Order.all().count() == 0


async def test_unknown_event_types_answer_200(shop: Any) -> None:
    client = shop.test_client()
    event = {
        "id": "evt_unknown_1",
        "object": "event",
        "type": "customer.tax_id.created",
        "created": 1,
        "data": {"object": {"id": "txi_1"}},
    }
    response = await deliver(client, event)
    assert response.status_code == 200
    assert (await response.get_json())["outcome"] == "ignored"


async def test_duplicates_even_concurrent_apply_once(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    events = await buy(fake, client, "pro-ai")
    completed = next(e for e in events if e["type"] == "checkout.session.completed")
    responses = await asyncio.gather(*(deliver(client, completed) for _ in range(4)))
    assert [r.status_code for r in responses] == [200] * 4
    outcomes = sorted([(await r.get_json())["outcome"] for r in responses])
    assert outcomes == ["duplicate", "duplicate", "duplicate", "processed"]
    assert await Order.all().count() == 1


async def test_our_failure_answers_5xx_then_a_retry_applies(
    shop: Any, fake: FakeStripe, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = shop.test_client()
    await sign_up(client)
    events = await buy(fake, client, "pro-ai")
    completed = next(e for e in events if e["type"] == "checkout.session.completed")
    gateway = shop.app.extensions["billing.gateway"]
    real = gateway.retrieve_checkout_session

    async def broken(_session_id: str) -> Any:
        raise ConnectionError("Stripe unreachable")

    monkeypatch.setattr(gateway, "retrieve_checkout_session", broken)
    assert (await deliver(client, completed)).status_code == 503  # unreachable: 503; Stripe retries
    stored = await WebhookEvent.get(id=completed["id"])
    assert stored.status == "failed" and "Stripe unreachable" in (stored.error or "")
    monkeypatch.setattr(gateway, "retrieve_checkout_session", real)
    assert (await deliver(client, completed)).status_code == 200  # Stripe's retry
    assert await Order.all().count() == 1


async def test_expired_checkout(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    _, data = await checkout(client, "pro-ai")
    cs = session_id(data["url"])
    gateway = shop.app.extensions["billing.gateway"]
    await gateway.client.v1.checkout.sessions.expire_async(cs)
    for event in fake.events("checkout.session.expired"):
        await deliver(client, event)
    assert (await call(client, "get", f"/api/billing/checkout/{cs}"))[1]["status"] == "expired"


async def test_renewal_failure_and_portal(shop: Any, fake: FakeStripe) -> None:
    client = shop.test_client()
    await sign_up(client)
    for event in await buy(fake, client, "starter"):
        await deliver(client, event)
    subscription = await Subscription.get()
    first_end = subscription.current_period_end
    before = len(fake.events())
    await fake.fail_async(subscription.id)
    for event in fake.events()[before:]:
        await deliver(client, event)
    assert (await Subscription.get()).status == "past_due"
    before = len(fake.events())
    await fake.renew_async(subscription.id)
    for event in fake.events()[before:]:
        await deliver(client, event)
    renewed = await Subscription.get()
    assert renewed.status == "active" and renewed.current_period_end > first_end
    status, data = await call(client, "post", "/api/billing/portal")
    assert status == 200 and data["url"].startswith(fake.base_url + "/portal/")


async def test_portal_without_a_purchase(shop: Any) -> None:
    client = shop.test_client()
    await sign_up(client)
    status, data = await call(client, "post", "/api/billing/portal")
    assert status == 400 and data["error"]["code"] == "no_billing_account"


async def test_checkout_without_stripe_configured(client: Any) -> None:
    from agency.modules.auth.models import User
    from agency.modules.catalogue import service as catalogue

    await catalogue.seed(catalogue.load_file())
    response = await client.post(
        "/api/billing/checkout", json={"plan": "pro-ai", **VISITOR}, headers=HEADERS
    )
    assert response.status_code == 503
    assert (await response.get_json())["error"]["message"] == (
        "Payments are not set up yet. Please contact us to order."
    )
    assert await User.all().count() == 0  # no account made for a purchase that cannot happen


USERS = itertools.count()
fixture_ok = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=15, deadline=None
)


@fixture_ok
@given(data=st.data(), duplicates=st.lists(st.integers(0, 3), max_size=4))
async def test_any_order_with_duplicates_converges(
    shop: Any, fake: FakeStripe, data: Any, duplicates: list[int]
) -> None:
    client = shop.test_client()
    await RateCounter.all().delete()  # every example signs up from the same test address
    await sign_up(client, email=f"buyer{next(USERS)}@example.com")
    events = await buy(fake, client, "professional", domain="converge.example.com")
    # Each event possibly several times, all in a random order.
    stream = events + [events[i % len(events)] for i in duplicates]
    for event in data.draw(st.permutations(stream), label="delivery order"):
        assert (await deliver(client, event)).status_code == 200
    _, state = await call(client, "get", "/api/billing/subscription")
    assert state["subscription"]["subscription_status"] == "active"
    assert state["subscription"]["payment_method_last4"] == "4242"
    _, orders = await call(client, "get", "/api/billing/orders")
    assert len(orders["orders"]) == 1
    me = (await call(client, "get", "/api/auth/me"))[1]["user"]["id"]
    assert [w.domain for w in await sites_api.list_websites(me)] == ["converge.example.com"]


async def test_a_visitor_signed_in_by_checkout_gets_the_signed_in_hint(shop: Any) -> None:
    client = shop.test_client()
    response = await client.post(
        "/api/billing/checkout", json={"plan": "pro-ai", **VISITOR}, headers=HEADERS
    )
    assert response.status_code == 200
    cookies = " ".join(response.headers.getlist("Set-Cookie"))
    assert "agency_session=" in cookies and "agency_signed_in=1" in cookies


async def test_replay_applies_failed_events_and_reconcile_refetches(
    shop: Any, fake: FakeStripe, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agency.modules.billing.service import effects, subscriptions, webhooks

    client = shop.test_client()
    await sign_up(client)
    # The events about the subscription (not, say, customer.updated, which we do not act on).
    events = [e for e in await buy(fake, client, "starter") if e["type"] in effects.HANDLED]
    gateway = shop.app.extensions["billing.gateway"]
    real = gateway.retrieve_subscription

    async def broken(_subscription_id: str) -> Any:
        raise ConnectionError("Stripe unreachable")

    monkeypatch.setattr(gateway, "retrieve_subscription", broken)
    for event in events:
        assert (await deliver(client, event)).status_code == 503
    assert await WebhookEvent.filter(status="failed").count() == len(events)
    monkeypatch.setattr(gateway, "retrieve_subscription", real)
    outcomes = await webhooks.replay(gateway, failed_only=True, ids=[])
    assert set(outcomes.values()) == {"processed"}
    assert (await Subscription.get()).status == "active"
    await fake.fail_async((await Subscription.get()).id)  # no webhook reaches us this time
    assert await subscriptions.reconcile(gateway) == [(await Subscription.get()).id]
    assert (await Subscription.get()).status == "past_due"
