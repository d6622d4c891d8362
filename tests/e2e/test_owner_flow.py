"""The owner's side in one go, in Chromium against the real server and the fake Stripe (issue
28's browser test): an admin signs in and lands on the business overview, changes a price in
the catalogue and sees it on /start, sets a customer's website live, and finds both actions in
the audit log with their before and after. Its own server: the shared one's catalogue stays as
the other tests expect it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleLog, LiveServer, running_server
from tests.e2e.test_accounts import expected_failures, log_in
from tests.e2e.test_audit_log import add_website
from tests.fakes.smtp import SmtpServer

ADMIN = "owner@example.com"
CUSTOMER = "owner-customer@example.com"
PASSWORD = "owner 2026 pw"
DOMAIN = "owners-client.example"


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    with running_server(tmp_path_factory, smtp_server) as live:
        live.cli("users", "create", ADMIN, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
        live.cli("users", "create", CUSTOMER, stdin=f"{PASSWORD}\n{PASSWORD}\n")
        add_website(live, CUSTOMER, DOMAIN)
        yield live


def test_overview_price_change_site_live_and_the_audit_log(
    page: Page, server: LiveServer, console: ConsoleLog
) -> None:
    base = server.url
    log_in(page, base, ADMIN, PASSWORD)

    # The admin's home is the overview.
    expect(page).to_have_url(base + "/dashboard")
    expect(page.get_by_role("heading", name="Overview", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="Choose Your Service")).to_have_count(0)
    nav = page.get_by_role("navigation", name="Dashboard")

    # A price change in the catalogue, seen on /start at once.
    nav.get_by_role("link", name="Catalogue").click()
    expect(page).to_have_url(base + "/dashboard/admin/catalogue")
    card = page.locator(".catalogue-plan").filter(
        has=page.get_by_role("heading", name="Professional", exact=True, level=3)
    )
    card.get_by_role("button", name="Edit Professional").click()
    card.get_by_label("Price in euros").fill("25.00")
    card.get_by_role("button", name=re.compile("^Save")).click()
    card.get_by_role("group", name="Change the price of Professional?").get_by_role(
        "button", name="Change the price"
    ).click()
    expect(card.get_by_role("status")).to_contain_text("Saved. Professional now costs €25.00")

    page.goto(base + "/start?plan=professional")
    expect(page.get_by_role("radio", name=re.compile("^Professional"))).to_be_checked()
    expect(page.get_by_role("region", name="Your order")).to_contain_text("€25 per month")

    # A website set live.
    page.goto(base + "/dashboard/admin/websites")
    row = page.locator("tbody tr").filter(has_text=DOMAIN)
    row.get_by_label(f"New status of {DOMAIN}").select_option("live")
    row.get_by_role("button", name=f"Update {DOMAIN}").click()
    expect(page.get_by_text(f"{DOMAIN} is now live.")).to_be_visible()

    # Both in the audit log: who, what, before and after.
    page.get_by_role("navigation", name="Dashboard").get_by_role("link", name="Audit Log").click()
    expect(page).to_have_url(base + "/dashboard/admin/audit")
    table = page.get_by_role("table", name="Audit log, newest first")
    price = table.get_by_role("row").filter(has_text="Price changed")
    expect(price).to_contain_text("Professional")
    expect(price).to_contain_text(ADMIN)
    expect(price).to_contain_text("€29")
    expect(price).to_contain_text("€25")
    site = table.get_by_role("row").filter(has_text=DOMAIN)
    expect(site).to_contain_text("Website status changed")
    expect(site).to_contain_text(ADMIN)
    expect(site).to_contain_text("Status: building → changed to live")
    assert expected_failures(console) == []
