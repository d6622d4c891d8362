"""Signed events in shapes Stripe never sends: each is answered 400 with
the reason, logged as a warning and recorded nowhere, so that a later delivery of the genuine
event with the same id still applies. None may answer 500."""

from __future__ import annotations

import copy
import json
import logging
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.modules.billing import routes
from agency.modules.billing.models import Order, WebhookEvent
from agency.modules.billing.service import effects, webhooks
from tests.billing.conftest import deliver, signature
from tests.billing.test_purchase import buy
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import sign_up

LOGGERS = (webhooks.log.name, routes.log.name)


def _refusals(caplog: pytest.LogCaptureFixture) -> list[int]:
    return [r.levelno for r in caplog.records if r.name in LOGGERS]


def _valid(**changes: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "id": "evt_shape",
        "object": "event",
        "type": "customer.subscription.updated",
        "created": 1_700_000_000,
        "livemode": False,
        "data": {"object": {"id": "sub_shape", "object": "subscription"}},
    }
    event.update(changes)
    return event


def _deep(levels: int) -> Any:
    value: Any = "bottom"
    for _ in range(levels):
        value = [value]
    return value


MALFORMED: dict[str, dict[str, Any]] = {
    "no data": {k: v for k, v in _valid().items() if k != "data"},
    "data a list": _valid(data=[{"object": {}}]),
    "no data.object": _valid(data={"previous_attributes": {}}),
    "object a list": _valid(data={"object": [{"id": "sub_shape"}]}),
    "object a string": _valid(data={"object": "sub_shape"}),
    "object a number": _valid(data={"object": 42}),
    "object null": _valid(data={"object": None}),
    "created a string": _valid(created="1700000000"),
    "created a float": _valid(created=1.5),
    "created negative": _valid(created=-1),
    "created past a bigint": _valid(created=2**63),
    "created true": _valid(created=True),
    "no created": {k: v for k, v in _valid().items() if k != "created"},
    "type a number": _valid(type=7),
    "type missing": {k: v for k, v in _valid().items() if k != "type"},
    "type empty": _valid(type=""),
    "type longer than its column": _valid(type="x" * 101),
    "id with a slash": _valid(id="evt/../x"),
    "id empty": _valid(id=""),
    "id longer than its column": _valid(id="e" * 256),
    "object id a list": _valid(data={"object": {"id": ["sub_shape"]}}),
    "object id missing": _valid(data={"object": {"object": "subscription"}}),
    "object id empty": _valid(data={"object": {"id": ""}}),
    "checkout id a number": _valid(type="checkout.session.completed", data={"object": {"id": 12}}),
    # An object's own id is never expanded: an object there once reached Stripe's SDK (a 500).
    "checkout id an object": _valid(
        type="checkout.session.async_payment_succeeded", data={"object": {"id": {"id": "aa_aa"}}}
    ),
    "subscription id an object": _valid(data={"object": {"id": {"id": "sub_shape"}}}),
    "invoice subscription a list": _valid(
        type="invoice.paid", data={"object": {"id": "in_1", "subscription": ["sub_1"]}}
    ),
    "invoice parent a string": _valid(
        type="invoice.paid", data={"object": {"id": "in_1", "parent": "sub_1"}}
    ),
    "invoice subscription details a list": _valid(
        type="invoice.payment_failed",
        data={"object": {"id": "in_1", "parent": {"subscription_details": [1]}}},
    ),
    "invoice expanded subscription without id": _valid(
        type="invoice.paid", data={"object": {"id": "in_1", "subscription": {"object": "x"}}}
    ),
    "NUL in a text": _valid(data={"object": {"id": "sub_shape", "name": "a\x00b"}}),
    "lone surrogate in a key": _valid(data={"object": {"id": "sub_shape", "\ud800": 1}}),
    "NaN": _valid(data={"object": {"id": "sub_shape", "amount": math.nan}}),
    "nested too deep": _valid(data={"object": {"id": "sub_shape", "deep": _deep(40)}}),
}


def _error_of(body: Any) -> dict[str, Any]:
    assert set(body) == {"error"}, body
    error: dict[str, Any] = body["error"]
    assert isinstance(error["code"], str) and isinstance(error["message"], str)
    return error


@pytest.mark.parametrize("case", sorted(MALFORMED))
async def test_a_malformed_event_is_refused_and_recorded_nowhere(
    shop: Any, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    with caplog.at_level(logging.WARNING):
        response = await deliver(shop.test_client(), MALFORMED[case])
    assert response.status_code == 400, await response.get_data(as_text=True)
    error = _error_of(await response.get_json())
    assert error["code"] == "malformed_event"
    assert error["message"].startswith("The event is not a Stripe event: ")
    assert _refusals(caplog) == [logging.WARNING]
    assert await WebhookEvent.all().count() == 0


@pytest.mark.parametrize("event_id", [None, 17, ["evt_1"]])
async def test_an_event_without_a_text_id_is_refused(
    shop: Any, caplog: pytest.LogCaptureFixture, event_id: Any
) -> None:
    with caplog.at_level(logging.WARNING):
        response = await deliver(shop.test_client(), _valid(id=event_id))
    assert response.status_code == 400
    assert _error_of(await response.get_json())["code"] == "malformed_event"
    assert _refusals(caplog) == [logging.WARNING]
    assert await WebhookEvent.all().count() == 0


@pytest.mark.parametrize("body", ["[1, 2]", '"evt_1"', "null", "[" * 100_000])
async def test_a_signed_body_that_is_no_event_is_refused(
    shop: Any, caplog: pytest.LogCaptureFixture, body: str
) -> None:
    with caplog.at_level(logging.WARNING):
        response = await shop.test_client().post(
            "/api/billing/webhook",
            data=body,
            headers={"Content-Type": "application/json", "Stripe-Signature": signature(body)},
        )
    assert response.status_code == 400
    assert _error_of(await response.get_json())["code"] == "malformed_event"
    assert _refusals(caplog) == [logging.WARNING]


async def test_the_genuine_event_applies_after_malformed_ones_with_its_id(
    shop: Any, fake: FakeStripe
) -> None:
    client = shop.test_client()
    await sign_up(client)
    events = await buy(fake, client, "pro-ai")
    completed = next(e for e in events if e["type"] == "checkout.session.completed")
    for breakage in (
        {"data": {"object": [completed["data"]["object"]]}},
        {"created": str(completed["created"])},
        {"data": {}},
    ):
        forged = {**copy.deepcopy(completed), **breakage}
        assert (await deliver(client, forged)).status_code == 400
    assert await WebhookEvent.all().count() == 0
    response = await deliver(client, completed)
    assert response.status_code == 200
    assert (await response.get_json())["outcome"] == "processed"
    assert await Order.all().count() == 1


# --- any shape ---------------------------------------------------------------------------------

TEXT = st.lists(
    st.characters() | st.sampled_from(["\x00", "\ud800", "\x1b", "/", "."]), max_size=8
).map("".join)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | TEXT
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
IDS = st.from_regex(r"[a-z]{2,4}_[A-Za-z0-9]{1,6}", fullmatch=True)
REFERENCE = IDS | st.fixed_dictionaries({"id": IDS | JSON}) | JSON
OBJECTS = (
    st.fixed_dictionaries(
        {},
        optional={
            "id": REFERENCE,
            "subscription": REFERENCE,
            "customer": REFERENCE,
            "parent": st.fixed_dictionaries(
                {},
                optional={
                    "subscription_details": st.fixed_dictionaries(
                        {}, optional={"subscription": REFERENCE}
                    )
                    | JSON
                },
            )
            | JSON,
            "metadata": JSON,
        },
    )
    | JSON
)
EVENTS = st.fixed_dictionaries(
    {},
    optional={
        "id": IDS | JSON,
        "type": st.sampled_from([*sorted(effects.HANDLED), "customer.tax_id.created"]) | JSON,
        "created": st.integers(min_value=-1, max_value=2**64) | JSON,
        "data": st.fixed_dictionaries({}, optional={"object": OBJECTS}) | JSON,
        "object": JSON,
    },
)


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    max_examples=150,
    deadline=None,
)
@given(event=EVENTS)
async def test_no_signed_event_shape_gives_a_500(shop: Any, event: dict[str, Any]) -> None:
    before = await WebhookEvent.all().count()
    response = await deliver(shop.test_client(), event)
    assert response.status_code in (200, 400), (
        response.status_code,
        json.dumps(event)[:500],
        await response.get_data(as_text=True),
    )
    if response.status_code == 400:
        _error_of(await response.get_json())
        assert await WebhookEvent.all().count() == before


@given(event=EVENTS | JSON)
def test_the_check_refuses_or_passes_any_value(event: Any) -> None:
    """check_event raises MalformedEvent or returns the event; nothing else escapes it."""
    try:
        checked = webhooks.check_event(event)
    except webhooks.MalformedEvent as refused:
        assert refused.status == 400 and refused.message
        return
    assert checked is event
    assert isinstance(event["data"]["object"], dict)
    assert type(event["created"]) is int
