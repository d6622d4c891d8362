"""Buying in Chromium against the real server: /start, our fake Stripe's hosted payment page,
its signed webhooks back to our server, /success, and the dashboard's view of the purchase."""

from __future__ import annotations

import itertools
import re
import urllib.request
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import LiveServer
from tests.e2e.test_accounts import log_in

BUYERS = itertools.count()


def fill_visitor_fields(page: Page, email: str) -> None:
    page.get_by_label("Full Name").fill("Margaret Hamilton")
    page.get_by_label("Email Address").fill(email)
    page.locator("input[name=password]").fill("apollo 11 code")


def pay_on_stripe(page: Page, live_server: LiveServer) -> None:
    expect(page).to_have_url(
        re.compile(re.escape(live_server.stripe.base_url) + r"/pay/cs_"), timeout=20000
    )
    page.get_by_role("button", name="Pay").click()


def test_visitor_buys_professional(page: Page, live_server: LiveServer) -> None:
    base = live_server.url
    email = f"margaret{next(BUYERS)}@example.com"
    page.goto(base + "/start?type=website&plan=professional")
    expect(page.get_by_role("radio", name=re.compile("Professional"))).to_be_checked()
    fill_visitor_fields(page, email)
    page.get_by_label("Domain Name").fill("https://www.hamilton-code.com/")
    page.get_by_role("button", name="Order with obligation to pay").click()
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
    # Signed in: the account fields are hidden.
    expect(page.get_by_label("Full Name")).to_be_hidden()
    expect(page.get_by_text(f"Signed in as {email}")).to_be_visible()
    page.get_by_role("button", name="Order with obligation to pay").click()
    pay_on_stripe(page, live_server)
    expect(page.get_by_role("heading", name="Payment Successful.")).to_be_visible(timeout=20000)
    page.goto(base + "/dashboard/billing")
    orders = page.get_by_role("region", name="Orders").get_by_role("table")
    expect(orders).to_contain_text("Pro AI")
    expect(orders).to_contain_text("€999")


def test_cancel_returns_to_the_start_page(page: Page, live_server: LiveServer) -> None:
    base = live_server.url
    page.goto(base + "/start?type=ugc&plan=custom-campaign")
    fill_visitor_fields(page, f"grace{next(BUYERS)}@example.com")
    page.get_by_role("button", name="Order with obligation to pay").click()
    expect(page).to_have_url(
        re.compile(re.escape(live_server.stripe.base_url) + "/pay/"), timeout=20000
    )
    page.get_by_role("link", name="Cancel").click()
    expect(page).to_have_url(re.compile(re.escape(base) + r"/start\?canceled=true&type=ugc"))
    expect(page.get_by_role("radio", name=re.compile("Custom Campaign"))).to_be_checked()


# ---- Page speed: the first HTML is the page, and nothing moves ----------------------------------

# Sum of the layout shifts a visitor did not cause, from the first paint on (buffered).
LAYOUT_SHIFT = """
new Promise((resolve) => {
  let sum = 0
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) sum += entry.value
  }).observe({ type: 'layout-shift', buffered: true })
  setTimeout(() => resolve(sum), 1500)
})
"""


def first_html(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return str(response.read().decode())


@pytest.mark.parametrize(
    ("query", "heading", "package"),
    [
        ("", "Get Your Website Live in 24 Hours", "Professional"),
        ("?type=ai-booking", "Set Up Your AI Booking System", "AI Booking Pro"),
        ("?type=website&plan=premium", "Get Your Website Live in 24 Hours", "Premium"),
    ],
)
def test_start_first_html_holds_the_page(
    live_server: LiveServer, query: str, heading: str, package: str
) -> None:
    html = first_html(live_server.url + "/start" + query)
    assert re.search(r"<h1[^>]*>[^<]*" + re.escape(heading), html), html[:3000]
    assert '<form class="purchase-form"' in html
    assert "Choose your package" in html
    assert package in html
    assert 'id="agency-catalogue"' in html  # the page hydrates with it, no fetch
    assert "Your checkout was cancelled" not in html
    assert "Your checkout was cancelled" in first_html(
        live_server.url + "/start" + (query or "?") + "&canceled=true"
    )


def test_ai_start_first_html_holds_the_page(live_server: LiveServer) -> None:
    html = first_html(live_server.url + "/ai-start?plan=premium")
    assert "Start Your Website, Live in 24 Hours" in html
    assert re.search(r'<input[^>]*checked=""[^>]*value="premium"', html)


@pytest.mark.parametrize(
    "path",
    [
        "/start",
        "/start?type=ai-booking",
        "/start?type=website&plan=premium",
        "/start?type=ugc&plan=custom-campaign&canceled=true",
        "/ai-start",
        "/ai-start?plan=starter",
    ],
)
def test_purchase_pages_do_not_shift(phone: Page, live_server: LiveServer, path: str) -> None:
    phone.goto(live_server.url + path)
    expect(phone.locator(".purchase-form")).to_be_visible()
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate(LAYOUT_SHIFT) < 0.01


def test_signed_in_start_and_dashboard_do_not_shift(page: Page, live_server: LiveServer) -> None:
    base = live_server.url
    email = f"dorothy{next(BUYERS)}@example.com"
    live_server.cli("users", "create", email, stdin="vaughan 1949 x\nvaughan 1949 x\n")
    log_in(page, base, email, "vaughan 1949 x")
    expect(page).to_have_url(base + "/dashboard")
    for path in ("/start?type=website&plan=premium", "/dashboard", "/dashboard/billing"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(LAYOUT_SHIFT) < 0.01, path
    page.goto(base + "/start")
    expect(page.get_by_text(f"Signed in as {email}")).to_be_visible()
