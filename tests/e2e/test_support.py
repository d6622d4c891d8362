"""Support and notifications in real Chromium against the real server: a visitor's
and a customer's support requests reach the agency's inbox (the test SMTP server); an admin
replies from the dashboard, the reply reaches the customer's inbox, the request shows it, and
the top bar's notification dot appears and clears once the panel was opened. A second customer
can read none of it (API, not only UI)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page, running_server
from tests.e2e.test_accounts import log_in
from tests.fakes.smtp import SmtpServer

AGENCY = "support@agency.example"
CUSTOMER = "ada@lovelace.example"
CUSTOMER_PASSWORD = "engine notes 1843"
ADMIN = "helpdesk@agency.example"
ADMIN_PASSWORD = "agency admin 2"
OTHER = "eve@other.example"
OTHER_PASSWORD = "not ada at all 1"
THANKS = "Thank you! We received your request and will reply by email."


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    with running_server(tmp_path_factory, smtp_server, AGENCY_EMAIL=AGENCY) as live:
        yield live


def mail_to(smtp: SmtpServer, to: str, subject: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in smtp.inbox.messages:
            if message["To"] == to and subject in str(message["Subject"]):
                return smtp.inbox.text_of(message)
        time.sleep(0.2)
    raise AssertionError(f"no e-mail to {to} with {subject!r}")


def api(page: Page, base: str, method: str, path: str) -> tuple[int, object]:
    """A call from the page's own session (its cookies), as a script of the page would make."""
    response = page.request.fetch(base + path, method=method, headers={"X-Agency-Request": "1"})
    try:
        body: object = response.json()
    except Exception:
        body = None
    return response.status, body


def assert_clean(console: ConsoleLog) -> None:
    problems = [p for p in console.problems if "Failed to load resource" not in p]
    assert problems == [], problems


def test_a_visitor_request_reaches_the_agency(
    server: LiveServer, browser: Browser, console: ConsoleLog, smtp_server: SmtpServer
) -> None:
    page = open_page(browser, console, PHONE)
    page.goto(server.url + "/support")
    expect(page.get_by_role("heading", level=1, name="Support")).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="Send request").click()
    expect(page.get_by_role("alert")).to_have_text("Please enter your name")
    page.get_by_label("Your Name").fill("Grace Hopper")
    page.get_by_label("Email Address").fill("grace@navy.example")
    page.get_by_label("Subject").fill("Do you build shops?")
    page.get_by_label("Message").fill("We sell boats.\nMany boats.")
    page.get_by_role("button", name="Send request").click()
    expect(page.get_by_role("status")).to_contain_text(THANKS)
    text = mail_to(smtp_server, AGENCY, "Do you build shops? from grace@navy.example")
    assert "Grace Hopper <grace@navy.example> sent a support request." in text
    assert "Many boats." in text and "no (a visitor)" in text
    assert_clean(console)


def test_a_customer_request_its_reply_and_the_notification_dot(
    server: LiveServer, browser: Browser, console: ConsoleLog, smtp_server: SmtpServer
) -> None:
    server.cli("users", "create", CUSTOMER, stdin=f"{CUSTOMER_PASSWORD}\n{CUSTOMER_PASSWORD}\n")
    customer = open_page(browser, console, DESKTOP)
    log_in(customer, server.url, CUSTOMER, CUSTOMER_PASSWORD)
    expect(customer).to_have_url(server.url + "/dashboard")
    bell = customer.get_by_role("banner").get_by_role("button", name="Notifications")
    expect(bell).to_be_visible()
    expect(bell.locator(".icon-button__dot")).to_have_count(0)

    # /support sends a signed-in customer on to the dashboard's form.
    customer.goto(server.url + "/support")
    expect(customer).to_have_url(server.url + "/dashboard/support")
    expect(customer.get_by_text("No support requests yet.")).to_be_visible()
    customer.get_by_label("Subject").fill("Move my domain")
    customer.get_by_label("Message").fill("Can you move ada.example to you?")
    customer.get_by_role("button", name="Send request").click()
    expect(customer.get_by_role("status").filter(has_text=THANKS)).to_be_visible()
    past = customer.get_by_role("region", name="Your requests")
    expect(past.get_by_role("heading", name="Move my domain")).to_be_visible()
    expect(past.get_by_text("Open", exact=True)).to_be_visible()
    text = mail_to(smtp_server, AGENCY, f"Move my domain from {CUSTOMER}")
    assert "Customer: yes" in text and "/dashboard/admin/support" in text

    # An admin answers from the dashboard.
    server.cli("users", "create", ADMIN, stdin=f"{ADMIN_PASSWORD}\n{ADMIN_PASSWORD}\n")
    server.cli("users", "set-role", ADMIN, "admin")
    listed = server.cli("support", "list", "--status", "open").stdout
    # This one open, and the visitor's too when the test above ran on this worker's server
    # (pytest-xdist may hand the module's tests to two workers, each with its own server).
    assert re.search(r"\b[12] support request\(s\)", listed), listed
    assert "Move my" in listed  # the subject (the table wraps it)
    admin = open_page(browser, console, DESKTOP)
    log_in(admin, server.url, ADMIN, ADMIN_PASSWORD)
    expect(admin).to_have_url(server.url + "/dashboard")
    admin.get_by_role("link", name="Support Requests").first.click()
    expect(admin).to_have_url(server.url + "/dashboard/admin/support")
    card = admin.locator(".support-request", has_text="Move my domain")
    card.get_by_label("Reply to").fill("Yes. Send us the transfer code.")
    card.get_by_role("button", name="Send reply").click()
    expect(card.get_by_role("status")).to_have_text(f"Reply sent to {CUSTOMER}.")
    expect(card.locator(".badge")).to_have_text("Answered")
    reply = mail_to(smtp_server, CUSTOMER, "Re: Move my domain")
    assert "Yes. Send us the transfer code." in reply
    assert server.url + "/dashboard/support" in reply

    # The customer's dot appears (the bell asks on each page), and clears once opened.
    customer.goto(server.url + "/dashboard/support")
    bell = customer.get_by_role("banner").get_by_role("button", name="Notifications, 1 unread")
    expect(bell.locator(".icon-button__dot")).to_have_count(1)
    expect(past.get_by_text("Answered", exact=True)).to_be_visible()
    expect(past.get_by_text("Yes. Send us the transfer code.")).to_be_visible()
    bell.click()
    panel = customer.get_by_role("region", name="Notifications")
    expect(panel.get_by_role("link", name="We answered: Move my domain")).to_be_visible()
    bell = customer.get_by_role("banner").get_by_role("button", name="Notifications", exact=True)
    expect(bell.locator(".icon-button__dot")).to_have_count(0)
    customer.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(bell).to_be_focused()
    customer.reload()
    bell = customer.get_by_role("banner").get_by_role("button", name="Notifications", exact=True)
    expect(bell).to_be_visible()
    expect(bell.locator(".icon-button__dot")).to_have_count(0)

    # The admin resolves it.
    card.get_by_role("button", name="Mark resolved").click()
    admin.get_by_label("Status").select_option("resolved")
    expect(
        admin.locator(".support-request", has_text="Move my domain").locator(".badge")
    ).to_have_text("Resolved")

    # A second customer reads none of it, by page or by API.
    server.cli("users", "create", OTHER, stdin=f"{OTHER_PASSWORD}\n{OTHER_PASSWORD}\n")
    other = open_page(browser, console, DESKTOP)
    log_in(other, server.url, OTHER, OTHER_PASSWORD)
    expect(other).to_have_url(server.url + "/dashboard")
    other.goto(server.url + "/dashboard/support")
    expect(other.get_by_text("No support requests yet.")).to_be_visible()
    assert api(other, server.url, "GET", "/api/support") == (200, {"requests": []})
    status, body = api(other, server.url, "GET", "/api/notifications")
    assert (status, body) == (200, {"notifications": [], "unread": 0})
    assert api(other, server.url, "GET", "/api/admin/support")[0] == 403
    assert api(other, server.url, "POST", "/api/admin/support/1/resolve")[0] == 403
    other.goto(server.url + "/dashboard/admin/support")
    expect(other.get_by_text("Only admins can see the support requests.")).to_be_visible()
    assert_clean(console)
