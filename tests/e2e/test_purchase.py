"""Buying in Chromium against the real server: /start, our fake Stripe's hosted payment page,
its signed webhooks back to our server, /success, and the dashboard's view of the purchase."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime

from playwright.sync_api import Page, expect

from tests.e2e.conftest import LiveServer
from tests.e2e.test_accounts import log_in

BUYERS = itertools.count()


def fill_visitor_fields(page: Page, email: str) -> None:
    page.get_by_label("Full Name").fill("Margaret Hamilton")
    page.get_by_label("Email Address").fill(email)
    page.locator("input[name=password]").fill("apollo 11 code")


def pay_on_stripe(page: Page, live_server: LiveServer) -> None:
    expect(page).to_have_url(re.compile(re.escape(live_server.stripe.base_url) + r"/pay/cs_"))
    page.get_by_role("button", name="Pay").click()


def test_visitor_buys_professional(page: Page, live_server: LiveServer) -> None:
    base = live_server.url
    email = f"margaret{next(BUYERS)}@example.com"
    page.goto(base + "/start?type=website&plan=professional")
    expect(page.get_by_role("radio", name=re.compile("Professional"))).to_be_checked()
    fill_visitor_fields(page, email)
    page.get_by_label("Domain Name").fill("https://www.hamilton-code.com/")
    page.get_by_role("button", name="Continue to Secure Checkout").click()
    pay_on_stripe(page, live_server)

    expect(page).to_have_url(re.compile(re.escape(base) + r"/success\?session_id=cs_"))
    expect(page.get_by_role("heading", name="Payment Successful.")).to_be_visible(timeout=20000)
    page.get_by_role("link", name="Go to Dashboard").click()

    expect(page).to_have_url(base + "/dashboard")
    plan = page.get_by_role("region", name="Current Plan")
    expect(plan).to_contain_text("Active subscription")
    expect(plan).to_contain_text("Professional")
    expect(plan).to_contain_text("Visa •••• 4242")
    next_month = datetime.now(UTC).strftime("%Y")
    expect(plan.locator("dd").first).to_contain_text(next_month)  # a real date, not N/A
    site = page.locator(".site-card", has_text="hamilton-code.com")
    expect(site).to_contain_text("BUILDING")
    expect(site).to_contain_text("N/A")


def test_one_time_plan_appears_in_orders(page: Page, live_server: LiveServer) -> None:
    base = live_server.url
    email = f"katherine{next(BUYERS)}@example.com"
    live_server.cli("users", "create", email, stdin="orbit 1962 x\norbit 1962 x\n")
    log_in(page, base, email, "orbit 1962 x")
    expect(page).to_have_url(base + "/dashboard")
    page.goto(base + "/start?type=ai&plan=pro-ai")
    expect(page.get_by_label("Full Name")).to_have_count(0)  # signed in: no account fields
    expect(page.get_by_text(f"Signed in as {email}")).to_be_visible()
    page.get_by_role("button", name="Start My AI Setup").click()
    pay_on_stripe(page, live_server)
    expect(page.get_by_role("heading", name="Payment Successful.")).to_be_visible(timeout=20000)
    page.goto(base + "/dashboard/billing")
    orders = page.get_by_role("table")
    expect(orders).to_contain_text("Pro AI")
    expect(orders).to_contain_text("€999")


def test_cancel_returns_to_the_start_page(page: Page, live_server: LiveServer) -> None:
    base = live_server.url
    page.goto(base + "/start?type=ugc&plan=custom-campaign")
    fill_visitor_fields(page, f"grace{next(BUYERS)}@example.com")
    page.get_by_role("button", name="Order My Videos").click()
    expect(page).to_have_url(re.compile(re.escape(live_server.stripe.base_url) + "/pay/"))
    page.get_by_role("link", name="Cancel").click()
    expect(page).to_have_url(re.compile(re.escape(base) + r"/start\?canceled=true&type=ugc"))
    expect(page.get_by_role("radio", name=re.compile("Custom Campaign"))).to_be_checked()
