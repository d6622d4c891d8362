"""The site in real Chromium against the real server: prerendered pages that hydrate cleanly,
navigation, the 404 page of unknown paths, the mobile menu, the API docs page."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from agency.core.paths import web_dir
from tests.e2e.conftest import DESKTOP, ConsoleLog, LiveServer, open_page

HEADLINE = "Your Website. Live in 24 Hours."
PRERENDERED = json.loads((web_dir() / "routes.json").read_text())["prerendered"]


def settle(page: Page) -> None:
    """Wait until the page is loaded and the client has taken over the prerendered markup."""
    page.wait_for_load_state("networkidle")


def test_home_is_prerendered_hydrates_cleanly(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + "/")
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(HEADLINE)
    expect(page).to_have_title(f"{HEADLINE} | agency")
    expect(page.get_by_role("link", name="Get Your Website Now")).to_have_attribute(
        "href", "/start"
    )
    assert console.problems == []


def test_home_is_readable_without_javascript(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    page = open_page(browser, console, DESKTOP, java_script_enabled=False)
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text(HEADLINE)
    page.context.close()


@pytest.mark.parametrize("path", PRERENDERED)
def test_every_prerendered_page_hydrates_without_warnings(
    page: Page, live_server: LiveServer, console: ConsoleLog, path: str
) -> None:
    response = page.goto(live_server.url + path)
    assert response is not None and response.status == 200
    assert response.url == live_server.url + path  # no redirect
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_have_count(1)
    assert page.title().endswith("| agency") or page.title() == "agency"
    assert console.problems == [], console.problems


def test_header_links_navigate_and_anchor_links_scroll(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + "/")
    settle(page)
    header = page.get_by_role("banner")
    header.get_by_role("link", name="AI Automation").click()
    expect(page).to_have_url(live_server.url + "/ai-automation")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    # From another page, an anchor link goes home and then scrolls to the section.
    header.get_by_role("link", name="Features").click()
    expect(page).to_have_url(f"{live_server.url}/#features")
    expect(page.locator("#features")).to_be_in_viewport()
    header.get_by_role("link", name="Speed Test").click()
    expect(page).to_have_url(live_server.url + "/speed-test")
    assert console.problems == []


def test_footer_links_reach_their_pages(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    settle(page)
    footer = page.get_by_role("contentinfo")
    footer.get_by_role("link", name="Privacy").click()
    expect(page).to_have_url(live_server.url + "/privacy")
    expect(footer).to_contain_text("Made in Europe")


@pytest.mark.parametrize(
    "path",
    [
        "/no/such/page",
        "/dashboard-typo",
        # No route takes these either (webui/test/fixtures/route-cases.json says why).
        "/blog/a%2Fb",
        "/FAQ/x",
        "/blog/%2e%2e/x",
    ],
)
def test_unknown_paths_get_the_404_page(page: Page, live_server: LiveServer, path: str) -> None:
    response = page.goto(live_server.url + path)
    assert response is not None and response.status == 404
    if "%2e" not in path:  # Chromium resolves `%2e%2e` as `..` before it asks
        expect(page).to_have_url(live_server.url + path)  # not sent home
    expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")


def test_a_missing_asset_is_a_plain_404(page: Page, live_server: LiveServer) -> None:
    response = page.goto(live_server.url + "/assets/missing.js")
    assert response is not None and response.status == 404
    assert response.headers["content-type"] == "text/plain; charset=utf-8"


# The second is the same client route written another way (case, trailing slash).
@pytest.mark.parametrize("path", ["/dashboard/billing", "/Dashboard/Billing/"])
def test_dashboard_sends_visitors_to_login(
    page: Page, live_server: LiveServer, console: ConsoleLog, path: str
) -> None:
    page.goto(live_server.url + path)
    expect(page).to_have_url(live_server.url + "/login")
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome back.")
    assert console.problems == []


def test_mobile_menu_opens_at_phone_width(
    phone: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    phone.goto(live_server.url + "/")
    settle(phone)
    expect(phone.get_by_role("navigation", name="Main")).to_be_hidden()
    toggle = phone.get_by_role("banner").locator("button[aria-controls]")
    expect(toggle).to_have_accessible_name("Open menu")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle).to_have_accessible_name("Close menu")
    menu = phone.get_by_role("navigation", name="Mobile")
    expect(menu.get_by_role("link", name="AI Automation")).to_be_visible()
    phone.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    menu.get_by_role("link", name="UGC").click()
    expect(phone).to_have_url(live_server.url + "/ugc-force")
    expect(menu).to_be_hidden()
    assert console.problems == []


def test_api_docs_render_from_our_own_files(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(live_server.url + "/docs")
    expect(page.get_by_text("/api/health", exact=True)).to_be_visible()
    assert all(url.startswith(live_server.url) for url in requests), requests
    assert console.problems == []


def test_typing_before_the_script_arrives_is_kept(page: Page, live_server: LiveServer) -> None:
    """On a slow connection people type into the prerendered form before hydration; its inputs
    are uncontrolled, so the DOM keeps what they typed and the submit reads it from there."""
    held: list[Route] = []
    released = False

    def hold_scripts(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/assets/*.js", hold_scripts)
    page.goto(live_server.url + "/login", wait_until="commit")
    page.locator("input[name=email]").fill("early@example.com")
    page.locator("input[name=password]").fill("typed before hydration")
    page.locator("input[name=remember]").check()
    released = True
    for route in held:
        route.continue_()
    settle(page)
    expect(page.locator("input[name=email]")).to_have_value("early@example.com")
    expect(page.locator("input[name=remember]")).to_be_checked()
    page.get_by_role("button", name="Log in").click()
    # The server answered, so React's state held both fields (not 'Please fill in all fields').
    expect(page.get_by_role("alert")).to_have_text("Incorrect email or password. Please try again.")


@pytest.mark.parametrize("path", ["/signup", "/ugc-force"])
def test_prerendered_pages_fetch_their_scripts_after_the_first_paint(
    phone: Page, live_server: LiveServer, console: ConsoleLog, path: str
) -> None:
    """The HTML names no module for the browser to fetch at once: the paint-first loader
    (webui/scripts/paint-first-loader.js) adds them once the page has painted, and the page
    still hydrates."""
    html = phone.request.get(live_server.url + path).text()
    assert '<script type="module"' not in html and 'rel="modulepreload"' not in html
    assert '<script src="/assets/loader-' in html

    phone.goto(live_server.url + path)
    settle(phone)
    # Hydrated: the menu button only opens the menu once React handles its clicks.
    toggle = phone.get_by_role("banner").locator("button[aria-controls]")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")

    timing = phone.evaluate(
        """() => ({
            fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
            modules: performance.getEntriesByType('resource')
                .filter((e) => /^\\/assets\\/(?!loader-)[^/]+\\.js$/.test(new URL(e.name).pathname))
                .map((e) => [new URL(e.name).pathname, e.startTime]),
        })"""
    )
    assert timing["fcp"] is not None
    assert len(timing["modules"]) >= 3, timing  # entry, vendor, the page's chunk
    early = [name for name, started in timing["modules"] if started < timing["fcp"]]
    assert early == [], timing
    assert console.problems == []


def test_sitemap_and_robots_of_the_real_build(page: Page, live_server: LiveServer) -> None:
    sitemap = page.request.get(live_server.url + "/sitemap.xml").text()
    for path in ("/", "/ai-automation", "/privacy", "/blog"):
        assert f"<loc>{live_server.url}{path}</loc>" in sitemap
    for path in ("/login", "/pricing", "/dashboard", "/start"):
        assert f"<loc>{live_server.url}{path}</loc>" not in sitemap
    robots = page.request.get(live_server.url + "/robots.txt").text()
    assert f"Sitemap: {live_server.url}/sitemap.xml" in robots


def test_free_preview_request_becomes_a_lead(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + "/free-preview")
    settle(page)
    page.get_by_role("button", name="Get My Free Preview").click()
    expect(page.get_by_role("alert")).to_have_text("Please fill in all fields")
    page.get_by_label("Your Name").fill("Nora Estates")
    page.get_by_label("Email Address").fill("nora@estates.example")
    page.get_by_label("Website URL").fill("nora-estates.com")
    page.get_by_role("button", name="Get My Free Preview").click()
    expect(page.get_by_role("heading", name="Request Received!")).to_be_visible()
    export = live_server.workdir / "leads.csv"
    live_server.cli("leads", "export", "--csv", str(export), "--source", "free-preview")
    assert export.stat().st_mode & 0o777 == 0o600  # addresses and names: the owner's only
    assert (
        '"Real Estate Website Rebuild","nora@estates.example","Nora Estates","nora-estates.com"'
        in export.read_text()
    )
    assert console.problems == []
