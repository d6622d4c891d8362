"""The order step in Chromium against the real server, on both databases: the package first
(above the fold on a phone and a desktop), each account field checked when it is left and by
the server, the order button's words, a consumer's early-start consent stored with the order
and confirmed by e-mail, a cancelled checkout coming back as it was sent, and a server
without payments saying so before anything is typed."""

from __future__ import annotations

import itertools
import re
import time
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import BACKENDS
from tests.e2e.conftest import (
    PHONE,
    ConsoleLog,
    LiveServer,
    open_page,
    running_server,
    running_server_on,
)
from tests.e2e.test_accessibility import (
    AXE_SOURCE,
    AXE_TAGS,
    REVIEW_AS_VIOLATION,
    RUN_AXE,
    WIDTHS,
    describe,
    settle,
)
from tests.fakes.smtp import SmtpServer

BUYERS = itertools.count()
ORDER = "Order with obligation to pay"
CONSENT = re.compile("I want you to start the work before the 14-day withdrawal period ends")


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    smtp_server: SmtpServer,
) -> Iterator[LiveServer]:
    """A server of its own on each database (SQLite, PostgreSQL)."""
    with running_server_on(request.param, "order", tmp_path_factory, smtp_server) as live:
        yield live


def email() -> str:
    return f"order{next(BUYERS)}-{uuid.uuid4().hex[:4]}@example.com"


def fill_account(page: Page, address: str) -> None:
    page.get_by_label("Full Name").fill("Margaret Hamilton")
    page.get_by_label("Email Address").fill(address)
    page.locator("input[name=password]").fill("apollo 11 code")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("path", ["/start", "/start?type=website&plan=premium", "/ai-start"])
def test_the_package_comes_first_above_the_fold(
    browser: Browser, console: ConsoleLog, server: LiveServer, viewport: str, path: str
) -> None:
    size = PHONE if viewport == "phone" else {"width": 1280, "height": 800}
    page = open_page(browser, console, size, is_mobile=viewport == "phone")
    try:
        page.goto(server.url + path)
        packages = page.get_by_role("radiogroup", name="Choose your package")
        first = packages.locator("label").first
        expect(first).to_be_visible()
        box = first.bounding_box()
        assert box is not None
        bottom = size["height"]
        if viewport == "phone":  # the fixed order bar covers the bottom of the screen
            bar = page.locator(".purchase-submit").bounding_box()
            assert bar is not None
            bottom = int(bar["y"])
        assert box["y"] + box["height"] <= bottom, (path, viewport, box, bottom)
        # The package comes before the account fields.
        fields = page.get_by_label("Full Name").bounding_box()
        assert fields is not None and fields["y"] > box["y"]
    finally:
        page.context.close()


def test_fields_are_checked_when_left_and_by_the_server(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/start?type=ai&plan=pro-ai")
    page.wait_for_load_state("networkidle")  # hydrated: a field left is checked at once
    address = page.get_by_label("Email Address")
    address.fill("max@mustermann")
    expect(address).not_to_have_attribute("aria-invalid", "true")  # not while typing
    address.blur()
    expect(address).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_text("Please enter a valid email address")).to_be_visible()
    address.fill("max@mustermann.de")
    expect(address).not_to_have_attribute("aria-invalid", "true")  # the red border goes
    expect(page.get_by_text("Please enter a valid email address")).to_have_count(0)
    password = page.locator("input[name=password]")
    password.fill("12345")
    password.blur()
    expect(page.get_by_text("Password must be at least 6 characters")).to_be_visible()

    # The server keeps checking: a single-letter top-level domain passes the browser's quick
    # look, the server refuses it, and its message is shown at the field.
    page.get_by_label("Full Name").fill("Max Mustermann")
    address.fill("max@mustermann.x")
    password.fill("apollo 11 code")
    page.get_by_role("button", name=ORDER).click()
    expect(address).to_have_attribute("aria-invalid", "true")
    refused = page.locator(".field__error", has_text="Please enter a valid email address")
    expect(refused).to_be_visible()
    expect(page).to_have_url(re.compile(r"/start"))


def test_the_order_button_and_the_information_beside_it(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/start")
    button = page.get_by_role("button", name=ORDER, exact=True)
    expect(button).to_have_text(ORDER)
    legal = page.locator(".purchase-legal")
    expect(legal).to_contain_text("By ordering you")
    expect(legal.get_by_role("link", name="terms")).to_have_attribute("href", "/terms")
    expect(legal.get_by_role("link", name="withdrawal information")).to_have_attribute(
        "href", "/withdrawal"
    )
    expect(legal.get_by_role("link", name="privacy policy")).to_have_attribute("href", "/privacy")
    expect(page.locator("main")).not_to_contain_text("agree")
    # The summary follows the package picked, and so does the side panel.
    summary = page.get_by_role("region", name="Your order")
    expect(summary).to_contain_text("Professional")
    expect(summary).to_contain_text("€29 per month")
    expect(summary).to_contain_text("in 24 hours")
    page.get_by_role("radio", name=re.compile("^Premium")).check()
    expect(summary).to_contain_text("€499 per month")
    aside = page.get_by_role("complementary", name="Why order with us")
    expect(aside).to_contain_text("Premium: €499 per month")
    expect(aside).not_to_contain_text("Packages from")


def test_a_consumers_consent_is_stored_with_the_order_and_confirmed_by_mail(
    page: Page, server: LiveServer, smtp_server: SmtpServer
) -> None:
    address = email()
    page.goto(server.url + "/start?type=ai&plan=pro-ai")
    expect(page.get_by_role("radio", name="as a consumer")).to_be_checked()
    consent = page.get_by_role("checkbox", name=CONSENT)
    expect(consent).not_to_be_checked()
    expect(page.get_by_role("link", name="withdrawal information").first).to_be_visible()
    consent.check()
    fill_account(page, address)
    page.get_by_role("button", name=ORDER).click()
    expect(page).to_have_url(
        re.compile(re.escape(server.stripe.base_url) + r"/pay/cs_"), timeout=20000
    )
    session_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.get_by_role("button", name="Pay").click()

    expect(page.get_by_role("heading", name="Payment Successful.")).to_be_visible(timeout=20000)
    card = page.locator(".success-card")
    expect(card).to_contain_text(re.compile(r"Your order number: AG-\d{6}"))
    expect(card).to_contain_text("Our team starts on your order immediately.")
    expect(card).to_contain_text("The order confirmation is on its way")
    expect(card).to_contain_text("Delivery in")
    number = re.search(r"AG-\d{6}", card.inner_text())
    assert number is not None

    # Stored with the order (the server's own read of it).
    state = page.request.get(f"{server.url}/api/billing/checkout/{session_id}").json()
    assert (state["buyer_type"], state["early_start_consent"], state["work_starts_on"]) == (
        "consumer",
        True,
        None,
    )
    mail = wait_for_mail(smtp_server, address, f"Your order {number.group(0)}")
    text = smtp_server.inbox.text_of(mail)
    assert "Package: Pro AI" in text and "Price: €999.00 one-time" in text
    assert CONSENT.search(text) and "RIGHT OF WITHDRAWAL" in text
    assert re.search(r"you asked us on \d+ \w+ \d{4}, \d\d:\d\d UTC", text)


def test_a_consumer_without_consent_is_told_work_waits(
    page: Page, server: LiveServer, smtp_server: SmtpServer
) -> None:
    page.goto(server.url + "/start?type=ai&plan=pro-ai")
    fill_account(page, email())
    page.get_by_role("button", name=ORDER).click()
    expect(page).to_have_url(
        re.compile(re.escape(server.stripe.base_url) + r"/pay/cs_"), timeout=20000
    )
    page.get_by_role("button", name="Pay").click()
    expect(page.get_by_role("heading", name="Payment Successful.")).to_be_visible(timeout=20000)
    expect(page.locator(".success-card")).to_contain_text(
        re.compile(r"We start work on \d+ \w+ \d{4}, when your 14-day withdrawal period has ended")
    )
    expect(page.locator(".success-card")).not_to_contain_text("immediately")


def wait_for_mail(smtp: SmtpServer, to: str, subject: str) -> Any:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = [m for m in smtp.inbox.messages if m["To"] == to and subject in str(m["Subject"])]
        if found:
            assert len(found) == 1
            return found[0]
        time.sleep(0.2)
    raise AssertionError(f"no mail {subject!r} to {to}")


def test_a_cancelled_checkout_comes_back_as_it_was(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/start?type=website&plan=premium")
    page.get_by_role("radio", name="as a business").check()
    fill_account(page, email())
    page.get_by_label("Domain Name").fill("hamilton-cancel.com")
    page.get_by_role("button", name=ORDER).click()
    expect(page).to_have_url(re.compile(re.escape(server.stripe.base_url) + "/pay/"), timeout=20000)
    page.get_by_role("link", name="Cancel").click()

    expect(page).to_have_url(re.compile(r"/start\?canceled=true&type=website&plan=premium"))
    expect(page.get_by_text("Your checkout was cancelled")).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("^Premium"))).to_be_checked()
    expect(page.get_by_label("Domain Name")).to_have_value("hamilton-cancel.com")
    expect(page.get_by_role("radio", name="as a business")).to_be_checked()
    expect(page.get_by_role("checkbox", name=CONSENT)).to_have_count(0)
    # Signed in by the checkout: no empty block where the account fields were (they give
    # their space back, at the latest with the buyer's first click).
    expect(page.get_by_text("Signed in as")).to_be_visible()
    page.get_by_role("heading", name="Your details").click()
    account = page.locator(".purchase-account")
    expect(account).to_have_class(re.compile("purchase-account--collapsed"))
    box = account.bounding_box()
    assert box is not None and box["height"] < 80, box


@pytest.fixture(scope="module")
def unpaid_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    """A server without a Stripe key: payments are not set up."""
    with running_server(
        tmp_path_factory, smtp_server, stripe_sync=False, STRIPE_SECRET_KEY=""
    ) as live:
        yield live


def first_html(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return str(response.read().decode())


def test_without_payments_the_page_says_so_before_anything_is_typed(
    phone: Page, unpaid_server: LiveServer, server: LiveServer
) -> None:
    notice = "Payments are not set up yet."
    assert notice in first_html(unpaid_server.url + "/start")
    assert notice not in first_html(server.url + "/start")
    assert notice not in first_html(server.url + "/ai-start")
    phone.goto(unpaid_server.url + "/start?type=website&plan=premium")
    note = phone.get_by_text(notice)
    expect(note).to_be_visible()
    box = note.bounding_box()
    heading = phone.get_by_role("heading", level=1).bounding_box()
    assert box is not None and heading is not None and box["y"] < heading["y"]  # at the top
    # Every purchase page says it.
    phone.goto(unpaid_server.url + "/start?type=ai")
    expect(phone.get_by_text(notice)).to_be_visible()


@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize(
    "path", ["/start", "/start?type=ai&plan=pro-ai&canceled=true", "/ai-start"]
)
def test_the_order_step_is_accessible(
    browser: Browser, console: ConsoleLog, server: LiveServer, width: str, path: str
) -> None:
    options = WIDTHS[width]
    extra = {k: v for k, v in options.items() if k != "viewport"}
    page = open_page(browser, console, options["viewport"], bypass_csp=True, **extra)
    try:
        page.goto(server.url + path)
        settle(page)
        # With a field's own message showing, too.
        page.get_by_label("Email Address").fill("max@mustermann")
        page.get_by_label("Email Address").blur()
        expect(page.get_by_text("Please enter a valid email address")).to_be_visible()
        page.add_script_tag(content=AXE_SOURCE.read_text())
        violations = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
    finally:
        page.context.close()
    assert not violations, describe(path, width, violations)
    assert console.problems == [], console.problems
