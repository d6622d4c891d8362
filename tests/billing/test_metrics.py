"""`agency_webhook_events_total{outcome}`: Stripe's signed deliveries counted by what became of
them, on SQLite and PostgreSQL: `accepted` (applied), `duplicate` (applied or ignored before),
`ignored` (a type billing does not act on, or about something we do not know), `failed` (not
shaped like a Stripe event, or applying it failed: Stripe delivers it again). A delivery with a
bad signature is no event: 400, counted only among the HTTP requests. Each test delivers events
as tests/billing/ does (the fake Stripe, `deliver` signing with the SDK's helper, the app's
real webhook endpoint) with metrics on in this process (a token, a metrics directory of the
test's own), and reads the counters back from the files as a scrape adds them up."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from agency.core import metrics
from agency.modules.billing.models import Order, WebhookEvent
from agency.modules.billing.service import effects
from tests.billing.conftest import WEBHOOK_SECRET, deliver, signature, started_shop
from tests.billing.test_purchase import buy
from tests.conftest import web_client
from tests.core.test_metrics_rules import _collected, metrics_off_after  # noqa: F401 (autouse)
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import sign_up

COUNTER = "agency_webhook_events_total"
WEBHOOK = "/api/billing/webhook"


def webhook_events(tmp_path: Path) -> dict[str, float]:
    """The counter's samples as a scrape reads them: outcome -> count."""
    return {
        dict(labels)["outcome"]: value
        for (name, labels), value in _collected(tmp_path / "metrics").items()
        if name == COUNTER
    }


def event_of(event_id: str, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": event_id,
        "object": "event",
        "type": kind,
        "created": 1_700_000_000,
        "livemode": False,
        "data": {"object": obj},
    }


@pytest.fixture
async def shop(tmp_path: Path, database_url: str, fake: FakeStripe) -> AsyncIterator[Any]:
    """tests/billing/conftest.py's `shop`, with metrics on."""
    async with started_shop(
        tmp_path,
        database_url,
        fake,
        stripe_webhook_secret=WEBHOOK_SECRET,
        base_url="http://shop.test",
        metrics_token="metrics-token",
        metrics_dir=tmp_path / "metrics",
    ) as test_app:
        yield test_app


async def completed_checkout(shop: Any, fake: FakeStripe) -> tuple[Any, dict[str, Any]]:
    """A signed-in buyer's client, and the checkout.session.completed of the plan it paid."""
    client = shop.test_client()
    await sign_up(client)
    events = await buy(fake, client, "pro-ai")
    return client, next(e for e in events if e["type"] == "checkout.session.completed")


async def outcome_of(response: Any) -> str:
    assert response.status_code == 200, await response.get_data(as_text=True)
    return str((await response.get_json())["outcome"])


async def test_an_event_delivered_twice_is_accepted_once_and_a_duplicate_once(
    shop: Any, fake: FakeStripe, tmp_path: Path
) -> None:
    client, completed = await completed_checkout(shop, fake)
    assert await outcome_of(await deliver(client, completed)) == "processed"
    assert webhook_events(tmp_path) == {"accepted": 1}
    assert await outcome_of(await deliver(client, completed)) == "duplicate"
    assert webhook_events(tmp_path) == {"accepted": 1, "duplicate": 1}
    assert await Order.all().count() == 1


async def test_concurrent_deliveries_are_one_accepted_and_the_rest_duplicates(
    shop: Any, fake: FakeStripe, tmp_path: Path
) -> None:
    client, completed = await completed_checkout(shop, fake)
    responses = await asyncio.gather(*(deliver(client, completed) for _ in range(4)))
    assert sorted([await outcome_of(r) for r in responses]) == ["duplicate"] * 3 + ["processed"]
    assert webhook_events(tmp_path) == {"accepted": 1, "duplicate": 3}


async def test_every_event_of_a_purchase_is_counted_by_its_outcome(
    shop: Any, fake: FakeStripe, tmp_path: Path
) -> None:
    client = shop.test_client()
    await sign_up(client)
    events = await buy(fake, client, "professional")
    outcomes = [await outcome_of(await deliver(client, event)) for event in events]
    named = {"processed": "accepted", "ignored": "ignored", "duplicate": "duplicate"}
    expected: dict[str, float] = {}
    for outcome in outcomes:
        expected[named[outcome]] = expected.get(named[outcome], 0) + 1
    assert expected.get("accepted", 0) >= 3  # subscription, invoice, checkout at least
    assert webhook_events(tmp_path) == expected


async def test_an_event_type_billing_does_not_act_on_is_ignored(shop: Any, tmp_path: Path) -> None:
    event = event_of("evt_charge", "charge.succeeded", {"id": "ch_1", "object": "charge"})
    assert event["type"] not in effects.HANDLED
    client = shop.test_client()
    assert await outcome_of(await deliver(client, event)) == "ignored"
    assert webhook_events(tmp_path) == {"ignored": 1}
    assert await outcome_of(await deliver(client, event)) == "duplicate"  # Stripe's redelivery
    assert webhook_events(tmp_path) == {"ignored": 1, "duplicate": 1}


async def test_an_event_about_something_we_do_not_know_is_ignored(
    shop: Any, tmp_path: Path
) -> None:
    event = event_of(
        "evt_unknown_subscription",
        "customer.subscription.updated",
        {"id": "sub_never_made", "object": "subscription", "customer": "cus_nobody"},
    )
    assert event["type"] in effects.HANDLED
    assert await outcome_of(await deliver(shop.test_client(), event)) == "ignored"
    assert (await WebhookEvent.get(id=event["id"])).status == "ignored"
    assert webhook_events(tmp_path) == {"ignored": 1}


async def test_a_malformed_event_fails_and_the_genuine_one_is_accepted_after(
    shop: Any, fake: FakeStripe, tmp_path: Path
) -> None:
    client, completed = await completed_checkout(shop, fake)
    forged = {**completed, "created": str(completed["created"])}
    response = await deliver(client, forged)
    assert response.status_code == 400
    assert (await response.get_json())["error"]["code"] == "malformed_event"
    assert webhook_events(tmp_path) == {"failed": 1}
    assert await outcome_of(await deliver(client, completed)) == "processed"
    assert webhook_events(tmp_path) == {"failed": 1, "accepted": 1}


@pytest.mark.parametrize("body", ["[1, 2]", "null", "not json"])
async def test_a_signed_body_that_is_no_event_fails(shop: Any, tmp_path: Path, body: str) -> None:
    response = await shop.test_client().post(
        WEBHOOK,
        data=body,
        headers={"Content-Type": "application/json", "Stripe-Signature": signature(body)},
    )
    assert response.status_code == 400
    assert (await response.get_json())["error"]["code"] == "malformed_event"
    assert webhook_events(tmp_path) == {"failed": 1}


async def test_our_failure_fails_then_stripes_retry_is_accepted(
    shop: Any, fake: FakeStripe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, completed = await completed_checkout(shop, fake)
    gateway = shop.app.extensions["billing.gateway"]
    real = gateway.retrieve_checkout_session

    async def broken(_session_id: str) -> Any:
        raise ConnectionError("Stripe unreachable")

    monkeypatch.setattr(gateway, "retrieve_checkout_session", broken)
    assert (await deliver(client, completed)).status_code == 503
    assert webhook_events(tmp_path) == {"failed": 1}
    monkeypatch.setattr(gateway, "retrieve_checkout_session", real)
    assert await outcome_of(await deliver(client, completed)) == "processed"
    assert webhook_events(tmp_path) == {"failed": 1, "accepted": 1}
    assert await Order.all().count() == 1


async def test_a_bad_signature_is_no_event_only_a_400_request(
    shop: Any, fake: FakeStripe, tmp_path: Path
) -> None:
    _client, completed = await completed_checkout(shop, fake)
    payload = json.dumps(completed)
    refused = [
        signature(payload, secret="whsec_someone_else"),
        signature(payload, at=1_600_000_000),  # long past the 300 s tolerance
        "t=1,v1=00",
        "",
    ]
    async with web_client(shop.app) as http:  # the whole stack, as the metrics layer sees it
        for header in refused:
            response = await http.post(
                WEBHOOK,
                content=payload,
                headers={"Content-Type": "application/json", "Stripe-Signature": header},
            )
            assert response.status_code == 400, response.text
            assert response.json()["error"]["code"] == "bad_signature"
    assert webhook_events(tmp_path) == {}
    assert await WebhookEvent.all().count() == 0
    metrics.flush()  # this process's requests, written as a scrape would first
    requests = frozenset({("route", WEBHOOK), ("method", "POST"), ("status", "400")})
    assert _collected(tmp_path / "metrics")[("agency_http_requests_total", requests)] == 4
