"""MRR, its movement log, revenue and failed payments, through the webhook path: purchases on
the fake Stripe over HTTP, its events delivered to our endpoint, then billing.api's figures
against amounts computed by hand (docs/features/mrr.md).

The shop's prices are gross (inclusive) at Germany's 19 %: a consumer's €29.00 a month is
2900 / 1.19 = 2436.97, so 2437 cents of MRR."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.core.ratelimit import RateCounter
from agency.modules.billing import api as billing_api
from agency.modules.billing.models import (
    Customer,
    MrrMovement,
    Order,
    PaymentFailure,
    RevenueEntry,
    Subscription,
)
from agency.modules.billing.service import user_data
from tests.billing.conftest import checkout, deliver
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import signed_up

TAX = {"vat_kind": "standard", "vat_rate": "1900", "tax_behavior": "inclusive"}


def window() -> tuple[datetime, datetime]:
    now = datetime.now(UTC)
    return now - timedelta(hours=1), now + timedelta(hours=1)


async def deliver_all(client: Any, events: list[dict[str, Any]]) -> None:
    for event in events:
        response = await deliver(client, event)
        assert response.status_code == 200, await response.get_data(as_text=True)


async def new_events(fake: FakeStripe, since: int) -> list[dict[str, Any]]:
    return fake.events()[since:]


async def buy_plan(shop: Any, fake: FakeStripe, email: str, plan: str) -> Any:
    """A signed-up customer buys a catalogue plan through our checkout; the events delivered."""
    client = await signed_up(shop.app, email)
    status, data = await checkout(client, plan)
    assert status == 200, data
    before = len(fake.events())
    await fake.pay_async(data["url"].rstrip("/").rsplit("/", 1)[1])
    await deliver_all(client, fake.events()[before:])
    return client


async def price(shop: Any, amount: int, interval: str = "month", count: int = 1) -> str:
    gateway = shop.app.extensions["billing.gateway"]
    created = await gateway.client.v1.prices.create_async(
        params={
            "product_data": {"name": f"Plan {amount}/{interval}"},
            "unit_amount": amount,
            "currency": "eur",
            "recurring": {"interval": interval, "interval_count": count},
            "tax_behavior": "inclusive",
        }
    )
    return str(created.id)


async def subscribe(
    shop: Any, fake: FakeStripe, client: Any, price_id: str, *, coupon: str | None = None
) -> str:
    """A subscription made at Stripe with a Checkout Session of our customer (as a session
    made outside the program would be), paid; the events delivered. Returns its id."""
    gateway = shop.app.extensions["billing.gateway"]
    customer = await Customer.get_or_none(user_id=client.user_id)
    if customer is None:
        customer_id = await gateway.create_customer(
            email=f"{client.user_id}@example.com", name="Buyer", user_id=client.user_id
        )
        customer = await Customer.create(user_id=client.user_id, stripe_customer_id=customer_id)
    metadata = {"user_id": str(client.user_id), "plan": "professional", **TAX}
    params: dict[str, Any] = {
        "mode": "subscription",
        "customer": customer.stripe_customer_id,
        "line_items": [{"price": price_id, "quantity": 1}],
        "success_url": "https://shop.test/ok",
        "metadata": metadata,
        "subscription_data": {"metadata": metadata},
    }
    if coupon:
        params["discounts"] = [{"coupon": coupon}]
    session = await gateway.client.v1.checkout.sessions.create_async(params=params)
    before = len(fake.events())
    await fake.pay_async(session.id)
    await deliver_all(client, fake.events()[before:])
    done = await gateway.client.v1.checkout.sessions.retrieve_async(session.id)
    return str(done.subscription)


async def movements() -> list[tuple[str, int, str]]:
    rows = await MrrMovement.all().order_by("id")
    return [(m.kind, m.delta, m.currency) for m in rows]


async def test_a_monthly_plan_is_new_mrr_and_its_invoice_recurring_revenue(
    shop: Any, fake: FakeStripe
) -> None:
    client = await buy_plan(shop, fake, "monthly@example.com", "professional")
    subscription = await Subscription.get()
    assert (subscription.mrr, subscription.currency, subscription.interval) == (
        2437,
        "EUR",
        "month",
    )
    assert (subscription.unit_amount, subscription.quantity) == (2900, 1)
    assert await movements() == [("new", 2437, "EUR")]
    start, end = window()
    assert await billing_api.mrr_at(end) == 2437
    assert await billing_api.mrr_at(start) == 0
    assert await billing_api.mrr_series([start.date(), end.date()]) in ([0, 2437], [2437, 2437])
    assert await billing_api.mrr_series([end.date()]) == [2437]
    assert await billing_api.mrr_movements(start, end) == {
        "new": 2437,
        "expansion": 0,
        "reactivation": 0,
        "contraction": 0,
        "churn": 0,
    }
    assert await billing_api.active_subscriptions(end) == 1
    assert await billing_api.paying_customers() == 1
    assert await billing_api.recurring_revenue(start, end) == 2437  # 2900 paid, without its VAT
    assert await billing_api.one_time_revenue(start, end) == 0
    assert await billing_api.new_customers(start, end) == 1
    assert await billing_api.new_customers(end, end + timedelta(days=1)) == 0
    assert await billing_api.checkout_counts(start, end) == billing_api.CheckoutCounts(1, 1, 0)
    assert await billing_api.revenue_by_plan(start, end) == [
        billing_api.PlanRevenue("professional", 0, 2437)
    ]
    assert await billing_api.buyers_among({client.user_id}, set(), start, end) == 1
    assert await billing_api.buyers_among(None, {"MONTHLY@example.com"}, start, end) == 1
    assert await billing_api.buyers_among(None, {"other@example.com"}, start, end) == 0
    assert await billing_api.mrr_at(end, "USD") == 0

    await deliver_all(client, fake.events())  # every event again: nothing more
    assert await movements() == [("new", 2437, "EUR")]
    assert await billing_api.recurring_revenue(start, end) == 2437


async def test_a_yearly_plan_counts_a_twelfth(shop: Any, fake: FakeStripe) -> None:
    client = await signed_up(shop.app, "yearly@example.com")
    await subscribe(shop, fake, client, await price(shop, 29000, "year"))
    # 29000 / 12 / 1.19 = 2030.81
    assert (await Subscription.get()).mrr == 2031
    assert await movements() == [("new", 2031, "EUR")]
    _, end = window()
    assert await billing_api.mrr_at(end) == 2031
    # A quarterly price: 8700 / 3 / 1.19 = 2436.97
    other = await signed_up(shop.app, "quarterly@example.com")
    await subscribe(shop, fake, other, await price(shop, 8700, "month", 3))
    assert await billing_api.mrr_at(end) == 2031 + 2437


async def test_only_a_forever_discount_lowers_mrr(shop: Any, fake: FakeStripe) -> None:
    gateway = shop.app.extensions["billing.gateway"]
    forever = await gateway.client.v1.coupons.create_async(
        params={"percent_off": 20, "duration": "forever"}
    )
    once = await gateway.client.v1.coupons.create_async(
        params={"amount_off": 1000, "currency": "eur", "duration": "once"}
    )
    monthly = await price(shop, 2900)
    lasting = await signed_up(shop.app, "forever@example.com")
    first = await subscribe(shop, fake, lasting, monthly, coupon=forever.id)
    passing = await signed_up(shop.app, "once@example.com")
    second = await subscribe(shop, fake, passing, monthly, coupon=once.id)
    rows = {s.id: s for s in await Subscription.all()}
    # 2900 x 0.8 / 1.19 = 1949.58; the once coupon leaves 2900 / 1.19 = 2436.97
    assert (rows[first].mrr, rows[first].forever_coupon_id) == (1950, forever.id)
    assert (rows[second].mrr, rows[second].forever_coupon_id) == (2437, None)
    start, end = window()
    assert await billing_api.mrr_at(end) == 1950 + 2437
    # What was paid: 2320 (20 % off) and 1900 (10 euros off the first invoice), net of VAT
    # 2320 / 1.19 = 1949.58 and 1900 / 1.19 = 1596.64
    assert await billing_api.recurring_revenue(start, end) == 1950 + 1597


async def test_one_time_revenue_is_net_of_vat_and_refunds(shop: Any, fake: FakeStripe) -> None:
    client = await buy_plan(shop, fake, "once@example.com", "pro-ai")
    order = await Order.get()
    assert (order.amount, order.subscription_id) == (99900, None)
    start, end = window()
    # 99900 / 1.19 = 83949.58
    assert await billing_api.one_time_revenue(start, end) == 83950
    assert await billing_api.recurring_revenue(start, end) == 0
    assert await MrrMovement.all().count() == 0  # a package is not MRR
    before = len(fake.events())
    await fake.refund_async(order.payment_intent_id or "", 20000)
    refunded = fake.events()[before:]
    await deliver_all(client, refunded + refunded)  # delivered twice: counted once
    # 20000 x 83950 / 99900 = 16806.81
    assert await billing_api.one_time_revenue(start, end) == 83950 - 16807
    assert await billing_api.revenue_by_plan(start, end) == [
        billing_api.PlanRevenue("pro-ai", 83950 - 16807, 0)
    ]
    assert await billing_api.new_customers(start, end) == 1


async def test_a_failed_then_recovered_payment(shop: Any, fake: FakeStripe) -> None:
    client = await buy_plan(shop, fake, "late@example.com", "professional")
    subscription = await Subscription.get()
    before = len(fake.events())
    await fake.fail_async(subscription.id)
    await deliver_all(client, fake.events()[before:])
    start, end = window()
    [failed] = await billing_api.failed_payments(start, end)
    assert (failed.user_id, failed.email, failed.amount, failed.currency) == (
        client.user_id,
        "late@example.com",
        2900,
        "EUR",
    )
    assert (failed.recovered_at, failed.plan_key) == (None, "professional")
    assert failed.stripe_customer_id == subscription.customer_id
    [late] = await billing_api.past_due()
    assert (late.user_id, late.mrr, late.plan_key, late.since) == (
        client.user_id,
        2437,
        "professional",
        failed.failed_at,
    )
    assert await billing_api.mrr_at(end) == 2437  # past_due still counts
    assert await movements() == [("new", 2437, "EUR")]
    assert await billing_api.recurring_revenue(start, end) == 2437  # only the first invoice

    before = len(fake.events())
    await fake.renew_async(subscription.id)  # the open invoice paid
    await deliver_all(client, fake.events()[before:])
    [recovered] = await billing_api.failed_payments(start, end)
    assert recovered.recovered_at is not None
    assert await billing_api.past_due() == []
    assert await billing_api.recurring_revenue(start, end) == 2 * 2437
    assert await PaymentFailure.all().count() == 1


async def test_the_failed_payments_list_takes_the_newest_and_the_count_all(app: Any) -> None:
    now = datetime.now(UTC)
    for i in range(3):
        failed_at = now - timedelta(hours=3 - i)
        await PaymentFailure.create(
            invoice_id=f"in_{i}",
            amount=100,
            currency="EUR",
            failed_at=failed_at,
            last_failed_at=failed_at,
        )
    start, end = now - timedelta(days=1), now + timedelta(seconds=1)
    assert await billing_api.failed_payment_count(start, end) == 3
    newest = await billing_api.failed_payments(start, end, limit=2)
    assert [f.invoice_id for f in newest] == ["in_2", "in_1"]
    assert len(await billing_api.failed_payments(start, end)) == 3


async def test_cancellation_counts_at_period_end_then_reactivation(
    shop: Any, fake: FakeStripe
) -> None:
    client = await buy_plan(shop, fake, "leaving@example.com", "professional")
    subscription = await Subscription.get()
    gateway = shop.app.extensions["billing.gateway"]
    before = len(fake.events())
    await gateway.cancel_at_period_end(subscription.id)
    await deliver_all(client, fake.events()[before:])
    assert (await Subscription.get()).cancel_at_period_end is True
    _, end = window()
    assert await billing_api.mrr_at(end) == 2437  # still paid for until its period ends
    before = len(fake.events())
    await fake.renew_async(subscription.id)  # the period ends: the subscription ends
    await deliver_all(client, fake.events()[before:])
    assert (await Subscription.get()).status == "canceled"
    assert await movements() == [("new", 2437, "EUR"), ("churn", -2437, "EUR")]
    _, end = window()
    assert await billing_api.mrr_at(end) == 0
    assert await billing_api.active_subscriptions(end) == 0
    assert await billing_api.paying_customers() == 0

    await subscribe(shop, fake, client, await price(shop, 2900))  # back again
    assert await movements() == [
        ("new", 2437, "EUR"),
        ("churn", -2437, "EUR"),
        ("reactivation", 2437, "EUR"),
    ]
    start, end = window()
    assert await billing_api.mrr_movements(start, end) == {
        "new": 2437,
        "expansion": 0,
        "reactivation": 2437,
        "contraction": 0,
        "churn": 2437,
    }
    assert await billing_api.active_subscriptions(end) == 1


async def test_an_upgrade_is_expansion_and_a_downgrade_contraction(
    shop: Any, fake: FakeStripe
) -> None:
    client = await buy_plan(shop, fake, "grows@example.com", "professional")
    subscription = await Subscription.get()
    gateway = shop.app.extensions["billing.gateway"]
    bigger = await price(shop, 4900)
    item = (await gateway.retrieve_subscription(subscription.id))["items"]["data"][0]["id"]
    for target in (bigger, subscription.price_id):
        before = len(fake.events())
        await gateway.client.v1.subscriptions.update_async(
            subscription.id, params={"items": [{"id": item, "price": target}]}
        )
        changed = fake.events()[before:]
        assert [e["type"] for e in changed] == ["customer.subscription.updated"]
        await deliver_all(client, changed)
    # 4900 / 1.19 = 4117.65: up by 4118 - 2437 = 1681, then down by as much
    assert await movements() == [
        ("new", 2437, "EUR"),
        ("expansion", 1681, "EUR"),
        ("contraction", -1681, "EUR"),
    ]
    start, end = window()
    figures = await billing_api.mrr_movements(start, end)
    assert (figures["expansion"], figures["contraction"]) == (1681, 1681)
    assert await billing_api.mrr_at(end) == 2437


async def test_a_second_subscription_of_a_customer_is_expansion(
    shop: Any, fake: FakeStripe
) -> None:
    client = await buy_plan(shop, fake, "two@example.com", "professional")
    await subscribe(shop, fake, client, await price(shop, 2900))
    assert await movements() == [("new", 2437, "EUR"), ("expansion", 2437, "EUR")]
    _, end = window()
    assert await billing_api.active_subscriptions(end) == 2
    assert await billing_api.paying_customers() == 1


async def test_an_expired_checkout_is_abandoned(shop: Any, fake: FakeStripe) -> None:
    client = await signed_up(shop.app, "abandons@example.com")
    status, data = await checkout(client, "professional")
    assert status == 200
    gateway = shop.app.extensions["billing.gateway"]
    await gateway.client.v1.checkout.sessions.expire_async(
        data["url"].rstrip("/").rsplit("/", 1)[1]
    )
    await deliver_all(client, fake.events("checkout.session.expired"))
    start, end = window()
    assert await billing_api.checkout_counts(start, end) == billing_api.CheckoutCounts(1, 0, 1)


BERLIN = {"country": "DE", "line1": "Unter den Linden 1", "postal_code": "10117", "city": "Berlin"}


async def test_with_stripe_tax_the_invoices_split_is_taken(tax_shop: Any, fake: FakeStripe) -> None:
    """Stripe Tax splits the gross price on the invoice (2900 = 2437 + 463 VAT): MRR and
    revenue take its net; with a forever coupon the tax is on the discounted amount."""
    client = await signed_up(tax_shop.app, "taxed@example.de")
    status, data = await checkout(client, "professional")
    assert status == 200, data
    before = len(fake.events())
    await fake.pay_async(data["url"].rstrip("/").rsplit("/", 1)[1], **BERLIN)
    await deliver_all(client, fake.events()[before:])
    subscription = await Subscription.get()
    assert subscription.mrr == 2437
    start, end = window()
    assert await billing_api.recurring_revenue(start, end) == 2437
    gateway = tax_shop.app.extensions["billing.gateway"]
    coupon = await gateway.client.v1.coupons.create_async(
        params={"percent_off": 20, "duration": "forever"}
    )
    before = len(fake.events())
    await gateway.client.v1.subscriptions.update_async(
        subscription.id, params={"discounts": [{"coupon": coupon.id}]}
    )
    await fake.renew_async(subscription.id)  # the next invoice, discounted: 2320 gross
    await deliver_all(client, fake.events()[before:])
    # 2320 with 19 % inside: 370 VAT, 1950 net
    assert (await Subscription.get()).mrr == 1950
    assert await movements() == [("new", 2437, "EUR"), ("contraction", -487, "EUR")]
    assert await billing_api.recurring_revenue(start, end) == 2437 + 1950


OPERATIONS = [
    "upgrade",
    "downgrade",
    "yearly",
    "forever_coupon",
    "once_coupon",
    "no_coupon",
    "cancel_at_end",
    "keep",
    "fail",
    "renew",
    "cancel_now",
    "come_back",
]
USERS = itertools.count()
fixture_ok = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=8, deadline=None
)


@fixture_ok
@given(
    operations=st.lists(st.sampled_from(OPERATIONS), max_size=8),
    data=st.data(),
)
async def test_any_sequence_of_subscription_events_keeps_the_log_equal_to_the_subscriptions(
    shop: Any, fake: FakeStripe, operations: list[str], data: Any
) -> None:
    """Whatever happens to a customer's subscriptions at Stripe, with the events delivered in
    any order and some twice: the MRR summed from the log equals the MRR of the subscriptions
    as they end up, which is Stripe's own state through monthly_value."""
    await RateCounter.all().delete()  # every example signs up from the same test address
    await MrrMovement.all().delete()
    await Subscription.all().delete()
    gateway = shop.app.extensions["billing.gateway"]
    client = await signed_up(shop.app, f"seq{next(USERS)}@example.com")
    first = len(fake.events())
    status, answer = await checkout(client, "professional")
    assert status == 200, answer
    await fake.pay_async(answer["url"].rstrip("/").rsplit("/", 1)[1])
    current = fake.events()[first:][-1]["data"]["object"]["subscription"]
    prices = {
        "upgrade": await price(shop, 4900),
        "downgrade": await price(shop, 1900),
        "yearly": await price(shop, 29000, "year"),
    }
    coupons = {
        "forever_coupon": (
            await gateway.client.v1.coupons.create_async(
                params={"percent_off": 15, "duration": "forever"}
            )
        ).id,
        "once_coupon": (
            await gateway.client.v1.coupons.create_async(
                params={"amount_off": 500, "currency": "eur", "duration": "once"}
            )
        ).id,
    }
    for operation in operations:
        state = fake.get(current)
        if state["status"] == "canceled":
            if operation == "come_back":
                # Delivered later with the rest: a new subscription of the same customer.
                customer = state["customer"]
                metadata = {"user_id": str(client.user_id), "plan": "professional", **TAX}
                session = await gateway.client.v1.checkout.sessions.create_async(
                    params={
                        "mode": "subscription",
                        "customer": customer,
                        "line_items": [{"price": prices["upgrade"], "quantity": 1}],
                        "success_url": "https://shop.test/ok",
                        "metadata": metadata,
                        "subscription_data": {"metadata": metadata},
                    }
                )
                await fake.pay_async(session.id)
                current = str(fake.get(session.id)["subscription"])
            continue
        item = state["items"]["data"][0]["id"]
        if operation in prices:
            await gateway.client.v1.subscriptions.update_async(
                current, params={"items": [{"id": item, "price": prices[operation]}]}
            )
        elif operation in coupons:
            await gateway.client.v1.subscriptions.update_async(
                current, params={"discounts": [{"coupon": coupons[operation]}]}
            )
        elif operation == "no_coupon":
            await gateway.client.v1.subscriptions.update_async(current, params={"discounts": ""})
        elif operation == "cancel_at_end":
            await gateway.cancel_at_period_end(current)
        elif operation == "keep":
            await gateway.client.v1.subscriptions.update_async(
                current, params={"cancel_at_period_end": False}
            )
        elif operation == "fail":
            await fake.fail_async(current)
        elif operation == "renew":
            await fake.renew_async(current)
        elif operation == "cancel_now":
            await gateway.cancel_now(current)
    events = fake.events()[first:]
    # Drawn as a random generator: the number of events may differ between runs of one
    # example (what Stripe sends depends on the second things happen in).
    shuffle = data.draw(st.randoms(use_true_random=False), label="delivery order")
    stream = events + shuffle.sample(events, k=min(3, len(events)))
    shuffle.shuffle(stream)
    for event in stream:
        response = await deliver(client, event)
        assert response.status_code == 200, await response.get_data(as_text=True)
    later = datetime.now(UTC) + timedelta(minutes=1)
    rows = await Subscription.all()
    for row in rows:
        stripe_state = await gateway.retrieve_subscription(row.id)
        assert row.mrr == billing_api.monthly_value(stripe_state)[0], row.id
    assert await billing_api.mrr_at(later) == sum(r.mrr for r in rows)
    assert await billing_api.active_subscriptions(later) == sum(1 for r in rows if r.mrr > 0)


async def test_an_erased_account_leaves_the_figures_but_not_who(
    shop: Any, fake: FakeStripe
) -> None:
    client = await buy_plan(shop, fake, "gone@example.com", "professional")
    subscription = await Subscription.get()
    before = len(fake.events())
    await fake.fail_async(subscription.id)
    await deliver_all(client, fake.events()[before:])
    await user_data.erase_user(client.user_id)
    assert {m.user_id for m in await MrrMovement.all()} == {0}
    assert {r.user_id for r in await RevenueEntry.all()} == {None}
    [failure] = await PaymentFailure.all()
    assert (failure.user_id, failure.stripe_customer_id) == (None, None)
    _, end = window()
    assert await billing_api.mrr_at(end) == 2437  # the history stays whole
