"""Properties of the MRR: `monthly_value` (pure: Stripe's definitions, for any subscription) and
the movement log (for any sequence of subscription states, the MRR summed from the log equals
the MRR of the subscriptions as they end up, per currency)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.modules.billing import api as billing_api
from agency.modules.billing.models import MrrMovement, Subscription
from agency.modules.billing.service import subscriptions
from agency.modules.billing.service.mrr import (
    COUNTED_STATUSES,
    classify,
    monthly_value,
    round_half_up,
)

STATUSES = [
    "active",
    "past_due",
    "trialing",
    "incomplete",
    "incomplete_expired",
    "unpaid",
    "canceled",
    "paused",
]
INTERVALS = ["day", "week", "month", "year"]
PER_YEAR = {"day": 365, "week": 52, "month": 12, "year": 1}


def subscription(
    *,
    status: str = "active",
    amount: int = 2900,
    interval: str = "month",
    count: int = 1,
    quantity: int = 1,
    behavior: str = "exclusive",
    coupons: list[dict[str, Any]] | None = None,
    metadata: dict[str, str] | None = None,
    currency: str = "eur",
) -> dict[str, Any]:
    return {
        "id": "sub_1",
        "object": "subscription",
        "status": status,
        "currency": currency,
        "metadata": metadata or {},
        "discounts": [
            {"id": f"di_{n}", "object": "discount", "source": {"coupon": c, "type": "coupon"}}
            for n, c in enumerate(coupons or [])
        ],
        "items": {
            "data": [
                {
                    "id": "si_1",
                    "quantity": quantity,
                    "price": {
                        "id": "price_1",
                        "currency": currency,
                        "unit_amount": amount,
                        "tax_behavior": behavior,
                        "recurring": {
                            "interval": interval,
                            "interval_count": count,
                            "usage_type": "licensed",
                        },
                    },
                }
            ]
        },
    }


amounts = st.integers(0, 10_000_000)
counts = st.integers(1, 12)


@given(status=st.sampled_from(STATUSES), amount=amounts, interval=st.sampled_from(INTERVALS))
def test_only_active_and_past_due_count(status: str, amount: int, interval: str) -> None:
    value, currency = monthly_value(subscription(status=status, amount=amount, interval=interval))
    assert currency == "EUR"
    assert value >= 0
    if status not in COUNTED_STATUSES:
        assert value == 0


@given(amount=amounts, interval=st.sampled_from(INTERVALS), count=counts, quantity=counts)
def test_the_value_is_the_amount_normalised_to_a_month(
    amount: int, interval: str, count: int, quantity: int
) -> None:
    value, _ = monthly_value(
        subscription(amount=amount, interval=interval, count=count, quantity=quantity)
    )
    exact = Fraction(amount * quantity * PER_YEAR[interval], 12 * count)
    assert value == round_half_up(exact)
    assert abs(value - exact) <= Fraction(1, 2)


@given(amount=st.integers(0, 1_000_000))
def test_a_year_is_twelve_months(amount: int) -> None:
    yearly, _ = monthly_value(subscription(amount=12 * amount, interval="year"))
    monthly, _ = monthly_value(subscription(amount=amount))
    quarterly, _ = monthly_value(subscription(amount=3 * amount, count=3))
    assert yearly == monthly == quarterly == amount


coupons = st.one_of(
    st.builds(
        lambda pct, duration, months: {
            "id": "c",
            "object": "coupon",
            "percent_off": pct,
            "amount_off": None,
            "duration": duration,
            "duration_in_months": months if duration == "repeating" else None,
        },
        st.integers(1, 100),
        st.sampled_from(["once", "repeating", "forever"]),
        st.integers(1, 12),
    ),
    st.builds(
        lambda off, duration: {
            "id": "c",
            "object": "coupon",
            "percent_off": None,
            "amount_off": off,
            "currency": "eur",
            "duration": duration,
        },
        st.integers(1, 100_000),
        st.sampled_from(["once", "repeating", "forever"]),
    ),
)


@given(amount=amounts, coupon=coupons, interval=st.sampled_from(INTERVALS))
def test_only_forever_coupons_lower_it(amount: int, coupon: dict[str, Any], interval: str) -> None:
    plain, _ = monthly_value(subscription(amount=amount, interval=interval))
    discounted, _ = monthly_value(subscription(amount=amount, interval=interval, coupons=[coupon]))
    if coupon["duration"] != "forever":
        assert discounted == plain
        return
    assert 0 <= discounted <= plain
    if coupon["percent_off"] is not None:
        exact = Fraction(amount * PER_YEAR[interval], 12) * (100 - coupon["percent_off"]) / 100
        assert discounted == round_half_up(exact)
    else:
        exact = Fraction((amount - coupon["amount_off"]) * PER_YEAR[interval], 12)
        assert discounted == max(0, round_half_up(exact))


@given(amount=amounts, rate=st.integers(0, 2700))
def test_vat_in_an_inclusive_price_is_left_out(amount: int, rate: int) -> None:
    metadata = {"vat_kind": "standard", "vat_rate": str(rate)}
    value, _ = monthly_value(subscription(amount=amount, behavior="inclusive", metadata=metadata))
    assert value == round_half_up(Fraction(amount * 10000, 10000 + rate))
    # An exclusive price is net already; no VAT at all (reverse charge): the whole amount.
    assert monthly_value(subscription(amount=amount, metadata=metadata))[0] == amount
    reverse = {"vat_kind": "reverse_charge", "vat_rate": "0"}
    assert monthly_value(subscription(amount=amount, behavior="inclusive", metadata=reverse))[
        0
    ] == (amount)


@given(amount=st.integers(1, 1_000_000), taxed=st.integers(0, 10_000))
def test_stripe_taxs_split_of_the_latest_invoice_wins(amount: int, taxed: int) -> None:
    sub = subscription(
        amount=amount, behavior="inclusive", metadata={"vat_kind": "standard", "vat_rate": "1900"}
    )
    without = max(0, amount - taxed)
    sub["latest_invoice"] = {"subtotal": amount, "subtotal_excluding_tax": without}
    value, _ = monthly_value(sub)
    if without < amount:
        assert value == round_half_up(Fraction(amount) * Fraction(without, amount))
    else:  # Stripe did not split it: checkout's rate
        assert value == round_half_up(Fraction(amount * 10000, 11900))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(
    junk=st.dictionaries(
        st.sampled_from(
            ["status", "items", "discounts", "discount", "currency", "latest_invoice", "metadata"]
        ),
        json_values,
    )
)
def test_any_shape_gives_a_value_and_never_raises(junk: dict[str, Any]) -> None:
    value, currency = monthly_value(junk)
    assert isinstance(value, int) and value >= 0
    assert isinstance(currency, str) and len(currency) <= 3


def test_classification_per_customer() -> None:
    assert classify(0, 100, had_mrr_before=False) == "new"
    assert classify(0, 100, had_mrr_before=True) == "reactivation"
    assert classify(100, 150, had_mrr_before=True) == "expansion"
    assert classify(150, 100, had_mrr_before=True) == "contraction"
    assert classify(100, 0, had_mrr_before=True) == "churn"


# --- the log against the subscriptions -----------------------------------------------------

fixture_ok = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=25, deadline=None
)
RUNS = itertools.count()
state = st.tuples(
    st.integers(0, 3),  # which subscription
    st.sampled_from(STATUSES),
    st.integers(0, 50_000),  # its amount
    st.sampled_from(["EUR", "EUR", "USD"]),
    st.booleans(),  # the same event delivered again
)


@fixture_ok
@given(steps=st.lists(state, min_size=1, max_size=25))
async def test_the_log_sums_to_the_subscriptions_mrr(
    app: Any, steps: list[tuple[int, str, int, str, bool]]
) -> None:
    run = next(RUNS)
    await MrrMovement.all().delete()
    await Subscription.all().delete()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for n, (which, status, amount, currency, again) in enumerate(steps):
        value, _ = monthly_value(
            subscription(status=status, amount=amount, currency=currency.lower())
        )
        row = {
            "id": f"sub_{run}_{which}",
            "user_id": 1 + which % 2,  # two customers, two subscriptions each
            "customer_id": f"cus_{which % 2}",
            "status": status,
            "price_id": None,
            "plan_key": None,
            "current_period_end": None,
            "cancel_at_period_end": False,
            "card_brand": None,
            "card_last4": None,
            "stripe_created": 0,
            "mrr": value,
            "currency": currency,
        }
        when = start + timedelta(hours=n)
        for _ in range(2 if again else 1):
            await subscriptions.upsert(row, event_id=f"evt_{run}_{n}", occurred_at=when)
    end = start + timedelta(hours=len(steps) + 1)
    for currency in ("EUR", "USD"):
        rows = await Subscription.filter(currency=currency).values_list("mrr", flat=True)
        assert await billing_api.mrr_at(end, currency) == sum(rows)
        series = await billing_api.mrr_series([end.date()], currency)
        assert series == [sum(rows)]
        moved = await billing_api.mrr_movements(start, end, currency)
        assert (
            moved["new"]
            + moved["reactivation"]
            + moved["expansion"]
            - moved["contraction"]
            - moved["churn"]
        ) == sum(rows)
    counted = await Subscription.filter(mrr__gt=0).count()
    assert await billing_api.active_subscriptions(end) == counted
    for movement in await MrrMovement.all():
        assert movement.delta != 0
        assert (movement.kind in ("contraction", "churn")) == (movement.delta < 0)
