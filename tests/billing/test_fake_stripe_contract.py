"""What the product sends to Stripe is valid for the pinned SDK: the catalogue sync and a
checkout of each kind run against the fake Stripe, which records the parameters it received,
and each set is checked against the SDK's request types (tests/fakes/stripe_contract.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.billing.conftest import VISITOR, checkout
from tests.fakes.stripe_contract import ENDPOINTS, assert_valid_params
from tests.fakes.stripe_server import FakeStripe


@pytest.mark.parametrize("plan", ["starter", "ai-booking-starter"])
async def test_the_products_stripe_parameters_are_valid(
    shop: Any, fake: FakeStripe, plan: str
) -> None:
    client = shop.test_client()
    status, data = await checkout(client, plan, **VISITOR)
    assert status == 200, data
    received = fake.received()
    endpoints = {r["endpoint"] for r in received}
    # The sync made products and prices; the checkout a customer and a session.
    assert {"prices.create", "checkout.sessions.create"} <= endpoints
    assert endpoints <= set(ENDPOINTS), endpoints - set(ENDPOINTS)
    for record in received:
        assert_valid_params(record["endpoint"], record["params"])
    session = fake.received("checkout.sessions.create")[-1]
    assert session["mode"] in ("payment", "subscription")
