"""The invoice list on /dashboard/billing and the admins' VAT report in Chromium against the
real server: invoices stored through the invoices module's api in the server's own database
(as billing's webhooks store them), shown with their amounts, VAT, refunds and links at 1280 px
and as cards at 390 px; the VAT report's tables and its CSV download."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from agency.modules.auth import api as auth_api
from agency.modules.invoices import api as invoices_api
from tests.conftest import with_database
from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, in_thread, open_page
from tests.e2e.test_accounts import expected_failures, log_in
from tests.invoices import stripe_objects as so

CUSTOMER = "invoices-buyer@example.com"
ADMIN = "invoices-admin@example.com"
PASSWORD = "invoices 1962 pw"


def database_url(server: LiveServer) -> str:
    return (
        server.env.get("AGENCY_DATABASE_URL") or f"sqlite://{server.workdir / 'data' / 'agency.db'}"
    )


@pytest.fixture(scope="module")
def seeded(live_server: LiveServer) -> dict[str, Any]:
    """A customer with a paid consumer invoice, a refunded business invoice with its credit
    note, and a reverse-charge invoice to an Austrian business; an admin."""
    for email, extra in ((CUSTOMER, ()), (ADMIN, ("--admin",))):
        live_server.cli("users", "create", email, *extra, stdin=f"{PASSWORD}\n{PASSWORD}\n")
    paid = so.invoice(
        amounts=(2900,),
        number="AG-E2E-0001",
        finalized="2026-11-03T10:00",
        paid="2026-11-03T10:00",
        email=CUSTOMER,
    )
    refunded = so.invoice(
        amounts=(11900,),
        number="AG-E2E-0002",
        vat_id="DE811907980",
        name="Muster GmbH",
        finalized="2026-11-10T10:00",
        paid="2026-11-10T10:00",
        payment_intent="pi_e2e_2",
        email=CUSTOMER,
    )
    note = so.credit_note(refunded, when="2026-11-12T10:00", refund="re_e2e_2")
    note["number"] = "AG-E2E-0002-CN-01"
    reverse = so.invoice(
        amounts=(49000,),
        number="AG-E2E-0003",
        rate=0,
        country="AT",
        inclusive=False,
        reason="reverse_charge",
        vat_id="ATU13585627",
        name="Muster Wien GmbH",
        exempt="reverse",
        finalized="2026-11-15T10:00",
        paid="2026-11-15T10:00",
        email=CUSTOMER,
    )

    async def seed() -> None:
        account = await auth_api.get_account_by_email(CUSTOMER)
        assert account is not None
        for invoice, buyer in ((paid, "consumer"), (refunded, "business"), (reverse, "business")):
            await invoices_api.record_invoice(
                invoice, user_id=account.id, buyer_type=buyer, order_number=None
            )
        await invoices_api.record_credit_note(note, user_id=account.id)
        await invoices_api.record_refund(
            so.charge("pi_e2e_2", 11900, [("re_e2e_2", 11900, "2026-11-12T10:00")]),
            user_id=account.id,
        )

    in_thread(with_database, database_url(live_server), seed)
    return {"paid": paid, "refunded": refunded, "reverse": reverse}


def test_the_customer_sees_their_invoices_with_links(
    page: Page, live_server: LiveServer, console: ConsoleLog, seeded: dict[str, Any]
) -> None:
    base = live_server.url
    log_in(page, base, CUSTOMER, PASSWORD)
    expect(page).to_have_url(base + "/dashboard")
    page.get_by_role("navigation", name="Dashboard").get_by_role("link", name="Billing").click()
    section = page.locator("section").filter(has=page.get_by_role("heading", name="Invoices"))
    table = section.get_by_role("table")
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(4)
    # Newest first: the reverse-charge invoice, the credit note, the refunded and the paid one.
    expect(rows.nth(0)).to_contain_text("AG-E2E-0003")
    expect(rows.nth(0)).to_contain_text("Reverse charge")
    expect(rows.nth(0)).to_contain_text("€490.00")
    expect(rows.nth(1)).to_contain_text("Credit note for AG-E2E-0002")
    expect(rows.nth(1)).to_contain_text("-€119.00")
    expect(rows.nth(2)).to_contain_text("Refunded")
    expect(rows.nth(2)).to_contain_text("-€119.00 refunded")
    expect(rows.nth(3)).to_contain_text("€29.00")
    expect(rows.nth(3)).to_contain_text("€4.63 (19 %)")
    expect(rows.nth(3)).to_contain_text("Paid")
    expect(rows.nth(3).get_by_role("link", name="View AG-E2E-0001")).to_have_attribute(
        "href", seeded["paid"]["hosted_invoice_url"]
    )
    expect(rows.nth(3).get_by_role("link", name="E-invoice of AG-E2E-0001")).to_have_count(0)
    e_invoice = rows.nth(0).get_by_role("link", name="E-invoice of AG-E2E-0003")
    with page.expect_download() as info:
        e_invoice.click()
    xml = info.value.path().read_text(encoding="utf-8")
    assert info.value.suggested_filename == "AG-E2E-0003-factur-x.xml"
    assert "<ram:CategoryCode>AE</ram:CategoryCode>" in xml and "ATU13585627" in xml
    with page.expect_download() as info:
        rows.nth(0).get_by_role("link", name="E-invoice PDF of AG-E2E-0003").click()
    assert info.value.suggested_filename == "AG-E2E-0003-factur-x.pdf"
    assert info.value.path().read_bytes().startswith(b"%PDF-")
    assert expected_failures(console) == []


def test_the_invoices_are_cards_on_a_phone(
    browser: Browser, live_server: LiveServer, console: ConsoleLog, seeded: dict[str, Any]
) -> None:
    base = live_server.url
    phone = open_page(browser, console, PHONE, is_mobile=True, has_touch=True)
    try:
        log_in(phone, base, CUSTOMER, PASSWORD)
        expect(phone).to_have_url(base + "/dashboard")
        phone.goto(base + "/dashboard/billing")
        row = phone.locator("tbody tr").filter(has_text="AG-E2E-0001")
        expect(row).to_contain_text("€29.00")
        expect(row.get_by_role("link", name="PDF of AG-E2E-0001")).to_be_visible()
        # The header row is hidden and each cell is labelled: nothing sticks out sideways.
        assert row.locator("td").first.evaluate("td => getComputedStyle(td).display") == "flex"
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        assert expected_failures(console) == []
    finally:
        phone.context.close()


def test_the_admin_reads_and_downloads_the_vat_report(
    browser: Browser, live_server: LiveServer, console: ConsoleLog, seeded: dict[str, Any]
) -> None:
    base = live_server.url
    page = open_page(browser, console, DESKTOP)
    try:
        log_in(page, base, ADMIN, PASSWORD)
        expect(page).to_have_url(base + "/dashboard")
        page.get_by_role("navigation", name="Dashboard").get_by_role(
            "link", name="VAT Report"
        ).click()
        expect(page).to_have_url(base + "/dashboard/admin/vat")
        page.get_by_label("Quarter").select_option("2026Q4")
        expect(page.get_by_text("ATU13585627")).to_be_visible()
        expect(page.get_by_text("Muster Wien GmbH")).to_be_visible()
        expect(page.get_by_text("is not exceeded")).to_be_visible()
        link = page.get_by_role("link", name="Download CSV")
        expect(link).to_have_attribute("href", "/api/admin/vat-report?quarter=2026Q4&format=csv")
        with page.expect_download() as info:
            link.click()
        rows = list(csv.DictReader(io.StringIO(info.value.path().read_text(encoding="utf-8"))))
        assert [r["vat_id"] for r in rows if r["section"] == "recapitulative_statement"] == [
            "ATU13585627"
        ]
        # The refunded invoice and its credit note cancel out: German sales are the €29.00 one.
        german = [r for r in rows if r["section"] == "sales" and r["country"] == "DE"]
        assert sum(float(r["gross"]) for r in german) == pytest.approx(29.00)
        assert expected_failures(console) == []
    finally:
        page.context.close()
