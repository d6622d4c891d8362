"""/sales-funnel in real Chromium against the real server: catalogue prices on the packages,
the booking calendar that makes no request to the scheduling provider before the visitor asks
for it, the mailto fallback without a scheduling URL, the FAQ, the teardown lead form and the
sticky bar at phone width.

The live server has no scheduling URL (the e-mail fallback); a second server is configured
with one. The scheduling provider itself is a third party that cannot be reached here: the
browser's requests to its host are answered by a stand-in booking page.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, Request, expect

from tests.e2e.conftest import CONTACT_EMAIL, ConsoleLog, LiveServer, running_server
from tests.fakes.smtp import SmtpServer

PATH = "/sales-funnel"
CTA = "Apply For Your Free Funnel Teardown"
THANKS = "Thank you! We'll contact you within 24 hours to schedule your free consultation."
CALENDAR_ORIGIN = "https://calendar.example.test"
CALENDAR_URL = f"{CALENDAR_ORIGIN}/agency/free-consultation"
FRAME_TITLE = "Booking calendar: free 30-minute consultation"


def settle(page: Page) -> None:
    page.wait_for_load_state("networkidle")


@pytest.fixture(scope="module")
def calendar_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    """A server whose scheduling URL is configured."""
    with running_server(tmp_path_factory, smtp_server, SCHEDULING_URL=CALENDAR_URL) as server:
        yield server


@pytest.fixture
def calendar_requests(page: Page) -> Iterator[list[str]]:
    """Requests to the scheduling provider (answered by a stand-in booking page)."""
    seen: list[str] = []

    def on_request(request: Request) -> None:
        if request.url.startswith(CALENDAR_ORIGIN):
            seen.append(request.url)

    page.on("request", on_request)
    page.route(
        f"{CALENDAR_ORIGIN}/**",
        lambda route: route.fulfill(
            content_type="text/html",
            body="<!doctype html><title>Calendar</title><h1>Pick a time</h1>",
        ),
    )
    yield seen


def test_packages_show_catalogue_prices_and_lead_to_booking(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + PATH)
    settle(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Done-For-You Sales Funnel in 7 Days")
    packages = page.locator("#packages")
    for key, price in (
        ("starter-funnel", "€997"),
        ("growth-funnel", "€1,997"),
        ("enterprise-funnel", "€4,997"),
    ):
        card = packages.locator(f'[data-plan="{key}"]')
        expect(card.locator(".price-card__amount")).to_have_text(price)
        expect(card.get_by_role("link", name="Book a Free Consultation")).to_have_attribute(
            "href", f"{PATH}#book"
        )
    expect(packages.locator('[data-plan="growth-funnel"]')).to_contain_text("Most Popular")
    expect(page.locator('a[href^="/start"]')).to_have_count(0)
    page.get_by_role("link", name="Book a Free Consultation").first.click()
    expect(page).to_have_url(f"{live_server.url}{PATH}#book")
    expect(
        page.get_by_role("heading", name="Book your free funnel consultation")
    ).to_be_in_viewport()
    assert console.problems == [], console.problems


def test_calendar_loads_only_after_the_click(
    page: Page, calendar_server: LiveServer, console: ConsoleLog, calendar_requests: list[str]
) -> None:
    response = page.goto(calendar_server.url + PATH)
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert f"frame-src 'self' {CALENDAR_ORIGIN}" in csp
    settle(page)
    book = page.locator("#book")
    toggle = book.get_by_role("button", name="Show booking calendar")
    book.scroll_into_view_if_needed()
    settle(page)
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("iframe")).to_have_count(0)
    assert calendar_requests == []

    toggle.click()
    frame = page.get_by_title(FRAME_TITLE)
    expect(frame).to_have_attribute("src", CALENDAR_URL)
    expect(frame).to_have_attribute("height", "700")
    box = frame.bounding_box()
    assert box is not None and box["width"] >= 320 and box["height"] == 700
    expect(page.frame_locator("iframe").get_by_role("heading")).to_have_text("Pick a time")
    assert calendar_requests == [CALENDAR_URL]
    expect(book.get_by_role("button", name="Hide booking calendar")).to_have_attribute(
        "aria-expanded", "true"
    )
    assert console.problems == [], console.problems


def test_without_a_scheduling_url_visitors_get_the_email(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(live_server.url + PATH)
    settle(page)
    book = page.locator("#book")
    expect(book.get_by_text("Write to us at")).to_be_visible()
    links = book.get_by_role("link", name=CONTACT_EMAIL)
    expect(links).to_have_count(2)  # the fallback and the contact line
    for index in range(2):
        expect(links.nth(index)).to_have_attribute("href", f"mailto:{CONTACT_EMAIL}")
    expect(book.get_by_role("button", name="Show booking calendar")).to_have_count(0)
    expect(page.locator("iframe")).to_have_count(0)
    assert all(url.startswith(live_server.url) for url in requests), requests  # nothing third-party
    assert console.problems == [], console.problems


def test_faq_keeps_one_answer_open(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + PATH)
    settle(page)
    buttons = page.locator("#faq").get_by_role("button")
    expect(buttons).to_have_count(6)

    def open_answers() -> list[int]:
        return [i for i in range(6) if buttons.nth(i).get_attribute("aria-expanded") == "true"]

    assert open_answers() == [0]
    buttons.nth(2).click()
    expect(buttons.nth(2)).to_have_attribute("aria-expanded", "true")
    assert open_answers() == [2]
    expect(page.get_by_text("14-day money-back guarantee. If the funnel")).to_be_visible()
    buttons.nth(3).click()
    expect(buttons.nth(3)).to_have_attribute("aria-expanded", "true")
    assert open_answers() == [3]
    expect(page.get_by_text("unlimited revisions for 30 days after delivery: copy")).to_be_visible()
    assert console.problems == [], console.problems


def test_teardown_application_becomes_a_lead(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + PATH)
    settle(page)
    book = page.locator("#book")
    book.get_by_label("Your Name").fill("Mara Lind")
    book.get_by_label("Email Address").fill("mara@lind.example")
    book.get_by_label("Website URL").fill("lind-coaching.example")
    book.get_by_role("button", name="Apply Now").click()
    expect(book.get_by_role("status")).to_have_text(THANKS)
    export = live_server.workdir / "funnel-leads.csv"
    live_server.cli("leads", "export", "--csv", str(export), "--source", "sales-funnel-teardown")
    assert '"Sales funnel teardown","mara@lind.example","Mara Lind","lind-coaching.example"' in (
        export.read_text()
    )
    assert console.problems == [], console.problems


def test_phone_shows_the_sticky_call_to_action(
    phone: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    phone.goto(live_server.url + PATH)
    settle(phone)
    bar = phone.get_by_role("region", name="Quick action")
    expect(bar).to_be_visible()
    sticky = bar.get_by_role("link", name=CTA)
    expect(sticky).to_have_attribute("href", f"{PATH}#book")
    box = sticky.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.mouse.wheel(0, 2500)
    expect(bar).to_be_visible()
    sticky.click()
    expect(
        phone.get_by_role("heading", name="Book your free funnel consultation")
    ).to_be_in_viewport()
    assert console.problems == [], console.problems


def test_desktop_hides_the_sticky_bar(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + PATH)
    settle(page)
    expect(page.get_by_role("region", name="Quick action")).to_be_hidden()
    expect(page.get_by_role("link", name=CTA)).to_have_attribute("href", f"{PATH}#book")
