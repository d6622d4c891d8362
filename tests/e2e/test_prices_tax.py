"""Prices with their tax in Chromium against the real server: the Private / Business switch on a
landing page and on /start at 390 and 1280 px (remembered across pages; gross incl. VAT and
net excl. VAT), the order summary's net, VAT and total, and the VAT ID field on /start checked
by the server against a fake VIES (valid, refused syntax, reverse charge)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page, running_server
from tests.fakes.smtp import SmtpServer
from tests.fakes.vies_server import FakeVies, run_fake_vies

# Screenshots to look at (kept after the run): AGENCY_E2E_SHOTS=/some/dir.
SHOTS = os.environ.get("AGENCY_E2E_SHOTS")

# /ai-automation sells starter-ai at €499 one-time (gross, the catalogue's default):
# net = 49900 - round_half_up(49900 * 1900 / 11900) = 41933.
LANDING = "/ai-automation"
GROSS = "€499"
NET = "€419.33"


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def prices_for(page: Page) -> Locator:
    return page.get_by_role("radiogroup", name="Prices for").first


def starter_card(page: Page) -> Locator:
    return page.locator(".price-card[data-plan='starter-ai']")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_switch_on_a_landing_page_and_start_is_remembered(
    browser: Browser, console: ConsoleLog, live_server: LiveServer, viewport: dict[str, int]
) -> None:
    base = live_server.url
    page = open_page(
        browser, console, viewport, is_mobile=viewport is PHONE, has_touch=viewport is PHONE
    )
    try:
        # A first visit: prices for private buyers, gross with the home rate.
        page.goto(base + LANDING)
        switch = prices_for(page)
        switch.scroll_into_view_if_needed()
        expect(switch.get_by_role("radio", name="Private")).to_be_checked()
        card = starter_card(page)
        expect(card.locator(".price-card__amount")).to_have_text(GROSS)
        expect(card.locator(".price-card__tax")).to_have_text(re.compile(r"^incl\. 19\s%\sVAT$"))
        shot(page, f"landing-private-{viewport['width']}")

        # Business: the net amount, "excl. VAT" (by keyboard: arrow keys move the choice).
        switch.get_by_role("radio", name="Private").focus()
        page.keyboard.press("ArrowRight")
        expect(switch.get_by_role("radio", name="Business")).to_be_checked()
        expect(card.locator(".price-card__amount")).to_have_text(NET)
        expect(card.locator(".price-card__tax")).to_have_text("excl. VAT")
        shot(page, f"landing-business-{viewport['width']}")

        # /start remembers it: "as a business" is chosen and the package shows its net price.
        page.goto(base + "/start?type=ai&plan=starter-ai")
        expect(page.get_by_role("radio", name="as a business")).to_be_checked()
        option = page.get_by_role("radio", name=re.compile(r"^Starter AI "))
        expect(option).to_have_accessible_name(
            re.compile(re.escape(NET) + r" one-time excl\. VAT$")
        )
        summary = page.get_by_role("region", name="Your order")
        expect(summary.locator("[data-figure=net]")).to_have_text("€419.33")
        expect(summary.locator("[data-figure=vat]")).to_have_text("€79.67")
        expect(summary.locator("[data-figure=total]")).to_have_text("€499.00")
        expect(summary).to_contain_text(re.compile(r"VAT \(19\s%\)"))
        expect(page.get_by_label("Country")).to_have_value("DE")
        shot(page, f"start-business-{viewport['width']}")

        # Back to a consumer on /start: the landing page follows.
        page.get_by_role("radio", name="as a consumer").check()
        expect(option).to_have_accessible_name(
            re.compile(re.escape(GROSS) + r" one-time incl\. 19\s%\sVAT$")
        )
        page.goto(base + LANDING)
        expect(prices_for(page).get_by_role("radio", name="Private")).to_be_checked()
        expect(starter_card(page).locator(".price-card__amount")).to_have_text(GROSS)

        # The prerendered page says the default (the remembered choice applies after hydration).
        html = page.request.get(base + LANDING).text()
        assert re.search(r'checked="" value="consumer"', html), (
            "the switch is prerendered with Private checked"
        )
        assert console.problems == []
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def vies() -> Iterator[FakeVies]:
    with run_fake_vies() as fake:
        yield fake


@pytest.fixture(scope="module")
def vies_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer, vies: FakeVies
) -> Iterator[LiveServer]:
    with running_server(tmp_path_factory, smtp_server, VIES_API_BASE=vies.base_url) as server:
        yield server


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_vat_id_on_start_checked_by_the_server(
    browser: Browser, console: ConsoleLog, vies_server: LiveServer, viewport: dict[str, int]
) -> None:
    base = vies_server.url
    page = open_page(
        browser, console, viewport, is_mobile=viewport is PHONE, has_touch=viewport is PHONE
    )
    try:
        page.goto(base + "/start?type=website&plan=professional")
        # A consumer in Germany: €29 incl. 19 % VAT, split in the summary.
        summary = page.get_by_role("region", name="Your order")
        expect(summary.locator("[data-figure=net]")).to_have_text("€24.37")
        expect(summary.locator("[data-figure=vat]")).to_have_text("€4.63")
        expect(summary.locator("[data-figure=total]")).to_have_text("€29.00 per month")
        expect(page.get_by_label("VAT ID")).to_have_count(0)  # businesses only

        page.get_by_role("radio", name="as a business").check()
        vat_id = page.get_by_label("VAT ID")
        expect(vat_id).to_be_visible()

        # Refused syntax: the server's message at the field.
        vat_id.fill("DE123")
        vat_id.blur()
        expect(
            page.get_by_text("Please enter a valid VAT ID, for example DE123456789.")
        ).to_be_visible()
        expect(vat_id).to_have_attribute("aria-invalid", "true")

        # A French business with a VAT ID VIES confirms: valid, reverse charge, no VAT.
        page.get_by_label("Country").select_option("FR")
        vat_id.fill("FR 40 303 265 045")
        vat_id.blur()
        expect(page.get_by_text("Valid: SA SODIMAS")).to_be_visible()
        expect(vat_id).not_to_have_attribute("aria-invalid", "true")
        expect(summary).to_contain_text("Reverse charge")
        expect(summary.locator("[data-figure=vat]")).to_have_text("€0.00")
        # Gross prices with no VAT: the full price is the net (Stripe's inclusive rule).
        expect(summary.locator("[data-figure=total]")).to_have_text("€29.00 per month")
        shot(page, f"start-vat-id-{viewport['width']}")
        # The refused VAT ID's 400 is the only one the browser reports.
        assert [p for p in console.problems if "status of 400" not in p] == []
    finally:
        page.context.close()
