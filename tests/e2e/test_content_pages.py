"""Footer pages written in Markdown (config/pages/) and the configured site details, in real
Chromium against the real server: prerendered with their text, readable without JavaScript,
loaded over the API on client-side navigation, and hydrating without warnings."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import (
    CONTACT_EMAIL,
    CONTACT_PHONE,
    DESKTOP,
    PHONE,
    ConsoleLog,
    LiveServer,
    open_page,
)

HEADLINES = {
    "/faq": "Frequently Asked Questions",
    "/about": "About us",
    "/contact": "Contact",
    "/careers": "Careers",
    "/privacy": "Privacy Policy",
    "/terms": "Terms of Service",
    "/cookies": "Cookie Policy",
}


@pytest.mark.parametrize(("path", "headline"), sorted(HEADLINES.items()))
def test_footer_page_shows_its_markdown_text(
    page: Page, live_server: LiveServer, console: ConsoleLog, path: str, headline: str
) -> None:
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("heading", level=1)).to_have_text(headline)
    expect(page.locator("article.prose h2").first).to_be_visible()
    assert console.problems == [], console.problems


def test_footer_pages_are_readable_without_javascript(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    page = open_page(browser, console, PHONE, java_script_enabled=False)
    page.goto(live_server.url + "/privacy")
    expect(page.get_by_role("heading", level=1)).to_have_text("Privacy Policy")
    expect(page.get_by_text("argon2id")).to_be_visible()
    page.context.close()


def test_footer_link_loads_the_page_over_the_api(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + "/")
    page.wait_for_load_state("networkidle")
    with page.expect_response(lambda r: r.url.endswith("/api/pages/cookies")) as answer:
        page.get_by_role("contentinfo").get_by_role("link", name="Cookies").click()
    assert answer.value.status == 200
    expect(page).to_have_url(live_server.url + "/cookies")
    expect(page.get_by_role("heading", level=1)).to_have_text("Cookie Policy")
    expect(page.get_by_role("cell", name="agency_session")).to_be_visible()
    assert console.problems == [], console.problems


def test_contact_page_and_clinic_page_show_the_configured_details(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    page = open_page(browser, console, DESKTOP)
    page.goto(live_server.url + "/contact")
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("link", name=CONTACT_EMAIL)).to_have_attribute(
        "href", f"mailto:{CONTACT_EMAIL}"
    )
    expect(page.get_by_role("link", name=CONTACT_PHONE)).to_have_attribute(
        "href", "tel:+442079460958"
    )
    # A page built by React shows the configured phone too, prerendered and after hydration.
    page.goto(live_server.url + "/lead-generation")
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("link", name=CONTACT_PHONE)).to_have_attribute(
        "href", "tel:+442079460958"
    )
    assert "1234 5678" not in page.content()
    assert console.problems == [], console.problems
    page.context.close()
