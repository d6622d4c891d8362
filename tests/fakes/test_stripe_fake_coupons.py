# ruff: noqa: F811  (the fixtures imported from test_stripe_fake are parameters here)
"""The fake Stripe's coupons, discounts, yearly prices and subscription price changes, driven
through the official SDK over real HTTP, with the SDK's own types as the contract."""

from __future__ import annotations

from typing import Any

import pytest
import stripe

from tests.fakes.stripe_contract import object_errors
from tests.fakes.stripe_server import FakeStripe
from tests.fakes.test_stripe_fake import (  # noqa: F401  (fixtures)
    Receiver,
    client,
    fake,
    receiver,
    server,
)

pytestmark = pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning")


def prices(client: stripe.StripeClient) -> tuple[Any, Any, Any]:
    product = client.v1.products.create(params={"name": "Pro"})
    monthly = client.v1.prices.create(
        params={
            "product": product.id,
            "unit_amount": 2900,
            "currency": "eur",
            "recurring": {"interval": "month"},
        }
    )
    bigger = client.v1.prices.create(
        params={
            "product": product.id,
            "unit_amount": 4900,
            "currency": "eur",
            "recurring": {"interval": "month"},
        }
    )
    yearly = client.v1.prices.create(
        params={
            "product": product.id,
            "unit_amount": 29000,
            "currency": "eur",
            "recurring": {"interval": "year"},
        }
    )
    return monthly, bigger, yearly


def subscribe(
    client: stripe.StripeClient, fake: FakeStripe, price_id: str, **extra: Any
) -> stripe.Subscription:
    customer = client.v1.customers.create(params={"email": "ada@example.com"})
    session = client.v1.checkout.sessions.create(
        params={
            "mode": "subscription",
            "customer": customer.id,
            "line_items": [{"price": price_id, "quantity": 1}],
            "success_url": "https://shop.test/ok",
            **extra,
        }
    )
    fake.pay(session.id)
    done = client.v1.checkout.sessions.retrieve(session.id)
    return client.v1.subscriptions.retrieve(
        str(done.subscription),
        params={"expand": ["discounts.source.coupon", "latest_invoice"]},
    )


def test_coupons_are_created_and_checked_as_stripe_does(client: stripe.StripeClient) -> None:
    forever = client.v1.coupons.create(params={"percent_off": 20, "duration": "forever"})
    assert (forever.object, forever.percent_off, forever.duration, forever.valid) == (
        "coupon",
        20.0,
        "forever",
        True,
    )
    assert object_errors(forever.to_dict()) == []
    off = client.v1.coupons.create(
        params={"id": "TENOFF", "amount_off": 1000, "currency": "EUR", "duration": "once"}
    )
    assert (off.id, off.amount_off, off.currency) == ("TENOFF", 1000, "eur")
    assert client.v1.coupons.retrieve("TENOFF").amount_off == 1000
    bad: list[tuple[dict[str, Any], str]] = [
        ({"duration": "once"}, "amount_off"),
        ({"percent_off": 10, "amount_off": 100, "currency": "eur"}, "percent_off"),
        ({"amount_off": 100}, "currency"),
        ({"percent_off": 10, "duration": "repeating"}, "duration_in_months"),
        ({"percent_off": 10, "duration": "once", "duration_in_months": 3}, "duration_in_months"),
        ({"percent_off": 101}, "percent_off"),
        ({"percent_off": 10, "duration": "sometimes"}, "duration"),
        ({"id": "TENOFF", "percent_off": 10}, "id"),
    ]
    for params, param in bad:
        with pytest.raises(stripe.InvalidRequestError) as caught:
            client.v1.coupons.create(params=params)  # type: ignore[arg-type]
        assert caught.value.param == param, params
    with pytest.raises(stripe.InvalidRequestError) as missing:
        client.v1.coupons.retrieve("NOPE")
    assert missing.value.code == "resource_missing"


def test_a_forever_coupon_at_checkout_discounts_every_invoice(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    monthly, _, _ = prices(client)
    coupon = client.v1.coupons.create(params={"percent_off": 25, "duration": "forever"})
    sub = subscribe(client, fake, monthly.id, discounts=[{"coupon": coupon.id}])
    assert object_errors(sub.to_dict()) == []
    (discount,) = sub.discounts
    assert discount.source.coupon.id == coupon.id  # type: ignore[union-attr]
    assert discount.source.coupon.duration == "forever"  # type: ignore[union-attr]
    first = sub.latest_invoice
    assert (first.subtotal, first.total) == (2900, 2175)  # type: ignore[union-attr]
    assert first.total_discount_amounts[0].amount == 725  # type: ignore[union-attr]
    fake.renew(sub.id)
    again = client.v1.subscriptions.retrieve(sub.id, params={"expand": ["latest_invoice"]})
    assert again.latest_invoice.total == 2175  # type: ignore[union-attr]
    assert len(again.discounts) == 1


def test_a_once_coupon_discounts_only_the_first_invoice(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    monthly, _, _ = prices(client)
    coupon = client.v1.coupons.create(
        params={"amount_off": 1000, "currency": "eur", "duration": "once"}
    )
    sub = subscribe(client, fake, monthly.id, discounts=[{"coupon": coupon.id}])
    assert sub.latest_invoice.total == 1900  # type: ignore[union-attr]
    assert sub.discounts == []  # spent with the first invoice
    fake.renew(sub.id)
    again = client.v1.subscriptions.retrieve(sub.id, params={"expand": ["latest_invoice"]})
    assert again.latest_invoice.total == 2900  # type: ignore[union-attr]


def test_checkout_refuses_an_unknown_coupon_and_promotion_codes_with_discounts(
    client: stripe.StripeClient,
) -> None:
    monthly, _, _ = prices(client)
    base = {
        "mode": "subscription",
        "line_items": [{"price": monthly.id, "quantity": 1}],
        "success_url": "https://shop.test/ok",
    }
    with pytest.raises(stripe.InvalidRequestError) as unknown:
        client.v1.checkout.sessions.create(
            params={**base, "discounts": [{"coupon": "NOPE"}]}  # type: ignore[typeddict-item]
        )
    assert (unknown.value.code, unknown.value.param) == ("resource_missing", "discounts[0][coupon]")
    coupon = client.v1.coupons.create(params={"percent_off": 10})
    with pytest.raises(stripe.InvalidRequestError) as both:
        client.v1.checkout.sessions.create(
            params={  # type: ignore[typeddict-item]
                **base,
                "discounts": [{"coupon": coupon.id}],
                "allow_promotion_codes": True,
            }
        )
    assert both.value.param == "allow_promotion_codes"


def test_a_payment_session_takes_the_coupon_off_its_total(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    product = client.v1.products.create(params={"name": "Audit"})
    once = client.v1.prices.create(
        params={"product": product.id, "unit_amount": 49900, "currency": "eur"}
    )
    coupon = client.v1.coupons.create(params={"percent_off": 10, "duration": "once"})
    session = client.v1.checkout.sessions.create(
        params={
            "mode": "payment",
            "line_items": [{"price": once.id, "quantity": 1}],
            "success_url": "https://shop.test/ok",
            "discounts": [{"coupon": coupon.id}],
        }
    )
    assert (session.amount_subtotal, session.amount_total) == (49900, 44910)
    assert session.total_details.amount_discount == 4990  # type: ignore[union-attr]
    assert session.discounts[0].coupon == coupon.id  # type: ignore[index]
    assert object_errors(session.to_dict()) == []


def test_a_price_change_updates_the_item_and_says_what_it_was(
    client: stripe.StripeClient, fake: FakeStripe, receiver: Receiver
) -> None:
    monthly, bigger, yearly = prices(client)
    sub = subscribe(client, fake, monthly.id)
    item = sub["items"].data[0]
    fake.wait_idle()
    updated = client.v1.subscriptions.update(
        sub.id, params={"items": [{"id": item.id, "price": bigger.id}]}
    )
    assert updated["items"].data[0].price.id == bigger.id
    assert updated["items"].data[0].id == item.id
    fake.wait_idle()
    event = receiver.events()[-1]
    assert event.type == "customer.subscription.updated"
    previous = event.data.previous_attributes
    assert previous is not None
    assert previous["items"]["data"][0]["price"]["id"] == monthly.id
    assert object_errors(event.to_dict()) == []
    moved = client.v1.subscriptions.update(
        sub.id, params={"items": [{"id": item.id, "price": yearly.id}]}
    )
    assert moved["items"].data[0].price.recurring.interval == "year"  # type: ignore[union-attr]
    for params, param in [
        ({"items": [{"id": "si_nope", "price": bigger.id}]}, "items[0][id]"),
        ({"items": [{"id": item.id, "price": "price_nope"}]}, "items[0][price]"),
    ]:
        with pytest.raises(stripe.InvalidRequestError) as caught:
            client.v1.subscriptions.update(sub.id, params=params)  # type: ignore[arg-type]
        assert caught.value.param == param
    product = client.v1.products.create(params={"name": "Other"})
    usd = client.v1.prices.create(
        params={
            "product": product.id,
            "unit_amount": 100,
            "currency": "usd",
            "recurring": {"interval": "month"},
        }
    )
    with pytest.raises(stripe.InvalidRequestError, match="currency"):
        client.v1.subscriptions.update(sub.id, params={"items": [{"id": item.id, "price": usd.id}]})


def test_a_coupon_added_to_a_subscription_later(
    client: stripe.StripeClient, fake: FakeStripe
) -> None:
    monthly, _, _ = prices(client)
    sub = subscribe(client, fake, monthly.id)
    coupon = client.v1.coupons.create(
        params={"amount_off": 500, "currency": "eur", "duration": "forever"}
    )
    updated = client.v1.subscriptions.update(
        sub.id,
        params={"discounts": [{"coupon": coupon.id}], "expand": ["discounts.source.coupon"]},
    )
    assert updated.discounts[0].source.coupon.amount_off == 500  # type: ignore[union-attr]
    cleared = client.v1.subscriptions.update(sub.id, params={"discounts": ""})  # type: ignore[typeddict-item]
    assert cleared.discounts == []
