"""Withdraw from contract and Cancel contracts here in Chromium, without an account, against
the real server on both databases: the receipts arrive at the test SMTP server, the
subscription ends at the fake Stripe; deleting an account ends its subscription there first;
the dashboard then reads "Ends on"; /withdrawal shows the statutory text with the seller."""

from __future__ import annotations

import itertools
import json
import re
import time
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from http.cookiejar import CookieJar
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import BACKENDS
from tests.e2e.conftest import ConsoleLog, LiveServer, open_page, running_server_on
from tests.e2e.test_accessibility import (
    AXE_SOURCE,
    AXE_TAGS,
    REVIEW_AS_VIOLATION,
    RUN_AXE,
    WIDTHS,
    describe,
)
from tests.e2e.test_accounts import log_in
from tests.fakes.smtp import SmtpServer

BUYERS = itertools.count()
PASSWORD = "withdraw 2026 ok"


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    smtp_server: SmtpServer,
) -> Iterator[LiveServer]:
    """A server of its own on each database (SQLite, PostgreSQL)."""
    with running_server_on(request.param, "contracts", tmp_path_factory, smtp_server) as live:
        yield live


class Buyer:
    """A visitor who bought a plan through the API (the order step is tested elsewhere)."""

    def __init__(self, server: LiveServer, plan: str, domain: str) -> None:
        self.server = server
        self.email = f"grace{next(BUYERS)}-{uuid.uuid4().hex[:4]}@example.com"
        self.domain = domain
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        answer = self.call(
            "POST",
            "/api/billing/checkout",
            {
                "plan": plan,
                "domain": domain,
                "full_name": "Grace Hopper",
                "email": self.email,
                "password": PASSWORD,
            },
        )
        session_id = answer["url"].rstrip("/").rsplit("/", 1)[1]
        server.stripe.pay(session_id)  # the fake's webhooks reach the server
        deadline = time.monotonic() + 20
        while not self.call("GET", "/api/billing/orders")["orders"]:
            assert time.monotonic() < deadline, "the order was not recorded"
            time.sleep(0.2)
        self.order_id = self.call("GET", "/api/billing/orders")["orders"][0]["id"]
        self.order_number = f"AG-{self.order_id:06d}"

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.server.url + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json", "X-Agency-Request": "1"},
        )
        with self.opener.open(request, timeout=20) as response:
            return json.loads(response.read() or b"null")

    def subscription_at_stripe(self) -> dict[str, Any]:
        [subscription] = [
            s
            for s in self.server.stripe._all("subscription")
            if self.server.stripe.get(s["customer"])["email"] == self.email
        ]
        return self.server.stripe.get(subscription["id"])


def mails_to(smtp: SmtpServer, address: str, subject: str, timeout: float = 20) -> list[Any]:
    """The messages to `address` whose subject holds `subject`, once at least one arrived."""
    deadline = time.monotonic() + timeout
    while True:
        found = [m for m in smtp.inbox.messages if m["To"] == address and subject in m["Subject"]]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def body_of(message: Any) -> str:
    return str(message.get_body(preferencelist=("plain",)).get_content())


def test_a_consumer_withdraws_without_an_account(
    page: Page, server: LiveServer, smtp_server: SmtpServer
) -> None:
    buyer = Buyer(server, "starter", f"hopper{next(BUYERS)}.example")
    page.goto(server.url + "/")
    page.get_by_role("contentinfo").get_by_role("link", name="Withdraw from contract").click()
    expect(page).to_have_url(server.url + "/withdraw")
    expect(page.get_by_role("heading", level=1, name="Withdraw from contract")).to_be_visible()
    page.get_by_label("E-mail address of the order").fill("nobody@example.com")
    page.get_by_label("Order number or website domain").fill(buyer.order_number)
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_text("We could not find a contract for these details")).to_be_visible()
    page.get_by_label("E-mail address of the order").fill(buyer.email.upper())
    page.get_by_label("Order number or website domain").fill(buyer.order_number.lower())
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Confirm your withdrawal")).to_be_visible()
    facts = page.locator(".contract-form__facts")
    expect(facts).to_contain_text(buyer.order_number)
    expect(facts).to_contain_text("Withdrawal period ends")
    page.get_by_role("button", name="Confirm withdrawal").click()
    expect(page.get_by_role("status")).to_contain_text("Your withdrawal has reached us")
    expect(page.get_by_role("status")).to_contain_text("UTC")
    receipts = mails_to(smtp_server, buyer.email, "received your withdrawal")
    assert len(receipts) == 1
    assert buyer.order_number in receipts[0]["Subject"]
    assert "Withdrawal received:" in body_of(receipts[0])
    listed = server.cli("contracts", "list").stdout  # the admins' list (a narrow terminal)
    assert re.search(r"\b[1-9]\d* withdrawal\(s\)", listed), listed


def test_a_subscription_is_cancelled_without_an_account(
    page: Page, server: LiveServer, smtp_server: SmtpServer
) -> None:
    buyer = Buyer(server, "starter", f"lovelace{next(BUYERS)}.example")
    at_stripe = buyer.subscription_at_stripe()
    assert at_stripe["cancel_at_period_end"] is False
    end = datetime.fromtimestamp(at_stripe["items"]["data"][0]["current_period_end"], UTC)
    day = f"{end.day} {end:%B %Y}"
    page.goto(server.url + "/")
    page.get_by_role("contentinfo").get_by_role("link", name="Cancel contracts here").click()
    expect(page.get_by_role("heading", level=1, name="Cancel contracts here")).to_be_visible()
    page.get_by_label("E-mail address of the order").fill(buyer.email)
    page.get_by_label("Order number or website domain").fill(f"https://www.{buyer.domain}/")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Confirm your cancellation")).to_be_visible()
    expect(page.locator(".contract-form__facts")).to_contain_text(day)
    page.get_by_role("button", name="Cancel now").click()
    expect(page.get_by_role("status")).to_contain_text("Your cancellation is confirmed")
    expect(page.get_by_role("status")).to_contain_text(f"ends on {day}")
    assert buyer.subscription_at_stripe()["cancel_at_period_end"] is True
    assert buyer.subscription_at_stripe()["status"] == "active"
    time.sleep(1)  # the webhook that follows must not send a second confirmation
    confirmations = mails_to(smtp_server, buyer.email, "cancellation is confirmed")
    assert len(confirmations) == 1 and day in confirmations[0]["Subject"]
    # The customer's dashboard reads "Ends on", not "Next billing date".
    log_in(page, server.url, buyer.email, PASSWORD)
    expect(page).to_have_url(server.url + "/dashboard")
    page.goto(server.url + "/dashboard/billing")
    facts = page.locator(".plan-card__facts")
    expect(facts).to_contain_text("Ends on")
    expect(facts).not_to_contain_text("Next billing date")
    expect(facts).to_contain_text(str(end.year))


def test_deleting_the_account_cancels_the_subscription_first(
    page: Page, server: LiveServer
) -> None:
    buyer = Buyer(server, "starter", f"hamilton{next(BUYERS)}.example")
    assert buyer.subscription_at_stripe()["status"] == "active"
    log_in(page, server.url, buyer.email, PASSWORD)
    expect(page).to_have_url(server.url + "/dashboard")
    page.goto(server.url + "/dashboard/settings")
    page.get_by_role("button", name="Delete my account").click()
    warning = page.locator(".danger-zone")
    expect(warning).to_contain_text("cancelled at our payment provider first")
    expect(warning).to_contain_text("not refunded automatically")
    warning.get_by_label("Current password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account permanently").click()
    expect(page).to_have_url(re.compile(re.escape(server.url) + r"/(\?.*)?$"), timeout=20000)
    assert buyer.subscription_at_stripe()["status"] == "canceled"


def test_the_withdrawal_information_page(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/withdrawal")
    expect(page.get_by_role("heading", level=1, name="Withdrawal information")).to_be_visible()
    article = page.locator("[data-content-page=withdrawal]")
    expect(article).to_contain_text("within 14 days without giving any reason")
    expect(article).to_contain_text("in proportion to what has been provided")
    expect(article).to_contain_text("Model withdrawal form")
    expect(article.get_by_role("link", name="Withdraw from contract")).to_have_attribute(
        "href", "/withdraw"
    )


def test_the_three_pages_are_in_the_sitemap(page: Page, server: LiveServer) -> None:
    sitemap = page.request.get(server.url + "/sitemap.xml").text()
    for path in ("/withdrawal", "/withdraw", "/cancel"):
        assert f"<loc>{server.url}{path}</loc>" in sitemap


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_the_confirmation_steps_are_accessible(
    browser: Browser, server: LiveServer, console: ConsoleLog, width: str
) -> None:
    """axe on the steps a prerendered page's sweep does not reach: both confirmations (the
    cancellation with its extraordinary reason field open) and a receipt."""
    buyer = Buyer(server, "starter", f"noether{next(BUYERS)}.example")
    options = WIDTHS[width]
    page = open_page(
        browser,
        console,
        options["viewport"],
        bypass_csp=True,
        **{k: v for k, v in options.items() if k != "viewport"},
    )
    axe = AXE_SOURCE.read_text()

    def check(state: str) -> None:
        page.add_script_tag(content=axe)
        violations = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
        assert not violations, describe(state, width, violations)

    try:
        for path, reference in (("/cancel", buyer.domain), ("/withdraw", buyer.order_number)):
            page.goto(server.url + path)
            page.wait_for_load_state("networkidle")
            page.get_by_label("E-mail address of the order").fill(buyer.email)
            page.get_by_label("Order number or website domain").fill(reference)
            page.get_by_role("button", name="Continue").click()
            expect(page.get_by_role("heading", name=re.compile("^Confirm your"))).to_be_visible()
            if path == "/cancel":
                page.get_by_role("radio", name=re.compile("^Extraordinary")).check()
                page.get_by_role("button", name="Cancel now").click()
                expect(page.locator(".field__error")).to_be_visible()
            check(f"{path} (confirmation)")
        page.get_by_role("button", name="Confirm withdrawal").click()
        expect(page.get_by_role("status")).to_be_visible()
        check("/withdraw (receipt)")
    finally:
        page.context.close()
    assert console.problems == []
