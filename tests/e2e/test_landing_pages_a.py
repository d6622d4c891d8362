"""/landing, /real-estate-website-rebuild and the home testimonial carousel in real Chromium
against the real server, at desktop (1280) and phone (390) width: headlines, prices filled
in from the catalogue after load, every call to action's exact target, the carousel's
previous/next/dot buttons with wrap-around, and no console errors or warnings."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import ConsoleLog, LiveServer

VIEWPORTS = ["page", "phone"]

SPEED_CTA = "/start?type=website&plan=starter"
TIERS = {
    "Basic Rebuild": ("€149", "/start?type=rebuild&plan=basic-rebuild"),
    "Pro Rebuild": ("€249", "/start?type=rebuild&plan=pro-rebuild"),
    "Premium Rebuild": ("€399", "/start?type=rebuild&plan=premium-rebuild"),
}


def settle(page: Page) -> None:
    """Wait until the page is loaded and the client has taken over the prerendered markup."""
    page.wait_for_load_state("networkidle")


def hrefs(links: Locator) -> list[str]:
    return [links.nth(i).get_attribute("href") or "" for i in range(links.count())]


def start_hrefs(page: Page) -> list[str]:
    return [href for href in hrefs(page.locator("a[href]")) if href.startswith("/start")]


def sticky_bar(page: Page) -> Locator:
    return page.get_by_role("region", name="Quick action")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_speed_landing_headline_price_and_calls_to_action(
    request: pytest.FixtureRequest, live_server: LiveServer, console: ConsoleLog, viewport: str
) -> None:
    page: Page = request.getfixturevalue(viewport)
    page.goto(live_server.url + "/landing")
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Is Your Slow Website Costing You Clients?"
    )
    expect(page.get_by_text("Before: PageSpeed score 48 out of 100, rated Poor.")).to_be_attached()
    expect(
        page.get_by_text("After: PageSpeed score 99 out of 100, rated Excellent.")
    ).to_be_attached()
    pricing = page.locator("#pricing")
    pricing.scroll_into_view_if_needed()
    expect(pricing.get_by_text("€19", exact=True)).to_be_visible()
    expect(pricing.get_by_text("per month")).to_be_visible()
    expect(pricing.get_by_text("Loading price")).to_have_count(0)
    # hero, #pricing, closing band and the sticky bar: all to the exact /start URL
    # (the sticky bar is display:none at desktop width, hence include_hidden)
    all_ctas = page.get_by_role("link", name="Get My Fast Website", include_hidden=True)
    assert hrefs(all_ctas) == [SPEED_CTA] * 4
    assert set(start_hrefs(page)) == {SPEED_CTA}
    assert hrefs(page.get_by_role("link", name="Test My Speed Free")) == ["/speed-test"] * 2
    if viewport == "phone":
        expect(sticky_bar(page)).to_be_visible()
    else:
        expect(sticky_bar(page)).to_be_hidden()
    page.get_by_role("link", name="Get My Fast Website").first.click()
    expect(page).to_have_url(live_server.url + SPEED_CTA)
    assert console.problems == [], console.problems


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_real_estate_tiers_and_free_preview_links(
    request: pytest.FixtureRequest, live_server: LiveServer, console: ConsoleLog, viewport: str
) -> None:
    page: Page = request.getfixturevalue(viewport)
    page.goto(live_server.url + "/real-estate-website-rebuild")
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Your Real Estate Website, Rebuilt in 24 Hours"
    )
    expect(page.locator("#before-after .ba-pair")).to_have_count(4)
    pricing = page.locator("#pricing")
    for name, (price, href) in TIERS.items():
        card = pricing.locator(".price-card", has=page.get_by_role("heading", name=name))
        card.scroll_into_view_if_needed()
        expect(card.get_by_text(price, exact=True)).to_be_visible()
        expect(card.get_by_role("link", name="Get Started")).to_have_attribute("href", href)
    expect(
        pricing.locator(".price-card", has=page.get_by_role("heading", name="Pro Rebuild"))
    ).to_contain_text("Most Popular")
    assert sorted(start_hrefs(page)) == sorted(href for _, href in TIERS.values())
    # hero, demo card, risk-free block, closing band, sticky bar
    demo_links = page.get_by_role("link", name="Get My Free Demo", include_hidden=True)
    assert hrefs(demo_links) == ["/free-preview"] * 5
    if viewport == "phone":
        expect(sticky_bar(page)).to_be_visible()
        sticky_bar(page).get_by_role("link", name="Get My Free Demo").click()
    else:
        expect(sticky_bar(page)).to_be_hidden()
        page.get_by_role("link", name="Get My Free Demo").first.click()
    expect(page).to_have_url(live_server.url + "/free-preview")
    expect(page.get_by_role("button", name="Get My Free Preview")).to_be_visible()
    assert console.problems == [], console.problems


def active_slide(carousel: Locator) -> Locator:
    """The one slide shown (the others are aria-hidden, so not in the accessibility tree)."""
    return carousel.get_by_role("group", name="of 4")


def expect_slide(carousel: Locator, number: int) -> None:
    expect(active_slide(carousel)).to_have_accessible_name(f"{number} of 4")
    expect(active_slide(carousel)).to_be_visible()
    dot = carousel.get_by_role("button", name=f"Show testimonial {number}")
    expect(dot).to_have_attribute("aria-current", "true")
    expect(carousel.locator("[aria-current]")).to_have_count(1)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_home_testimonial_carousel_wraps_and_jumps(
    request: pytest.FixtureRequest, live_server: LiveServer, console: ConsoleLog, viewport: str
) -> None:
    page: Page = request.getfixturevalue(viewport)
    page.goto(live_server.url + "/")
    settle(page)
    carousel = page.get_by_role("region", name="Customer testimonials")
    expect(carousel).to_have_attribute("aria-roledescription", "carousel")
    carousel.scroll_into_view_if_needed()
    expect_slide(carousel, 1)
    expect(active_slide(carousel)).to_contain_text("Sophie Laurent")
    avatar = active_slide(carousel).locator("img")
    expect(avatar).to_have_attribute("src", "/img/testimonials/sophie-laurent.svg")
    expect(avatar).to_have_js_property("complete", True)
    assert avatar.evaluate("img => img.naturalWidth") > 0
    # previous from the first goes to the last
    carousel.get_by_role("button", name="Previous testimonial").click()
    expect_slide(carousel, 4)
    expect(active_slide(carousel)).to_contain_text("Jan Kowalczyk")
    # next from the last goes back to the first
    carousel.get_by_role("button", name="Next testimonial").click()
    expect_slide(carousel, 1)
    carousel.get_by_role("button", name="Next testimonial").click()
    expect_slide(carousel, 2)
    # a dot jumps to its slide
    carousel.get_by_role("button", name="Show testimonial 3").click()
    expect_slide(carousel, 3)
    expect(active_slide(carousel)).to_contain_text("Elena Novak")
    # keyboard: Enter on a focused button, arrow keys inside the carousel
    carousel.get_by_role("button", name="Show testimonial 1").focus()
    page.keyboard.press("Enter")
    expect_slide(carousel, 1)
    page.keyboard.press("ArrowLeft")
    expect_slide(carousel, 4)
    page.keyboard.press("ArrowRight")
    expect_slide(carousel, 1)
    assert console.problems == [], console.problems
