"""Refunds and credit notes through the fake Stripe, end to end on both databases: a German
consumer buys Pro AI (€999.00 gross, 19 % inside), the agency refunds part of it from the
Dashboard and then issues a credit note with a refund; each event reaches our webhook, billing
hands it to the invoices module, and the customer's list and the VAT report show it once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from agency.modules.invoices import api as invoices_api
from tests.billing.conftest import checkout, deliver
from tests.fakes.stripe_server import FakeStripe
from tests.helpers.http import call, signed_up

pytestmark = pytest.mark.db
PRO_AI, VAT_19 = 99900, 15950


def quarter_now() -> str:
    now = datetime.now(UTC)
    return f"{now.year}Q{(now.month - 1) // 3 + 1}"


async def deliver_all(fake: FakeStripe, client: Any) -> None:
    for event in fake.events():
        response = await deliver(client, event)
        assert response.status_code == 200, await response.get_data(as_text=True)


async def test_a_refund_and_a_credit_note_reach_the_list_and_the_report(
    tax_shop: Any, fake: FakeStripe
) -> None:
    client = await signed_up(tax_shop.app, "refund.me@example.de")
    status, data = await checkout(client, "pro-ai", buyer_type="consumer", country="DE")
    assert status == 200, data
    session = data["url"].rstrip("/").rsplit("/", 1)[1]
    await fake.pay_async(
        session, country="DE", line1="Unter den Linden 1", postal_code="10117", city="Berlin"
    )
    await deliver_all(fake, client)
    _, listed = await call(client, "get", "/api/invoices")
    [invoice] = listed["invoices"]
    assert (invoice["gross"], invoice["vat"], invoice["status"]) == (PRO_AI, VAT_19, "paid")
    assert invoice["tax_lines"] == [
        {"rate": 1900, "net": PRO_AI - VAT_19, "vat": VAT_19, "kind": "standard"}
    ]

    # A partial refund from the Dashboard: charge.refunded.
    fake.events()  # delivered already
    await fake.refund_async(session, 11900)
    await deliver_all(fake, client)
    _, listed = await call(client, "get", "/api/invoices")
    [invoice] = listed["invoices"]
    assert (invoice["status"], invoice["refunded"]) == ("partially_refunded", 11900)

    # A credit note for another €119.00, refunded with it.
    stripe_id = invoice_id_of(fake)
    async with httpx.AsyncClient(base_url=fake.base_url) as http:
        answer = await http.post(
            "/v1/credit_notes",
            data={"invoice": stripe_id, "amount": "11900", "refund_amount": "11900"},
            headers={"Authorization": f"Bearer {fake.api_key}"},
        )
    assert answer.status_code == 200, answer.text
    await deliver_all(fake, client)
    _, listed = await call(client, "get", "/api/invoices")
    kinds = [(i["kind"], i["status"], i["gross"], i["refunded"]) for i in listed["invoices"]]
    assert ("credit_note", "issued", 11900, 0) in kinds
    assert ("invoice", "partially_refunded", PRO_AI, 23800) in kinds

    report = (await invoices_api.vat_report(quarter_now())).model_dump(mode="json")
    [row] = [r for r in report["rows"] if r["country"] == "DE"]
    # Paid 999.00, refunded 119.00 twice (once with the credit note): 761.00 gross remain.
    assert row["gross"] == PRO_AI - 2 * 11900
    assert row["vat"] == VAT_19 - 2 * 1900


def invoice_id_of(fake: FakeStripe) -> str:
    [found] = [o["id"] for o in fake.objects.values() if o.get("object") == "invoice"]
    return str(found)
