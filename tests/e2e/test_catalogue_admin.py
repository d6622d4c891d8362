"""The admins' catalogue in Chromium against the real server and the fake Stripe: an admin
changes a plan's price on /dashboard/admin/catalogue (after the question saying existing
subscribers keep theirs), Stripe gets the new price and the old one is archived, and /start
shows the new price with the old one struck through on its next request; hiding the plan takes
it off /start. Its own server: the shared one's catalogue stays as the other tests expect it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, ConsoleLog, LiveServer, open_page, running_server
from tests.e2e.test_accounts import expected_failures, log_in
from tests.fakes.smtp import SmtpServer

ADMIN = "catalogue-admin@example.com"
PASSWORD = "catalogue 1999 pw"


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    with running_server(tmp_path_factory, smtp_server) as live:
        live.cli("users", "create", ADMIN, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
        yield live


def test_an_admin_changes_a_price_and_start_shows_it(
    page: Page, server: LiveServer, console: ConsoleLog
) -> None:
    base = server.url
    log_in(page, base, ADMIN, PASSWORD)
    expect(page).to_have_url(base + "/dashboard")
    page.get_by_role("navigation", name="Dashboard").get_by_role("link", name="Catalogue").click()
    expect(page).to_have_url(base + "/dashboard/admin/catalogue")
    expect(page.get_by_role("heading", name="Catalogue", level=1)).to_be_visible()

    card = page.locator(".catalogue-plan").filter(
        has=page.get_by_role("heading", name="Professional", exact=True, level=3)
    )
    expect(card).to_contain_text("€29.00 per month")
    old_id = card.locator(".catalogue-plan__id").inner_text()
    assert old_id.startswith("price_")

    # Keyboard: the form opens with the focus on its first field.
    card.get_by_role("button", name="Edit Professional").click()
    expect(card.get_by_label(re.compile("^Name"))).to_be_focused()
    price = card.get_by_label("Price in euros")
    price.fill("24.00")
    price.press("Enter")
    question = card.get_by_role("group", name="Change the price of Professional?")
    expect(question).to_contain_text("Existing subscribers keep their current price")
    question.get_by_role("button", name="Change the price").click()
    status = card.get_by_role("status")
    expect(status).to_contain_text("Saved. Professional now costs €24.00")
    expect(status).to_contain_text(f"and {old_id} archived")
    expect(card).to_contain_text("€24.00 per month")
    expect(card.get_by_role("button", name="Edit Professional")).to_be_focused()
    new_id = card.locator(".catalogue-plan__id").inner_text()
    assert new_id != old_id

    # At Stripe (the fake): the new price in use, the old one archived.
    assert server.stripe.get(new_id)["unit_amount"] == 2400
    assert server.stripe.get(new_id)["lookup_key"] == "professional"
    assert server.stripe.get(old_id)["active"] is False

    card.get_by_text("Price history (2 changes)").click()
    history = card.get_by_role("table", name=re.compile("Price history of Professional"))
    expect(history.get_by_role("row").nth(1)).to_contain_text("€29.00")
    expect(history.get_by_role("row").nth(1)).to_contain_text("Catalogue page")

    assert expected_failures(console) == []
    # /start on its next request: the new price, the old one struck through as the previous.
    # The prerendered templates show the build's prices: the server now sends the client shell,
    # which renders the current catalogue (no stale price in the HTML, no hydration mismatch).
    response = page.goto(base + "/start?plan=professional")
    assert response is not None and "€29" not in response.text()
    assert 'class="package-option' not in response.text()  # the shell: nothing prerendered
    package = page.get_by_role("radio", name=re.compile("^Professional"))
    expect(package).to_be_checked()
    summary = page.get_by_role("region", name="Your order")
    expect(summary).to_contain_text("€24 per month")
    expect(page.locator("main")).to_contain_text("Previous price €29")

    # Hidden from sale: /start no longer offers it.
    page.goto(base + "/dashboard/admin/catalogue")
    card = page.locator(".catalogue-plan").filter(
        has=page.get_by_role("heading", name="Professional", exact=True, level=3)
    )
    card.get_by_role("button", name="Hide from sale").click()
    card.get_by_role("group", name="Hide Professional from sale?").get_by_role(
        "button", name="Hide from sale"
    ).click()
    expect(card.get_by_text("Hidden", exact=True)).to_be_visible()
    page.goto(base + "/start?type=website")
    expect(page.get_by_role("radio", name=re.compile("^Starter"))).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("^Professional"))).to_have_count(0)
    assert expected_failures(console) == []


def test_the_catalogue_reads_at_phone_width(
    browser: Browser, server: LiveServer, console: ConsoleLog
) -> None:
    phone = open_page(browser, console, PHONE, is_mobile=True, has_touch=True)
    try:
        log_in(phone, server.url, ADMIN, PASSWORD)
        expect(phone).to_have_url(server.url + "/dashboard")
        phone.goto(server.url + "/dashboard/admin/catalogue")
        card = phone.locator(".catalogue-plan").first
        expect(card).to_be_visible()
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        box = card.bounding_box()
        assert box is not None and box["width"] <= PHONE["width"]
        assert expected_failures(console) == []
    finally:
        phone.context.close()
