"""The audit log in Chromium against the real server: an admin sets a website live on the
websites page and finds the change in the audit log (who, what, before → after), together with
a role change made by `agency users set-role` (the command line); filters by action, keeps
the filter in the address, downloads what is shown as CSV; no axe violation and no sideways
scrolling at phone and desktop width; a plain user is refused by the page and the API."""

from __future__ import annotations

import csv
import io
from typing import Any

from playwright.sync_api import Browser, Page, expect

from agency.modules.auth.models import User
from agency.modules.sites.service import websites
from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page
from tests.e2e.test_accessibility import AXE_TAGS, REVIEW_AS_VIOLATION, RUN_AXE, describe
from tests.e2e.test_accessibility import axe_source as axe_source  # the fixture
from tests.e2e.test_accounts import expected_failures, log_in
from tests.e2e.test_blog import on_database

ADMIN = "audit-admin@example.com"
CUSTOMER = "audit-customer@example.com"
USER = "audit-user@example.com"
PASSWORD = "audit 1962 pw"
DOMAIN = "audited-shop.example"


def add_website(server: LiveServer, email: str, domain: str) -> None:
    async def work() -> None:
        user = await User.get(email=email)
        await websites.create_website(user.id, domain)

    on_database(server, work)


def check_axe(page: Page, source: str, where: str) -> None:
    page.add_script_tag(content=source)
    violations: list[dict[str, Any]] = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
    assert not violations, describe("/dashboard/admin/audit", where, violations)


def test_an_admin_sets_a_site_live_and_finds_it_in_the_audit_log(
    browser: Browser, live_server: LiveServer, console: ConsoleLog, axe_source: str
) -> None:
    base = live_server.url
    live_server.cli("users", "create", ADMIN, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    live_server.cli("users", "create", CUSTOMER, stdin=f"{PASSWORD}\n{PASSWORD}\n")
    add_website(live_server, CUSTOMER, DOMAIN)
    live_server.cli("users", "set-role", CUSTOMER, "admin")

    page = open_page(browser, console, DESKTOP, bypass_csp=True)
    try:
        log_in(page, base, ADMIN, PASSWORD)
        expect(page).to_have_url(base + "/dashboard")
        page.goto(base + "/dashboard/admin/websites")
        row = page.locator("tbody tr").filter(has_text=DOMAIN)
        row.get_by_label(f"New status of {DOMAIN}").select_option("live")
        row.get_by_role("button", name=f"Update {DOMAIN}").click()
        expect(page.get_by_text(f"{DOMAIN} is now live.")).to_be_visible()

        nav = page.get_by_role("navigation", name="Dashboard")
        nav.get_by_role("link", name="Audit Log").click()
        expect(page).to_have_url(base + "/dashboard/admin/audit")
        expect(page.get_by_role("heading", name="Audit log", level=1)).to_be_visible()
        table = page.get_by_role("table", name="Audit log, newest first")
        site = table.get_by_role("row").filter(has_text=DOMAIN)
        expect(site).to_contain_text(ADMIN)
        expect(site).to_contain_text("Website status changed")
        expect(site).to_contain_text("Status: building → changed to live")
        role = table.get_by_role("row").filter(has_text=CUSTOMER)
        expect(role).to_contain_text("command line")
        expect(role).to_contain_text("Role: user → changed to admin")
        check_axe(page, axe_source, "desktop")

        page.get_by_label("Action").select_option(label="Website status changed")
        expect(page).to_have_url(base + "/dashboard/admin/audit?action=site.status_changed")
        expect(site).to_be_visible()
        expect(role).to_have_count(0)
        with page.expect_download() as info:
            page.get_by_role("button", name="Download CSV").click()
        download = info.value
        assert download.suggested_filename == "audit-log.csv"
        text = download.path().read_text(encoding="utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(text)))
        assert {r["Action"] for r in rows} == {"Website status changed"}
        mine = [r for r in rows if r["Target"] == DOMAIN]
        assert len(mine) == 1
        assert (mine[0]["Who"], mine[0]["Field"], mine[0]["Before"], mine[0]["After"]) == (
            ADMIN,
            "Status",
            "building",
            "live",
        )
    finally:
        page.context.close()

    phone = open_page(browser, console, PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    try:
        log_in(phone, base, ADMIN, PASSWORD)
        expect(phone).to_have_url(base + "/dashboard")
        phone.goto(base + "/dashboard/admin/audit")
        card = phone.locator("tbody tr").filter(has_text=DOMAIN)
        expect(card).to_contain_text("Website status changed")
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        check_axe(phone, axe_source, "phone")
    finally:
        phone.context.close()
    assert expected_failures(console) == []


def test_a_plain_user_is_refused_the_audit_log(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    base = live_server.url
    live_server.cli("users", "create", USER, stdin=f"{PASSWORD}\n{PASSWORD}\n")
    page = open_page(browser, console, DESKTOP)
    try:
        log_in(page, base, USER, PASSWORD)
        expect(page).to_have_url(base + "/dashboard")
        expect(page.get_by_role("link", name="Audit Log")).to_have_count(0)
        page.goto(base + "/dashboard/admin/audit")
        expect(page.get_by_text("Only admins can read the audit log.")).to_be_visible()
        expect(page.get_by_role("table")).to_have_count(0)
        response = page.request.get(base + "/api/admin/audit")
        assert response.status == 403, response.status
    finally:
        page.context.close()
    assert expected_failures(console) == []
