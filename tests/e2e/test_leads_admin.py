"""The admin leads page in Chromium against the real server: leads sent through a public form
and the API show up, filter by source, download as CSV with the same filter; a plain user is
refused by the page and by the API."""

from __future__ import annotations

import csv
import io

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page
from tests.e2e.test_accounts import expected_failures, log_in

ADMIN = "leads-admin@example.com"
USER = "leads-user@example.com"
PASSWORD = "leads 1962 pw"
FORM_LEAD = "strategy-call@clinic.example"
API_LEAD = "nina@brightkeys.example"


def post_lead(page: Page, base: str, **fields: str) -> None:
    response = page.request.post(
        base + "/api/leads",
        data=fields,
        headers={"X-Agency-Request": "1"},
    )
    assert response.status == 201, response.text()


def send_leads(page: Page, base: str) -> None:
    # One through the public form on /ai-automation, one straight through the API.
    page.goto(base + "/ai-automation")
    page.wait_for_load_state("networkidle")
    page.get_by_label("Email Address").fill(FORM_LEAD)
    page.get_by_role("button", name="Book My Free Strategy Call").click()
    expect(page.get_by_role("status").filter(has_text="Thank you!")).to_be_visible()
    post_lead(
        page,
        base,
        source="free-preview",
        email=API_LEAD,
        name="Nina Berg",
        domain="brightkeys.example",
    )


def test_admin_sees_filters_and_downloads_the_leads(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    base = live_server.url
    live_server.cli("users", "create", ADMIN, "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    send_leads(page, base)

    log_in(page, base, ADMIN, PASSWORD)
    expect(page).to_have_url(base + "/dashboard")
    page.get_by_role("navigation", name="Dashboard").get_by_role("link", name="Leads").click()
    expect(page).to_have_url(base + "/dashboard/leads")
    expect(page.get_by_role("heading", name="Leads", level=1)).to_be_visible()

    table = page.get_by_role("table")
    form_row = table.get_by_role("row").filter(has_text=FORM_LEAD)
    api_row = table.get_by_role("row").filter(has_text=API_LEAD)
    expect(form_row).to_contain_text("AI automation strategy call")
    expect(api_row).to_contain_text("Nina Berg")
    expect(api_row).to_contain_text("brightkeys.example")
    expect(api_row).to_contain_text("Real Estate Website Rebuild")
    expect(api_row.get_by_role("link", name=API_LEAD)).to_have_attribute(
        "href", f"mailto:{API_LEAD}"
    )

    # Filter by source: the request goes to the server, the address keeps the filter.
    page.get_by_label("Source").select_option(label="Real Estate Website Rebuild")
    expect(page).to_have_url(base + "/dashboard/leads?source=free-preview")
    expect(api_row).to_be_visible()
    expect(form_row).to_have_count(0)
    csv_link = page.get_by_role("link", name="Download CSV")
    expect(csv_link).to_have_attribute("href", "/api/admin/leads.csv?source=free-preview")

    with page.expect_download() as info:
        csv_link.click()
    download = info.value
    assert download.suggested_filename == "leads.csv"
    path = download.path()
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert rows, "the CSV has no rows"
    assert {row["form"] for row in rows} == {"Real Estate Website Rebuild"}
    mine = [row for row in rows if row["email"] == API_LEAD]
    assert len(mine) == 1
    assert mine[0]["name"] == "Nina Berg"
    assert mine[0]["domain"] == "brightkeys.example"
    assert FORM_LEAD not in {row["email"] for row in rows}

    # Back to every source: both leads again, and the CSV link without a filter.
    page.get_by_label("Source").select_option(label="All sources")
    expect(page).to_have_url(base + "/dashboard/leads")
    expect(form_row).to_be_visible()
    expect(api_row).to_be_visible()
    expect(csv_link).to_have_attribute("href", "/api/admin/leads.csv")
    assert expected_failures(console) == []


def test_leads_page_reads_as_cards_on_a_phone(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    base = live_server.url
    live_server.cli(
        "users", "create", "phone-admin@example.com", "--admin", stdin=f"{PASSWORD}\n{PASSWORD}\n"
    )
    phone = open_page(browser, console, PHONE, is_mobile=True, has_touch=True)
    try:
        post_lead(phone, base, source="ai-booking-demo", email="phone-lead@clinic.example")
        log_in(phone, base, "phone-admin@example.com", PASSWORD)
        expect(phone).to_have_url(base + "/dashboard")
        phone.goto(base + "/dashboard/leads")
        row = phone.locator("tbody tr").filter(has_text="phone-lead@clinic.example")
        expect(row).to_contain_text("AI booking demo")
        # Nothing sticks out sideways: the table turns into stacked cards.
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
    finally:
        phone.context.close()
    assert expected_failures(console) == []


def test_a_plain_user_is_refused_by_the_page_and_the_api(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    base = live_server.url
    live_server.cli("users", "create", USER, stdin=f"{PASSWORD}\n{PASSWORD}\n")
    page = open_page(browser, console, DESKTOP)
    try:
        log_in(page, base, USER, PASSWORD)
        expect(page).to_have_url(base + "/dashboard")
        expect(page.get_by_role("link", name="Leads")).to_have_count(0)
        page.goto(base + "/dashboard/leads")
        expect(
            page.get_by_text("Only admins can see the leads from the website forms.")
        ).to_be_visible()
        expect(page.get_by_role("table")).to_have_count(0)
        for path in ("/api/admin/leads", "/api/admin/leads.csv"):
            response = page.request.get(base + path)
            assert response.status == 403, (path, response.status)
    finally:
        page.context.close()
    assert expected_failures(console) == []
