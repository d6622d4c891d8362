"""The customer's websites in real Chromium against the real server: a customer buys
a website with a domain (our fake Stripe), sees it building (and that a new website would be a
second subscription) and tests the old site; an admin sets it live on the agency's website
page; the card says the live site is being measured until its first test ends (never the old
score) and the chart marks the day it went live; the customer gets the e-mail (the test SMTP
server) and the notification, runs speed tests (the server's job runner against the fake
PageSpeed Insights) and sees the chart grow; the schedule runs a monitored test and e-mails
the drop; a second customer can read none of it (API, not only UI); removing says what it does
not do to the subscription and the hosting. The agency's list fits a phone.

The fake PageSpeed answers by host (`score-N.example` scores N; `scores` overrides a host), so
the server runs with `speedtest_unsafe_allow_private_targets` (no DNS) and without reuse.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page, running_server
from tests.e2e.test_accounts import log_in
from tests.e2e.test_purchase import pay_on_stripe
from tests.fakes.pagespeed import FakePageSpeed, run_fake_pagespeed
from tests.fakes.smtp import SmtpServer

DOMAIN = "score-95.example"
CUSTOMER = "grace@hopper.example"
PASSWORD = "cobol 1959 compiler"
ADMIN = "boss@agency.example"
OTHER = "mallory@other.example"


@dataclass
class SitesServer:
    server: LiveServer
    pagespeed: FakePageSpeed


@pytest.fixture(scope="module")
def sites(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[SitesServer]:
    with (
        run_fake_pagespeed() as pagespeed,
        running_server(
            tmp_path_factory,
            smtp_server,
            SPEEDTEST_PROVIDER="psi",
            PAGESPEED_API_BASE=pagespeed.base_url,
            SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS="true",
            SPEEDTEST_REUSE_MINUTES="0",
        ) as server,
    ):
        yield SitesServer(server, pagespeed)


def mail_to(smtp: SmtpServer, to: str, subject: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in smtp.inbox.messages:
            if message["To"] == to and subject in str(message["Subject"]):
                return smtp.inbox.text_of(message)
        time.sleep(0.2)
    raise AssertionError(f"no e-mail to {to} with {subject!r}")


def api_status(page: Page, method: str, path: str) -> int:
    """A call from the page's own session (its cookies), as a script of the page would make."""
    response = page.request.fetch(
        page.url.split("/dashboard")[0] + path,
        method=method,
        headers={"X-Agency-Request": "1"},
    )
    return response.status


def assert_clean(console: ConsoleLog) -> None:
    """No console error or warning but the browser's own line for the 404s asked for above."""
    problems = [p for p in console.problems if "Failed to load resource" not in p]
    assert problems == [], problems


def buy_a_website(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/start?type=website&plan=professional")
    page.get_by_label("Full Name").fill("Grace Hopper")
    page.get_by_label("Email Address").fill(CUSTOMER)
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_label("Domain Name").fill(f"https://{DOMAIN}/")
    page.get_by_role("button", name="Order with obligation to pay").click()
    pay_on_stripe(page, server)
    expect(page.get_by_role("heading", name="Payment Successful.")).to_be_visible(timeout=20000)


def test_a_website_from_purchase_to_live_speed_history_and_monitoring(
    sites: SitesServer, browser: Browser, console: ConsoleLog, smtp_server: SmtpServer
) -> None:
    server, psi = sites.server, sites.pagespeed
    customer = open_page(browser, console, DESKTOP)
    buy_a_website(customer, server)

    # The customer sees the site building.
    customer.goto(server.url + "/dashboard/websites")
    card = customer.locator(".site-card", has_text=DOMAIN)
    expect(card).to_contain_text("BUILDING")
    expect(card).to_contain_text("N/A")
    # A subscriber's New Website says first that it starts a second subscription.
    customer.get_by_role("button", name="New Website", exact=True).click()
    note = customer.get_by_role("group", name="A new website")
    expect(note).to_contain_text(
        "a new website starts a second subscription with its own monthly payment, "
        "next to your Professional subscription"
    )
    expect(note.get_by_role("link", name="See website plans")).to_have_attribute(
        "href", "/start?type=website"
    )
    note.get_by_role("button", name="Cancel").click()
    expect(note).to_have_count(0)
    card.get_by_role("link", name=re.compile("View details")).click()
    expect(customer).to_have_url(re.compile(r"/dashboard/websites/\d+$"))
    site_path = customer.url.removeprefix(server.url)
    site_id = site_path.rsplit("/", 1)[1]
    expect(customer.get_by_role("heading", name=DOMAIN, level=1)).to_be_visible()
    expect(customer.get_by_text("We are building your website.")).to_be_visible()
    expect(
        customer.get_by_text("Your Professional plan is delivered within 24 hours.")
    ).to_be_visible()

    # The customer tests the old site at the domain while the new one is built: 55.
    chart = customer.locator("figure.score-chart")
    psi.scores[DOMAIN] = 55
    customer.get_by_role("button", name="Run speed test").click()
    expect(chart).to_have_attribute("data-points", "1", timeout=30000)
    expect(customer.locator(".speed-figures__number").first).to_contain_text("55")
    psi.scores[DOMAIN] = 95
    psi.delay = 4.0  # the first test of the live site takes a while: 'measuring' meanwhile

    # An admin sets it live from the agency's website page.
    server.cli("users", "create", ADMIN, stdin="agency admin 1\nagency admin 1\n")
    server.cli("users", "set-role", ADMIN, "admin")
    admin = open_page(browser, console, DESKTOP)
    log_in(admin, server.url, ADMIN, "agency admin 1")
    expect(admin).to_have_url(server.url + "/dashboard")
    admin.get_by_role("link", name="All Websites").first.click()
    expect(admin).to_have_url(server.url + "/dashboard/admin/websites")
    admin.get_by_label("Domain or customer").fill("hopper")
    admin.get_by_role("button", name="Search").click()
    row = admin.locator("tr", has_text=DOMAIN)
    expect(row).to_contain_text(CUSTOMER)
    expect(row).to_contain_text("BUILDING")
    row.get_by_label(f"New status of {DOMAIN}").select_option("live")
    row.get_by_role("button", name=re.compile("Update")).click()
    expect(admin.get_by_role("status").filter(has_text=f"{DOMAIN} is now live.")).to_be_visible()
    expect(admin.locator("tr", has_text=DOMAIN)).to_contain_text("LIVE")

    # Going live started a test of the live site: the card says it is being measured (not
    # the old 55), then shows the new score when the test ends.
    customer.goto(server.url + "/dashboard/websites")
    card = customer.locator(".site-card", has_text=DOMAIN)
    expect(card).to_contain_text("LIVE")
    expect(card).to_contain_text("Measuring your new site")
    expect(card).not_to_contain_text("55")
    psi.delay = 0.0
    expect(card.locator(".site-card__score-value")).to_have_text("95/100", timeout=40000)
    expect(card).not_to_contain_text("Measuring")
    customer.goto(server.url + site_path)
    expect(chart).to_have_attribute("data-points", "2")
    expect(customer.locator(".speed-figures__number").first).to_contain_text("95")
    expect(chart.locator(".score-chart__live")).to_have_count(1)
    expect(chart.locator("text", has_text="Live")).to_be_visible()
    expect(chart.get_by_role("img")).to_have_accessible_name(
        re.compile(r"Live since .*\. The first test measured the site before it went live\.")
    )
    before = chart.locator("circle.score-chart__point--before")
    expect(before).to_have_count(1)
    live_x = float(chart.locator(".score-chart__live").get_attribute("data-live-x") or 0)
    assert float(before.get_attribute("cx") or 0) < live_x

    # The customer gets the e-mail and the notification.
    text = mail_to(smtp_server, CUSTOMER, f"Your website {DOMAIN} is live")
    assert f"{server.url}{site_path}" in text
    customer.reload()
    expect(
        customer.get_by_role("button", name=re.compile(r"Notifications, 1 unread"))
    ).to_be_visible(timeout=20000)
    customer.get_by_role("button", name=re.compile("Notifications")).click()
    panel = customer.get_by_role("region", name="Notifications")
    expect(panel).to_contain_text(f"{DOMAIN} is live")
    expect(customer.get_by_text("Your website is live.").first).to_be_visible()

    # Runs a speed test and sees the chart grow.
    customer.get_by_role("button", name="Run speed test").click()
    expect(chart).to_have_attribute("data-points", "3", timeout=30000)
    expect(customer.locator(".speed-figures__number").first).to_contain_text("95")
    expect(customer.get_by_text("Excellent").first).to_be_visible()
    expect(
        customer.get_by_role("table", name=f"Speed scores of {DOMAIN}, oldest first")
    ).to_have_count(1)
    customer.get_by_role("button", name="Run speed test").click()
    expect(chart).to_have_attribute("data-points", "4", timeout=30000)

    # One running test at a time, on the server too.
    psi.delay = 3.0
    customer.get_by_role("button", name="Run speed test").click()
    expect(customer.get_by_role("button", name="Speed test running…")).to_be_disabled()
    assert api_status(customer, "POST", f"/api/sites/{site_id}/speed-tests") == 409
    expect(chart).to_have_attribute("data-points", "5", timeout=30000)
    psi.delay = 0.0

    # The analytics page shows every site's history with the latest figures.
    customer.goto(server.url + "/dashboard/analytics")
    expect(customer.locator("figure.score-chart")).to_have_attribute("data-points", "5")
    expect(customer.locator("figure.score-chart .score-chart__live")).to_have_count(1)
    expect(customer.get_by_role("link", name=DOMAIN)).to_be_visible()

    # A second customer can read none of it.
    server.cli("users", "create", OTHER, stdin="not grace 12\nnot grace 12\n")
    other = open_page(browser, console, DESKTOP)
    log_in(other, server.url, OTHER, "not grace 12")
    expect(other).to_have_url(server.url + "/dashboard")
    for method, path in [
        ("GET", f"/api/sites/{site_id}"),
        ("GET", f"/api/sites/{site_id}/speed-tests/latest"),
        ("POST", f"/api/sites/{site_id}/speed-tests"),
        ("DELETE", f"/api/sites/{site_id}"),
    ]:
        assert api_status(other, method, path) == 404, (method, path)
    assert api_status(other, "GET", "/api/admin/sites") == 403
    other.goto(server.url + site_path)
    expect(other.get_by_text("This website does not exist.")).to_be_visible()
    other.goto(server.url + "/dashboard/websites")
    expect(other.get_by_text("You have no websites yet.")).to_be_visible()
    expect(other.locator(".site-card", has_text=DOMAIN)).to_have_count(0)

    # The schedule runs a monitored test and e-mails the drop (95 -> 84: below 90). The
    # schedule is made due now, as if a week had passed.
    psi.scores[DOMAIN] = 84
    database = server.workdir / "data" / "agency.db"
    with sqlite3.connect(database) as db:
        db.execute("UPDATE sites_website SET monitored_at = NULL")
        db.execute(
            "UPDATE job_schedule SET next_run_at = '2000-01-01 00:00:00+00:00' "
            "WHERE name = 'sites.monitor'"
        )
    text = mail_to(smtp_server, CUSTOMER, f"{DOMAIN}'s speed score dropped to 84/100", timeout=90)
    assert "down from 95" in text
    customer.goto(server.url + site_path)
    expect(chart).to_have_attribute("data-points", "6")
    expect(customer.locator(".speed-figures__number").first).to_contain_text("84")

    # The customer removes the site (confirming first); it leaves the list. Being a paying
    # subscriber, they read that this neither cancels the subscription nor stops hosting.
    customer.goto(server.url + "/dashboard/websites")
    card = customer.locator(".site-card", has_text=DOMAIN)
    card.get_by_role("button", name=re.compile("Remove")).click()
    confirm = card.get_by_role("group", name=re.compile("Remove"))
    expect(confirm).to_contain_text(
        f"Removing {DOMAIN} only takes it off this list. Your Professional subscription keeps "
        "running and being charged, and we keep hosting the site. To stop paying, cancel the "
        "subscription on Billing first."
    )
    expect(confirm.get_by_role("link", name="Go to Billing")).to_have_attribute(
        "href", "/dashboard/billing"
    )
    confirm.get_by_role("button", name="Remove from list only").click()
    expect(customer.get_by_text(f"{DOMAIN} was removed from your websites.")).to_be_visible()
    expect(customer.locator(".site-card", has_text=DOMAIN)).to_have_count(0)
    assert api_status(customer, "GET", f"/api/sites/{site_id}") == 404
    assert_clean(console)


def test_the_websites_pages_on_a_phone(
    sites: SitesServer, browser: Browser, console: ConsoleLog
) -> None:
    server = sites.server
    email = "phone@owner.example"
    server.cli("users", "create", email, stdin="small screen 1\nsmall screen 1\n")
    page = open_page(browser, console, PHONE, is_mobile=True, has_touch=True)
    log_in(page, server.url, email, "small screen 1")
    expect(page).to_have_url(server.url + "/dashboard")
    page.goto(server.url + "/dashboard/websites")
    expect(page.get_by_text("You have no websites yet.")).to_be_visible()
    expect(page.get_by_role("link", name="New Website", exact=True)).to_be_visible()
    page.goto(server.url + "/dashboard/analytics")
    expect(page.get_by_text("No websites yet.")).to_be_visible()
    page.goto(server.url + "/dashboard/admin/websites")
    expect(page.get_by_text("Only admins can see every customer website.")).to_be_visible()
    assert api_status(page, "GET", "/api/admin/sites") == 403
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    assert_clean(console)


def test_the_agency_websites_table_fits_a_phone(
    sites: SitesServer, browser: Browser, console: ConsoleLog
) -> None:
    """At 390 px the agency's list does not overflow: each site's status control is on screen
    and works."""
    server = sites.server
    email = "phone-admin@agency.example"
    server.cli("users", "create", email, stdin="small admin 12\nsmall admin 12\n")
    server.cli("users", "set-role", email, "admin")
    domain = "a-rather-long-domain-name-of-a-clinic.example"
    with sqlite3.connect(server.workdir / "data" / "agency.db") as db:
        for name in [domain, "short.example"]:
            db.execute(
                "INSERT INTO sites_website (user_id, domain, status, created_at) "
                "VALUES (0, ?, 'building', '2026-11-20 10:00:00+00:00')",
                (name,),
            )
    page = open_page(browser, console, PHONE, is_mobile=True, has_touch=True)
    log_in(page, server.url, email, "small admin 12")
    expect(page).to_have_url(server.url + "/dashboard")
    page.goto(server.url + "/dashboard/admin/websites")
    row = page.locator("tr", has_text=domain)
    select = row.get_by_label(f"New status of {domain}")
    expect(select).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, overflow
    wrap = page.locator(".sites-table-wrap")  # nor does the table scroll sideways in its box
    assert wrap.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
    select.scroll_into_view_if_needed()
    expect(select).to_be_in_viewport()
    update = row.get_by_role("button", name=re.compile("Update"))
    for control in [select, update]:
        box = control.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    select.select_option("paused")
    update.click()
    expect(page.get_by_role("status").filter(has_text=f"{domain} is now paused.")).to_be_visible()
    page.screenshot(path="/tmp/h2-admin-websites-390.png", full_page=True)
    assert_clean(console)
