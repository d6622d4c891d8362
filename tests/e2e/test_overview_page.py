"""The admins' overview in Chromium against the real server: an admin who signs in lands on it
at phone and desktop width, with no console problem and no axe-core violation, both as a new
install answers (the real server) and with a month of figures (the web UI's fixture of
GET /api/admin/overview, which fills every chart, table and list); a customer who signs in keeps
the customer home and never asks for the overview."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from agency.core.paths import web_dir
from tests.e2e.conftest import (
    DESKTOP,
    PHONE,
    ConsoleLog,
    LiveServer,
    open_page,
    running_server,
)
from tests.e2e.test_accessibility import AXE_TAGS, REVIEW_AS_VIOLATION, RUN_AXE, describe
from tests.e2e.test_accounts import log_in
from tests.fakes.smtp import SmtpServer

ADMIN = "overview-admin@example.com"
CUSTOMER = "overview-customer@example.com"
PASSWORD = "overview 1962 pw"
WEBUI = web_dir().parent  # webui/
FIXTURE = (WEBUI / "test" / "fixtures" / "overview.json").read_text()
AXE_SOURCE = WEBUI / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": DESKTOP},
}


def create_accounts(server: LiveServer) -> None:
    server.cli("users", "create", ADMIN, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    server.cli("users", "create", CUSTOMER, stdin=f"{PASSWORD}\n{PASSWORD}\n")


@pytest.fixture(scope="module")
def accounts(live_server: LiveServer) -> None:
    create_accounts(live_server)


@pytest.fixture(scope="module")
def new_install(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    """A server of its own: the shared one holds what the other browser tests bought, signed
    up for and asked, so its overview is not a new install's."""
    with running_server(tmp_path_factory, smtp_server) as server:
        # Only the admin: a customer's sign-up would already be something to count.
        server.cli("users", "create", ADMIN, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
        yield server


def axe_violations(page: Page) -> list[dict[str, Any]]:
    page.add_script_tag(content=Path(AXE_SOURCE).read_text())
    violations: list[dict[str, Any]] = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
    return violations


@pytest.mark.parametrize("figures", ["new-install", "a-month"])
@pytest.mark.parametrize("width", list(WIDTHS))
def test_an_admin_lands_on_the_overview(
    browser: Browser,
    request: pytest.FixtureRequest,
    console: ConsoleLog,
    width: str,
    figures: str,
) -> None:
    if figures == "new-install":
        server: LiveServer = request.getfixturevalue("new_install")
    else:
        request.getfixturevalue("accounts")
        server = request.getfixturevalue("live_server")
    base = server.url
    options = WIDTHS[width]
    page = open_page(
        browser,
        console,
        options["viewport"],
        bypass_csp=True,  # for axe-core's script only
        **{k: v for k, v in options.items() if k != "viewport"},
    )
    asked: list[str] = []
    page.on(
        "request",
        lambda request: asked.append(request.url) if "/api/admin/overview" in request.url else None,
    )
    if figures == "a-month":

        def answer(route: Route) -> None:
            route.fulfill(status=200, body=FIXTURE, content_type="application/json")

        page.route("**/api/admin/overview*", answer)
    try:
        log_in(page, base, ADMIN, PASSWORD)
        expect(page).to_have_url(base + "/dashboard")
        expect(page.get_by_role("heading", name="Overview", level=1)).to_be_visible()
        expect(page.get_by_role("heading", name="Key figures")).to_be_attached()
        expect(page.get_by_role("heading", name="Choose Your Service")).to_have_count(0)
        mrr = page.locator("[data-card=mrr]")
        if figures == "new-install":
            expect(page.get_by_text("Nothing to count yet.")).to_be_visible()
            expect(mrr).to_contain_text("€0")
        else:
            expect(mrr).to_contain_text("€3,487")
            expect(mrr).to_contain_text("Up 12%")
            failed = page.locator("#ov-failed").locator("xpath=ancestor::section[1]")
            expect(failed.get_by_role("link", name="ada@bakery.example")).to_have_attribute(
                "href", "mailto:ada@bakery.example"
            )
        # The charts draw within the page: nothing wider than the window.
        for chart in page.locator(".ov-chart svg").all():
            box = chart.bounding_box()
            assert box is not None and box["x"] + box["width"] <= options["viewport"]["width"]
        scroll_width = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll_width <= options["viewport"]["width"]

        # The period lives in the address, and a new period is fetched.
        # Waits for the request itself: the page's figures of the period before are already
        # there, so nothing on the page tells that the new one was asked for yet.
        with page.expect_request(lambda request: "period=last_month" in request.url):
            page.get_by_label("Period").select_option(label="Last month")
        expect(page).to_have_url(base + "/dashboard?period=last_month")
        expect(page.get_by_role("heading", name="Key figures")).to_be_attached()
        assert any("period=last_month" in url for url in asked), asked

        page.wait_for_load_state("networkidle")
        violations = axe_violations(page)
    finally:
        page.context.close()
    problems = []
    if violations:
        problems.append(describe("/dashboard (overview)", width, violations))
    if console.problems:
        problems.append(f"console problems at {width} width: {console.problems}")
    assert not problems, "\n".join(problems)


def test_a_customer_keeps_the_customer_home(
    browser: Browser, live_server: LiveServer, console: ConsoleLog, accounts: None
) -> None:
    base = live_server.url
    page = open_page(browser, console, PHONE, is_mobile=True, has_touch=True)
    asked: list[str] = []
    page.on(
        "request",
        lambda request: asked.append(request.url) if "/api/admin/overview" in request.url else None,
    )
    try:
        log_in(page, base, CUSTOMER, PASSWORD)
        expect(page).to_have_url(base + "/dashboard")
        expect(page.get_by_role("heading", name="Choose Your Service")).to_be_visible()
        expect(page.get_by_role("heading", name="Overview", level=1)).to_have_count(0)
        page.wait_for_load_state("networkidle")
        # The overview's chunk is never fetched for a customer, nor its figures.
        scripts = page.evaluate(
            "() => performance.getEntriesByType('resource').map((e) => e.name)"
            ".filter((n) => n.includes('/assets/Overview-'))"
        )
        assert scripts == []
        assert asked == []
        # The API refuses the figures to a customer.
        response = page.request.get(base + "/api/admin/overview")
        assert response.status == 403
    finally:
        page.context.close()
    assert [p for p in console.problems if "Failed to load resource" not in p] == []
