"""Who sells, in real Chromium against the real server: the legal notice filled from the
configuration (prerendered, readable without JavaScript, reached from every footer and as
/impressum, axe clean at phone and desktop width), and the demo notice every page shows while
the seller's details are the shipped demo ones (in the HTML from the first byte: nothing moves,
hydration does not see it), gone once real details are configured."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import (
    DESKTOP,
    PHONE,
    ConsoleLog,
    LiveServer,
    open_page,
    running_server,
)
from tests.e2e.test_accessibility import AXE_TAGS, REVIEW_AS_VIOLATION, RUN_AXE, describe, settle
from tests.fakes.smtp import SmtpServer
from tests.legal.seller import SELLER, SELLER_FULL_NAME, SELLER_VAT_ID

DEMO_NOTICE = "Demo seller details"
WIDTHS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": DESKTOP},
}


@pytest.fixture(scope="module")
def seller_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    """The real server with a real-looking seller configured (no demo value left)."""
    settings = {key.upper(): value for key, value in SELLER.items()}
    with running_server(tmp_path_factory, smtp_server, ENV="production", **settings) as server:
        yield server


def check_imprint(page: Page) -> None:
    article = page.locator("article[data-content-page=imprint]")
    expect(page.get_by_role("heading", level=1)).to_have_text("Legal notice")
    expect(article).to_contain_text(SELLER_FULL_NAME)
    expect(article).to_contain_text("Hafenstraße 7")
    expect(article).to_contain_text("20457 Hamburg")
    expect(article).to_contain_text("Jana Kowalski, Tom Berger")
    expect(article).to_contain_text("Amtsgericht Hamburg")
    expect(article).to_contain_text("HRB 171717")
    expect(article).to_contain_text(SELLER_VAT_ID)
    expect(article).to_contain_text("§ 18(2) MStV")
    expect(article).to_contain_text(
        "We are neither willing nor obliged to take part in dispute resolution proceedings "
        "before a consumer arbitration board."
    )
    expect(article.get_by_role("link", name="kontakt@nordlicht.example")).to_have_attribute(
        "href", "mailto:kontakt@nordlicht.example"
    )
    assert page.locator("a[href*='ec.europa.eu']").count() == 0  # no ODR platform link


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_legal_notice_shows_the_configured_seller_and_is_axe_clean(
    browser: Browser,
    seller_server: LiveServer,
    console: ConsoleLog,
    width: str,
    request: pytest.FixtureRequest,
) -> None:
    options = WIDTHS[width]
    page = open_page(
        browser,
        console,
        options["viewport"],
        bypass_csp=True,
        **{k: v for k, v in options.items() if k != "viewport"},
    )
    try:
        response = page.goto(seller_server.url + "/imprint")
        assert response is not None and response.status == 200
        settle(page)
        check_imprint(page)
        expect(page.get_by_text(DEMO_NOTICE)).to_have_count(0)  # real details: no demo notice
        page.screenshot(path=f"/tmp/notes/imprint-{width}.png", full_page=True)
        axe = request.getfixturevalue("axe_source")
        page.add_script_tag(content=axe)
        violations = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
    finally:
        page.context.close()
    assert not violations, describe("/imprint", width, violations)
    assert console.problems == [], console.problems


@pytest.fixture(scope="module")
def axe_source() -> str:
    from tests.e2e.test_accessibility import AXE_SOURCE

    return AXE_SOURCE.read_text()


def test_the_legal_notice_is_readable_without_javascript(
    browser: Browser, seller_server: LiveServer, console: ConsoleLog
) -> None:
    page = open_page(browser, console, PHONE, java_script_enabled=False)
    try:
        page.goto(seller_server.url + "/impressum")
        expect(page).to_have_url(seller_server.url + "/imprint")
        check_imprint(page)
    finally:
        page.context.close()


def test_every_footer_leads_to_the_legal_notice_and_pages_name_the_seller(
    page: Page, seller_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(seller_server.url + "/privacy")
    page.wait_for_load_state("networkidle")
    expect(page.locator("article.prose")).to_contain_text(
        f"The controller of your data is {SELLER_FULL_NAME}, Hafenstraße 7, 20457 Hamburg"
    )
    with page.expect_response(lambda r: r.url.endswith("/api/pages/imprint")) as answer:
        page.get_by_role("contentinfo").get_by_role("link", name="Legal notice").click()
    assert answer.value.status == 200
    expect(page).to_have_url(seller_server.url + "/imprint")
    check_imprint(page)  # the same text on client-side navigation
    expect(page.get_by_role("contentinfo")).to_contain_text("Pixelwerk. All rights reserved.")
    page.goto(seller_server.url + "/contact")
    expect(page.locator("article.prose")).to_contain_text(SELLER_FULL_NAME)
    page.goto(seller_server.url + "/terms")
    expect(page.locator("article.prose")).to_contain_text(f"{SELLER_FULL_NAME}, Hafenstraße 7")
    assert console.problems == [], console.problems


@pytest.mark.parametrize("path", ["/", "/imprint", "/speed-test", "/start", "/no-such-page"])
def test_every_page_says_the_seller_details_are_demo_ones(
    browser: Browser, live_server: LiveServer, console: ConsoleLog, path: str
) -> None:
    page = open_page(browser, console, PHONE, is_mobile=True, has_touch=True)
    try:
        page.goto(live_server.url + path)
        notice = page.get_by_role("complementary", name="Demo notice")
        expect(notice).to_contain_text(DEMO_NOTICE)
        page.wait_for_load_state("networkidle")
        # Above the header, at the very top, before and after hydration alike.
        box = notice.bounding_box()
        header = page.locator("header").first.bounding_box()
        assert box is not None and header is not None
        assert box["y"] == 0 and header["y"] >= box["height"]
        assert box["height"] < 40  # one line even at 390 px: nothing moves below the fold
        if path == "/imprint":
            expect(page.locator("article[data-content-page=imprint]")).to_contain_text(
                "Demo Agentur GmbH"
            )
            page.screenshot(path="/tmp/notes/demo-notice-390.png")
    finally:
        page.context.close()
    # The 404 page's own status is logged by Chromium; nothing else may be.
    problems = [p for p in console.problems if not (path == "/no-such-page" and "404" in p)]
    assert problems == [], console.problems


def test_the_demo_notice_does_not_move_the_page(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    page = open_page(browser, console, DESKTOP)
    try:
        page.add_init_script(
            "window.__shift = 0; new PerformanceObserver((list) => { for (const e of "
            "list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value })"
            ".observe({ type: 'layout-shift', buffered: true })"
        )
        page.goto(live_server.url + "/imprint")
        settle(page)
        expect(page.get_by_role("complementary", name="Demo notice")).to_be_visible()
        page.screenshot(path="/tmp/notes/demo-notice-1280.png")
        assert page.evaluate("window.__shift") < 0.01
    finally:
        page.context.close()
    assert console.problems == [], console.problems


@pytest.mark.parametrize("path", ["/", "/start"])
def test_the_configured_brand_names_the_site_and_hydrates_cleanly(
    page: Page, seller_server: LiveServer, console: ConsoleLog, path: str
) -> None:
    """The brand (Pixelwerk) in the logo, the title and og:site_name from the first byte, the
    same after hydration (no warning) and after a client-side navigation."""
    page.goto(seller_server.url + path)
    page.wait_for_load_state("networkidle")
    logo = page.get_by_role("banner").get_by_role("link", name="Pixelwerk home")
    expect(logo).to_have_text("Pixelwerk")
    expect(page).to_have_title(re.compile(r" \| Pixelwerk$"))
    site_name = page.locator('meta[property="og:site_name"]')
    expect(site_name).to_have_attribute("content", "Pixelwerk")
    footer_logo = page.get_by_role("contentinfo").get_by_role("link", name="Pixelwerk home")
    expect(footer_logo).to_be_visible()
    if path == "/":
        page.screenshot(path="/tmp/notes/brand-1280.png")
        page.get_by_role("contentinfo").get_by_role("link", name="Privacy", exact=True).click()
        expect(page).to_have_url(seller_server.url + "/privacy")
        expect(page).to_have_title("Privacy Policy | Pixelwerk")
        expect(page.locator('meta[name="description"]')).to_have_attribute(
            "content", re.compile(r"^How Pixelwerk collects")
        )
    else:
        logo.click()
        expect(page).to_have_url(seller_server.url + "/")
        expect(page).to_have_title("Your Website. Live in 24 Hours. | Pixelwerk")
    assert "agency" not in page.title()
    assert console.problems == [], console.problems
