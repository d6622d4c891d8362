"""The "Page not found" page in real Chromium against the real server: a direct GET of an
unknown path answers 404 with the prerendered 404 page (dist/404.html) at that address, in
the public layout with its links, no axe violation, hydrated without a mismatch; a link on it
leads on in the app."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page
from tests.e2e.test_accessibility import AXE_SOURCE, AXE_TAGS, REVIEW_AS_VIOLATION, RUN_AXE
from tests.e2e.test_accessibility import describe as describe_violations

LINKS = {
    "Home page": "/",
    "Website speed test": "/speed-test",
    "Blog": "/blog",
    "Contact us": "/contact",
}


@pytest.mark.parametrize(
    ("width", "options"),
    [
        ("desktop", {"viewport": DESKTOP}),
        ("phone", {"viewport": PHONE, "is_mobile": True, "has_touch": True}),
    ],
)
def test_an_unknown_path_is_the_404_page(
    browser: Browser, live_server: LiveServer, console: ConsoleLog, width: str, options: Any
) -> None:
    path = "/no/such-page"
    page = open_page(browser, console, bypass_csp=True, **options)
    try:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 404
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        expect(page).to_have_url(live_server.url + path)  # not sent home
        page.wait_for_load_state("networkidle")
        expect(page).to_have_title("Page not found | agency")
        expect(page.locator('meta[name="robots"]')).to_have_attribute("content", "noindex")
        expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
        expect(page.get_by_role("banner")).to_be_visible()
        expect(page.get_by_role("contentinfo")).to_be_attached()
        main = page.get_by_role("main")
        for name, href in LINKS.items():
            expect(main.get_by_role("link", name=name, exact=True)).to_have_attribute("href", href)
        page.add_script_tag(content=AXE_SOURCE.read_text())
        violations: list[dict[str, Any]] = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
        assert not violations, describe_violations(path, width, violations)
        # Hydrated: the link navigates in the app, the 404 page's noindex goes with it.
        main.get_by_role("link", name="Website speed test", exact=True).click()
        expect(page).to_have_url(live_server.url + "/speed-test")
        expect(page.get_by_role("heading", level=1)).not_to_have_text("Page not found")
        expect(page.locator('meta[name="robots"]')).to_have_count(0)
    finally:
        page.context.close()
    # Chromium reports the 404 document as a failed resource load; nothing else may be.
    problems = [p for p in console.problems if "status of 404" not in p]
    assert problems == [], console.problems
