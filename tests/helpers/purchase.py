"""A purchase over HTTP against a running agency and the fake Stripe (tests/fakes/stripe_server.py):
the buyer's side of the fake's pay page, and whether the signed webhooks it sent were accepted.
Shared by scripts/smoke_binary.py and tests/deploy/test_deployment.py."""

from __future__ import annotations

import re
from typing import Any

import httpx

# The card the fake's pay page accepts (Stripe's test card).
CARD = {
    "card_number": "4242 4242 4242 4242",
    "exp": "12 / 34",
    "cvc": "123",
    "name": "Ada Lovelace",
}


class PayPageError(Exception):
    """The pay page did not answer with its form."""


def pay_on_pay_page(browser: httpx.Client, fake_base_url: str, pay_url: str) -> httpx.Response:
    """Open the checkout's pay page (`pay_url`, from POST /api/billing/checkout) and submit the
    card; returns the submission's answer (a 303 to the shop's success URL when paid)."""
    page = browser.get(pay_url)
    action = re.search(r'<form method="post" action="([^"]+)"', page.text)
    if page.status_code != 200 or action is None:
        raise PayPageError(f"the pay page answered {page.status_code}")
    return browser.post(fake_base_url + action.group(1), data=CARD)


def delivery_accepted(delivery: dict[str, Any]) -> bool:
    return 200 <= (delivery["status_code"] or 0) < 300


def webhooks_accepted(fake: Any) -> list[str] | None:
    """The types of the fake's events once every one has a 2xx delivery; None before."""
    events = fake.events()
    done = {d["event_id"] for d in fake.deliveries if delivery_accepted(d)}
    types = [e["type"] for e in events]
    return types if events and all(e["id"] in done for e in events) else None


def refused_deliveries(fake: Any) -> list[dict[str, Any]]:
    return [d for d in fake.deliveries if not delivery_accepted(d)]
