"""Billing fixtures: our fake Stripe over real HTTP, and an app whose Stripe SDK talks to it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import stripe

from agency.app import create_app
from agency.modules.billing.service import prices as billing_prices
from agency.modules.catalogue import service as catalogue
from tests.billing.vies_fake import FakeVies, run_fake_vies
from tests.conftest import make_settings
from tests.fakes.stripe_server import FakeStripe, run_fake_stripe
from tests.helpers.http import HEADERS

WEBHOOK_SECRET = "whsec_test_secret"


@pytest.fixture(scope="session")
def stripe_fake() -> Iterator[FakeStripe]:
    with run_fake_stripe() as fake:
        yield fake


@pytest.fixture
def fake(stripe_fake: FakeStripe) -> FakeStripe:
    """The fake, emptied. No webhook URL: a test posts the stored events itself, in the order
    and with the duplicates it wants, through the app's real webhook endpoint."""
    stripe_fake.reset()
    return stripe_fake


@asynccontextmanager
async def started_shop(
    tmp_path: Path, database_url: str, fake: FakeStripe, **settings: Any
) -> AsyncIterator[Any]:
    """A started app on the fake Stripe with the catalogue seeded and synced to it, so a checkout
    goes all the way to storing its session; `settings` on top of the test ones."""
    app = create_app(
        make_settings(
            tmp_path,
            database_url,
            stripe_secret_key=fake.api_key,
            stripe_api_base=fake.base_url,
            **settings,
        )
    )
    async with app.test_app() as test_app:
        await catalogue.seed(catalogue.load_file())
        await billing_prices.sync_prices(
            app.extensions["billing.gateway"],
            dry_run=False,
            prices_include_vat=settings.get("prices_include_vat", True),
        )
        yield test_app


@pytest.fixture
async def shop(tmp_path: Path, database_url: str, fake: FakeStripe) -> AsyncIterator[Any]:
    """A started app with the catalogue seeded and synced to the fake Stripe."""
    async with started_shop(
        tmp_path,
        database_url,
        fake,
        stripe_webhook_secret=WEBHOOK_SECRET,
        base_url="http://shop.test",
    ) as test_app:
        yield test_app


@pytest.fixture(scope="session")
def vies_server() -> Iterator[FakeVies]:
    with run_fake_vies() as vies:
        yield vies


@pytest.fixture
def vies(vies_server: FakeVies) -> FakeVies:
    """A VIES that finds every well-formed VAT ID valid (see FakeVies), emptied."""
    vies_server.reset()
    return vies_server


def tax_shop_of(
    tmp_path: Path, database_url: str, fake: FakeStripe, vies: FakeVies, **tax: Any
) -> Any:
    """`started_shop` asking the fake VIES, with the tax settings `tax`."""
    return started_shop(
        tmp_path,
        database_url,
        fake,
        stripe_webhook_secret=WEBHOOK_SECRET,
        base_url="http://shop.test",
        vies_api_base=vies.base_url,
        **tax,
    )


@pytest.fixture
async def tax_shop(
    tmp_path: Path, database_url: str, fake: FakeStripe, vies: FakeVies
) -> AsyncIterator[Any]:
    """An agency charging VAT through Stripe Tax (stripe_tax on), gross prices."""
    async with tax_shop_of(tmp_path, database_url, fake, vies, stripe_tax=True) as app:
        yield app


def signature(payload: str, secret: str = WEBHOOK_SECRET, at: int | None = None) -> str:
    """The Stripe-Signature header, computed by the stripe SDK's own helper."""
    return str(stripe.WebhookSignature.generate_signature_header(payload, secret, at))


async def deliver(client: Any, event: dict[str, Any], **sign: Any) -> Any:
    payload = json.dumps(event)
    return await client.post(
        "/api/billing/webhook",
        data=payload,
        headers={
            "Content-Type": "application/json",
            "Stripe-Signature": signature(payload, **sign),
        },
    )


async def checkout(client: Any, plan: str, **body: Any) -> tuple[int, Any]:
    response = await client.post(
        "/api/billing/checkout", json={"plan": plan, **body}, headers=HEADERS
    )
    return response.status_code, await response.get_json()


VISITOR = {"full_name": "Ada Lovelace", "email": "ada@example.com", "password": "correct horse"}
