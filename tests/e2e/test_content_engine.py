"""The four AI content engine pages (/ai-scale-startup, 2, 3, 4) in real Chromium against the
real server: the variant's price from the catalogue, the exact /start URLs, the ROI calculator,
the background video that waits for the load event, and the sticky bar on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import DESKTOP, ConsoleLog, LiveServer, open_page

HEADLINE = "30 Videos and Posts in 24h From One Idea"
POSTER = "/media/content-engine-poster.webp"
# Route, the /start URL of its plan, price and billing line: the defaults of DECISIONS.md,
# except /ai-scale-startup4, which the live server is configured to sell as growth (conftest).
ONCE = "one-time payment"
VARIANTS = [
    ("/ai-scale-startup", "/start?type=ai-scale&plan=ai-scale-builder", "€199", ONCE),
    ("/ai-scale-startup2", "/start?type=ai-scale&plan=ai-scale-plan", "€39", "per month"),
    ("/ai-scale-startup3", "/start?type=ai-scale&plan=ai-scale-growth", "€399", ONCE),
    ("/ai-scale-startup4", "/start?type=ai-scale&plan=ai-scale-growth", "€399", ONCE),
]

# Records when the window's load event fired and when a <video> first entered the document.
TIMING_SCRIPT = """
window.__loadAt = null; window.__videoAt = null;
window.addEventListener('load', () => { window.__loadAt = performance.now() });
new MutationObserver(() => {
  if (window.__videoAt === null && document.querySelector('video')) {
    window.__videoAt = performance.now()
  }
}).observe(document, { childList: true, subtree: true });
"""


def settle(page: Page) -> None:
    page.wait_for_load_state("networkidle")


def start_hrefs(page: Page) -> list[str]:
    hrefs: list[str] = page.eval_on_selector_all(
        "a[href^='/start']", "links => links.map(a => a.getAttribute('href'))"
    )
    return hrefs


def navigate_in_app(page: Page, path: str) -> None:
    """A client-side navigation (as after a click on an in-app link), once the page's router
    listens: hydration runs as a transition, which on a busy machine can end after the network
    is idle, and a popstate before that is lost. So the event is sent again until the page's
    headline has changed (CI saw the home page stay)."""
    # A URL changed while the page still hydrates renders another page than the server's
    # markup (React's error 418): wait for the app's mark that hydration has committed.
    page.wait_for_function("() => document.documentElement.hasAttribute('data-hydrated')")
    before = page.evaluate("() => document.querySelector('h1')?.textContent ?? ''")
    page.evaluate("path => history.pushState({}, '', path)", path)
    for _ in range(20):
        page.evaluate("() => dispatchEvent(new PopStateEvent('popstate'))")
        try:
            page.wait_for_function(
                "before => (document.querySelector('h1')?.textContent ?? '') !== before",
                arg=before,
                timeout=1000,
            )
            return
        except PlaywrightTimeout:
            continue


@pytest.mark.parametrize(("path", "cta", "price", "suffix"), VARIANTS)
def test_variant_shows_its_catalogue_price_and_exact_start_urls(
    page: Page,
    live_server: LiveServer,
    console: ConsoleLog,
    path: str,
    cta: str,
    price: str,
    suffix: str,
) -> None:
    response = page.goto(live_server.url + path)
    assert response is not None and response.status == 200
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(HEADLINE)
    pricing = page.locator("#pricing")
    expect(pricing.get_by_text("8 slots left this week")).to_be_visible()
    expect(pricing.locator(".offer-price__amount")).to_have_text(price)
    expect(pricing.get_by_text(suffix)).to_be_visible()
    expect(page.locator("#value .offer-price__amount")).to_have_text(price)
    expect(page.get_by_test_id("value-total")).to_contain_text("€4,250")
    expect(page.locator("#faq .faq__button")).to_have_count(4)
    # Hero, value stack, pricing card, closing call to action and the sticky bar.
    hrefs = start_hrefs(page)
    assert hrefs == [cta] * 5, f"prerendered page {path}: {hrefs}"
    assert console.problems == [], console.problems


@pytest.mark.parametrize(("path", "cta", "price", "suffix"), VARIANTS)
def test_variant_after_an_in_app_navigation(
    page: Page,
    live_server: LiveServer,
    console: ConsoleLog,
    path: str,
    cta: str,
    price: str,
    suffix: str,
) -> None:
    page.goto(live_server.url + "/")
    settle(page)
    navigate_in_app(page, path)
    expect(page.get_by_role("heading", level=1)).to_have_text(HEADLINE)
    expect(page.locator("#pricing .offer-price__amount")).to_have_text(price)
    expect(page.locator("#pricing").get_by_text(suffix)).to_be_visible()
    assert start_hrefs(page) == [cta] * 5
    assert console.problems == [], console.problems


def test_see_pricing_scrolls_to_the_pricing_card(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + "/ai-scale-startup3")
    settle(page)
    page.get_by_role("link", name="See Pricing").click()
    expect(page.locator("#pricing")).to_be_in_viewport()
    expect(page.get_by_text("8 slots left this week").first).to_be_in_viewport()
    assert console.problems == []


def test_roi_calculator_computes_and_explains_bad_input(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + "/ai-scale-startup")
    settle(page)
    roi = page.locator("#roi")
    hours = roi.get_by_label("Hours you spend on content per week")
    rate = roi.get_by_label("What an hour of your time is worth (€)")
    expect(hours).to_have_value("20")
    expect(rate).to_have_value("100")
    expect(roi.get_by_test_id("roi-weekly")).to_have_text("€2,000")
    expect(roi.get_by_test_id("roi-monthly")).to_have_text("€8,000")
    # Against the real price of the plan the route sells (Builder, EUR 199 one-time).
    expect(roi).to_contain_text("measured against the price of Content Engine Builder, €199")
    expect(roi.get_by_test_id("roi-percent")).to_have_text("4,020%")

    hours.fill("12.5")
    rate.fill("80")
    expect(roi.get_by_test_id("roi-weekly")).to_have_text("€1,000")
    expect(roi.get_by_test_id("roi-monthly")).to_have_text("€4,000")
    expect(roi.get_by_test_id("roi-percent")).to_have_text("2,010%")

    hours.fill("")
    expect(roi.get_by_text("Enter the hours you spend on content each week.")).to_be_visible()
    expect(hours).to_have_attribute("aria-invalid", "true")
    hours.fill("-3")
    expect(roi.get_by_text("Hours per week cannot be negative.")).to_be_visible()
    rate.fill("50000")
    expect(roi.get_by_text("Enter an hourly value of €10,000 or less.")).to_be_visible()
    assert "NaN" not in roi.inner_text()

    hours.fill("20")
    rate.fill("100")
    expect(roi.get_by_test_id("roi-percent")).to_have_text("4,020%")
    assert console.problems == []


def test_background_video_waits_for_the_load_event(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.add_init_script(TIMING_SCRIPT)
    media: list[str] = []
    page.on("request", lambda r: media.append(r.url) if "/media/" in r.url else None)
    response = page.goto(live_server.url + "/ai-scale-startup2")
    assert response is not None
    html = response.text()
    # The prerendered page shows the sized, decorative poster and no video at all.
    assert "<video" not in html
    assert f'src="{POSTER}"' in html and 'width="640"' in html and 'height="360"' in html
    settle(page)
    video = page.locator(".ce-hero video")
    expect(video).to_have_count(1)
    load_at = page.evaluate("window.__loadAt")
    video_at = page.evaluate("window.__videoAt")
    assert load_at is not None and video_at is not None and video_at >= load_at
    assert video.evaluate("v => v.muted && v.loop && v.getAttribute('aria-hidden') === 'true'")
    # It actually plays (WebM in Chromium), and the poster is still there underneath.
    page.wait_for_function(
        "() => { const v = document.querySelector('.ce-hero video'); "
        "return v && !v.paused && v.currentTime > 0 }"
    )
    expect(page.locator(f".ce-hero img[src='{POSTER}']")).to_have_count(1)
    assert any(url.endswith("content-engine-loop.webm") for url in media), media
    assert console.problems == []


def test_no_background_video_with_reduced_motion(
    browser: Browser, live_server: LiveServer, console: ConsoleLog
) -> None:
    page = open_page(browser, console, DESKTOP, reduced_motion="reduce")
    media: list[str] = []
    page.on("request", lambda r: media.append(r.url) if "/media/" in r.url else None)
    page.goto(live_server.url + "/ai-scale-startup")
    settle(page)
    page.wait_for_timeout(300)
    expect(page.locator("video")).to_have_count(0)
    expect(page.locator(f".ce-hero img[src='{POSTER}']")).to_be_visible()
    assert not any(url.endswith((".webm", ".mp4")) for url in media), media
    page.context.close()
    assert console.problems == []


@pytest.mark.parametrize(("path", "cta"), [(v[0], v[1]) for v in VARIANTS[:2]])
def test_phone_shows_the_sticky_bar(
    phone: Page, live_server: LiveServer, console: ConsoleLog, path: str, cta: str
) -> None:
    phone.goto(live_server.url + "/")
    settle(phone)
    navigate_in_app(phone, path)
    bar = phone.get_by_role("region", name="Quick action")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("8 slots left this week")
    link = bar.get_by_role("link", name="Start Now")
    expect(link).to_have_attribute("href", cta)
    box = bar.bounding_box()
    assert box is not None and abs(box["y"] + box["height"] - 844) < 2
    # The bar stays put while scrolling, and the page is not wider than the phone.
    phone.mouse.wheel(0, 3000)
    expect(bar).to_be_in_viewport()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert console.problems == []


def test_desktop_has_no_sticky_bar(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/ai-scale-startup")
    settle(page)
    expect(page.get_by_role("region", name="Quick action")).to_be_hidden()
