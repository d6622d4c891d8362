"""GET /api/invoices (the signed-in user's own), the admins' list and VAT report over HTTP
(JSON and CSV, refusals for bad input), and the two commands."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from agency.modules.invoices import api
from tests.conftest import run_agency, with_database
from tests.helpers.http import call
from tests.invoices import stripe_objects as so

pytestmark = pytest.mark.db


async def test_a_customer_sees_only_their_invoices_in_the_design_shape(
    app: Any, customer: Any, admin: Any
) -> None:
    mine = so.invoice(amounts=(2900,), payment_intent="pi_mine")
    await api.record_invoice(
        mine, user_id=customer.user_id, buyer_type="consumer", order_number="AG-000001"
    )
    await api.record_refund(
        so.charge("pi_mine", 2900, [("re_m", 2900, "2026-11-05")]), user_id=None
    )
    other = so.invoice(customer="cus_other", email="grace@example.com")
    await api.record_invoice(other, user_id=admin.user_id, buyer_type=None, order_number=None)
    status, body = await call(customer, "get", "/api/invoices")
    assert status == 200
    assert body == {
        "invoices": [
            {
                "id": body["invoices"][0]["id"],
                "number": mine["number"],
                "kind": "invoice",
                "status": "refunded",
                "issued_at": "2026-11-03T10:00:00Z",
                "currency": "eur",
                "net": 2437,
                "vat": 463,
                "gross": 2900,
                "refunded": 2900,
                "tax_lines": [{"rate": 1900, "net": 2437, "vat": 463, "kind": "standard"}],
                "buyer_type": "consumer",
                "country": "DE",
                "reverse_charge": False,
                "hosted_url": mine["hosted_invoice_url"],
                "pdf_url": mine["invoice_pdf"],
                "e_invoice_url": None,
                "description": "Website Starter",
                "corrects": None,
            }
        ]
    }
    assert (await app.test_client().get("/api/invoices")).status_code == 401
    assert (await customer.get("/api/admin/invoices")).status_code == 403


async def test_the_admins_list_filters_by_customer_and_month(admin: Any, customer: Any) -> None:
    nov = so.invoice(finalized="2026-11-03T10:00", customer="cus_ada")
    dec = so.invoice(finalized="2026-12-03T10:00", customer="cus_ada", paid="2026-12-03T10:00")
    grace = so.invoice(
        finalized="2026-11-04T10:00", customer="cus_grace", email="grace@example.com"
    )
    await api.record_invoice(nov, user_id=customer.user_id, buyer_type=None, order_number=None)
    await api.record_invoice(dec, user_id=customer.user_id, buyer_type=None, order_number=None)
    await api.record_invoice(grace, user_id=None, buyer_type=None, order_number=None)

    async def numbers(query: str) -> list[str]:
        status, body = await call(admin, "get", f"/api/admin/invoices{query}")
        assert status == 200, body
        return [i["number"] for i in body["invoices"]]

    assert await numbers("") == [dec["number"], grace["number"], nov["number"]]
    assert await numbers("?month=2026-11") == [grace["number"], nov["number"]]
    assert await numbers("?customer=ada@example.com&month=2026-12") == [dec["number"]]
    assert await numbers("?customer=cus_grace") == [grace["number"]]
    assert await numbers(f"?customer={customer.user_id}") == [dec["number"], nov["number"]]
    assert await numbers("?customer=grace@example.com") == [grace["number"]]
    status, body = await call(admin, "get", "/api/admin/invoices?month=2026-13")
    assert status == 400 and body["error"]["message"] == "Please give a month such as 2026-11."
    _, listed = await call(admin, "get", "/api/admin/invoices?month=2026-12")
    assert listed["invoices"][0]["email"] == "ada@example.com"


async def test_the_vat_report_over_http_as_json_and_csv(admin: Any, customer: Any) -> None:
    b2b = so.invoice(
        amounts=(49000,),
        rate=0,
        country="AT",
        inclusive=False,
        reason="reverse_charge",
        vat_id="ATU13585627",
        name="Muster GmbH",
        exempt="reverse",
        finalized="2026-10-05T10:00",
        paid="2026-10-05T10:00",
    )
    await api.record_invoice(b2b, user_id=None, buyer_type="business", order_number=None)
    status, body = await call(admin, "get", "/api/admin/vat-report?quarter=2026Q4")
    assert status == 200
    assert body["quarter"] == "2026Q4" and body["home_country"] == "DE"
    assert body["reverse_charge"] == [
        {
            "vat_id": "ATU13585627",
            "country": "AT",
            "name": "Muster GmbH",
            "currency": "eur",
            "net": 49000,
            "documents": 1,
        }
    ]
    assert body["threshold"]["exceeded"] is False
    response = await admin.get("/api/admin/vat-report?quarter=2026Q4&format=csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/csv")
    assert 'filename="vat-2026Q4.csv"' in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO((await response.get_data()).decode())))
    assert [r["vat_id"] for r in rows if r["section"] == "recapitulative_statement"] == [
        "ATU13585627"
    ]
    for bad in ("2026Q5", "x" * 16, "2026"):
        status, body = await call(admin, "get", f"/api/admin/vat-report?quarter={bad}")
        assert status == 400 and body["error"]["message"] == "Please give a quarter such as 2026Q4."
    assert (await call(admin, "get", "/api/admin/vat-report?format=xml"))[0] == 400
    assert (await call(admin, "get", "/api/admin/vat-report"))[0] == 200  # this quarter
    assert (await call(customer, "get", "/api/admin/vat-report"))[0] == 403


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_the_commands_list_and_report(tmp_path: Path) -> None:
    assert run_agency(tmp_path, "db", "upgrade").returncode == 0
    url = f"sqlite://{tmp_path / 'data' / 'agency.db'}"

    async def seed() -> None:
        await api.record_invoice(
            so.invoice(
                amounts=(11900,),
                vat_id="DE811907980",
                name="Muster GmbH",
                email="buyer@shop.example",
                finalized="2026-11-03T10:00",
            ),
            user_id=None,
            buyer_type="business",
            order_number=None,
        )
        await api.record_invoice(
            so.invoice(
                amounts=(49000,),
                rate=0,
                country="FR",
                inclusive=False,
                reason="reverse_charge",
                vat_id="FR40303265045",
                name="Société Test",
                exempt="reverse",
                finalized="2026-12-03T10:00",
                paid="2026-12-03T10:00",
                customer="cus_fr",
            ),
            user_id=None,
            buyer_type="business",
            order_number=None,
        )

    with_database(url, seed)
    listed = run_agency(tmp_path, "invoices", "list")
    assert listed.returncode == 0, listed.stderr
    assert "2 invoice(s)" in listed.stdout and "DE811907980" in listed.stdout
    november = run_agency(tmp_path, "invoices", "list", "--month", "2026-11")
    assert "1 invoice(s)" in november.stdout and "119.00 EUR" in november.stdout
    one = run_agency(tmp_path, "invoices", "list", "--customer", "cus_fr")
    assert "1 invoice(s)" in one.stdout and "Société Test" in one.stdout
    bad = run_agency(tmp_path, "invoices", "list", "--month", "11/2026")
    assert bad.returncode == 2 and "Please give a month such as 2026-11." in bad.stderr
    shown = run_agency(tmp_path, "billing", "vat-report", "--quarter", "2026Q4")
    assert shown.returncode == 0, shown.stderr
    assert "FR40303265045" in shown.stdout and "not exceeded" in shown.stdout
    as_csv = run_agency(tmp_path, "billing", "vat-report", "--quarter", "2026Q4", "--csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert {r["section"] for r in rows} >= {"sales", "recapitulative_statement", "total"}
    wrong = run_agency(tmp_path, "billing", "vat-report", "--quarter", "2026Q9")
    assert wrong.returncode == 2 and "Please give a quarter such as 2026Q4." in wrong.stderr
