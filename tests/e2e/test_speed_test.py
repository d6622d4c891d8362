"""The three speed-test pages in real Chromium against the real server, its speed tests run by
its job runner against the fake PageSpeed Insights (`tests/fakes/pagespeed.py`), its newsletter
sign-ups (only with the opt-in box ticked) sent to the fake Kit (`tests/fakes/kit.py`), its mail
to the test SMTP server: every validation message, the states (confirmation, scanning, result),
the rating and the 'Too Slow' panel on both sides of 90, a §8 error in the red box, the report
e-mail, the lead.

The fake PageSpeed answers by host (`score-N.example` scores N, `down.example` is the recorded
FAILED_DOCUMENT_REQUEST); names under `.example` never resolve, so the server runs with
`speedtest_unsafe_allow_private_targets` (no address check, no DNS). Each test is a visitor of
its own (`X-Forwarded-For` behind one trusted proxy), so the per-address limits of the server
hold for each of them as for a real visitor.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page, running_server
from tests.e2e.test_accessibility import AXE_TAGS, REVIEW_AS_VIOLATION, RUN_AXE, describe
from tests.fakes.kit import FakeKit, run_fake_kit
from tests.fakes.pagespeed import FakePageSpeed, run_fake_pagespeed
from tests.fakes.smtp import SmtpServer

AXE = Path(__file__).resolve().parents[2] / "webui" / "node_modules" / "axe-core" / "axe.min.js"

UNREACHABLE = (
    "Unable to access the website. Please check if the domain is correct and the website is "
    "accessible."
)
URL_REQUIRED = "Please enter a website URL"
EMAIL_REQUIRED = "Please enter your email address"
EMAIL_INVALID = "Please enter a valid email address"
BAD_DOMAIN = "Please enter a valid domain (e.g., example.com)"
SUBMIT = "Test My Website Speed"


@dataclass(frozen=True)
class SpeedPage:
    path: str
    source: str
    badge: str
    slow: int  # a score below 90 this page tests (hosts differ per page: results are reused)
    fast: int  # a score of 90 or more


PAGES = [
    SpeedPage("/speed-test", "speed-test", "Free, in about 25 seconds", 42, 90),
    SpeedPage(
        "/clinic-speed-test", "clinic-speed-test", "For Medical & Healthcare Websites", 75, 95
    ),
    SpeedPage("/coach-speed-test", "coach-speed-test", "For Coaches & Personal Trainers", 89, 100),
]
IDS = [p.source for p in PAGES]
_visitors = itertools.count(1)


def rating(score: int) -> str:
    return "Excellent" if score >= 90 else "Needs Improvement" if score >= 70 else "Poor"


@dataclass
class SpeedServer:
    server: LiveServer
    pagespeed: FakePageSpeed
    kit: FakeKit


@pytest.fixture(scope="module")
def speed(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[SpeedServer]:
    with (
        run_fake_pagespeed() as pagespeed,
        run_fake_kit() as kit,
        running_server(
            tmp_path_factory,
            smtp_server,
            SPEEDTEST_PROVIDER="psi",
            PAGESPEED_API_BASE=pagespeed.base_url,
            SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS="true",
            KIT_API_VERSION="v4",
            KIT_API_BASE=kit.base_url,
            KIT_API_KEY=kit.api_key,
            KIT_FORM_ID=kit.form_id,
            TRUSTED_PROXIES="1",
        ) as server,
    ):
        yield SpeedServer(server, pagespeed, kit)


def visitor(browser: Browser, console: ConsoleLog, viewport: dict[str, int], **kw: object) -> Page:
    """A browser of a visitor with an address of its own."""
    address = f"198.51.100.{next(_visitors)}"
    return open_page(
        browser, console, viewport, extra_http_headers={"X-Forwarded-For": address}, **kw
    )


@pytest.fixture
def desk(browser: Browser, console: ConsoleLog) -> Iterator[Page]:
    page = visitor(browser, console, DESKTOP)
    yield page
    page.context.close()


@pytest.fixture
def phone_visitor(browser: Browser, console: ConsoleLog) -> Iterator[Page]:
    page = visitor(browser, console, PHONE, is_mobile=True, has_touch=True)
    yield page
    page.context.close()


def open_tool(page: Page, server: LiveServer, path: str) -> None:
    page.goto(server.url + path)
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("button", name=SUBMIT)).to_be_enabled()


def submit(page: Page, url: str, email: str, newsletter: bool = False) -> None:
    page.get_by_label("Website URL").fill(url)
    page.get_by_label("Your Email").fill(email)
    page.get_by_role("checkbox", name=re.compile("^Also send me the newsletter")).set_checked(
        newsletter
    )
    page.get_by_role("button", name=SUBMIT).click()


def report_mail(smtp: SmtpServer, to: str, timeout: float = 30) -> tuple[str, str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in smtp.inbox.messages:
            if message["To"] == to:
                return str(message["Subject"]), smtp.inbox.text_of(message)
        time.sleep(0.1)
    raise AssertionError(f"no speed report reached {to}")


def unexpected(console: ConsoleLog, *statuses: int) -> list[str]:
    """Console problems apart from the browser's own note on an error answer we asked for."""
    notes = [f"the server responded with a status of {status} " for status in statuses]
    return [p for p in console.problems if not any(note in p for note in notes)]


def leads_of(server: LiveServer, source: str) -> str:
    export = server.workdir / f"{source}-{next(_visitors)}.csv"
    server.cli("leads", "export", "--csv", str(export), "--source", source)
    return export.read_text()


@pytest.mark.parametrize("spec", PAGES, ids=IDS)
def test_validation_messages_in_the_spec_order(
    desk: Page, speed: SpeedServer, console: ConsoleLog, spec: SpeedPage
) -> None:
    page = desk
    open_tool(page, speed.server, spec.path)
    expect(page.get_by_text(spec.badge)).to_be_visible()
    submit(page, "", "")
    expect(page.get_by_role("alert")).to_have_text(URL_REQUIRED)
    expect(page.get_by_label("Website URL")).to_be_focused()
    submit(page, "", "ann@visitor.example")
    expect(page.get_by_role("alert")).to_have_text(URL_REQUIRED)
    submit(page, "example.com", "")
    expect(page.get_by_role("alert")).to_have_text(EMAIL_REQUIRED)
    expect(page.get_by_label("Your Email")).to_have_attribute("aria-invalid", "true")
    # The e-mail's form is the server's check (the one rule), shown in the same red box.
    submit(page, "example.com", "ann@")
    expect(page.get_by_role("alert")).to_have_text(EMAIL_INVALID)
    if spec.source == "speed-test":
        kit_calls = len(speed.kit.requests)
        for typed in ("not a domain", "localhost", "example.c", "example.com/page"):
            submit(page, typed, "ann@visitor.example")
            expect(page.get_by_role("alert")).to_have_text(BAD_DOMAIN)
        assert len(speed.kit.requests) == kit_calls  # refused by the page: no call made
    else:
        # Only non-empty fields are required here: the server names what it cannot test.
        submit(page, "not a domain", f"{spec.source}-check@visitor.example")
        expect(page.get_by_role("alert")).to_have_text(BAD_DOMAIN)
        expect(page.get_by_text(re.compile("subscribed", re.IGNORECASE))).to_have_count(0)
    assert unexpected(console, 400) == [], console.problems


@pytest.mark.parametrize("spec", PAGES, ids=IDS)
def test_a_slow_site_shows_its_rating_and_too_slow_and_the_report_arrives(
    desk: Page, speed: SpeedServer, smtp_server: SmtpServer, console: ConsoleLog, spec: SpeedPage
) -> None:
    page = desk
    email = f"{spec.source}-slow@visitor.example"
    domain = f"score-{spec.slow}.example"
    speed.pagespeed.delay = 2.0  # long enough to see the scan
    try:
        open_tool(page, speed.server, spec.path)
        submit(page, f"https://{domain}/", email, newsletter=True)
        # The test started: its confirmation and the newsletter's show while it runs.
        expect(
            page.get_by_text(f"Your speed report will arrive at {email} in about 60 seconds")
        ).to_be_visible()
        expect(page.get_by_text("You're subscribed to the newsletter.")).to_be_visible()
        expect(page.get_by_role("progressbar")).to_be_visible()
        expect(page.get_by_text(f"Testing {domain}…")).to_be_visible()
        expect(page.get_by_role("button", name="Testing…")).to_be_disabled()
        scanning_value = float(page.get_by_role("progressbar").get_attribute("value") or "0")
        assert scanning_value < 100
        result = page.get_by_role("region", name=f"Speed results for {domain}")
        expect(result).to_be_visible(timeout=30_000)
    finally:
        speed.pagespeed.delay = 0.0
    expect(result).to_be_focused()
    expect(page.get_by_role("progressbar")).to_have_attribute("value", "100")
    expect(result.locator(".score-dial__number")).to_have_text(str(spec.slow))
    expect(result.locator(".score-dial__rating")).to_contain_text(rating(spec.slow))
    tone = "poor" if spec.slow < 70 else "fair"
    expect(result.locator(f".score-dial--{tone}")).to_be_visible()
    expect(result.get_by_text("Speed Index")).to_be_visible()
    expect(result.get_by_text("Total Blocking Time")).to_be_visible()
    expect(result.get_by_role("heading", name="Too Slow")).to_be_visible()
    fix = result.get_by_role("link", name="Fix My Website Now")
    expect(fix).to_have_attribute("href", "/start")

    subject, body = report_mail(smtp_server, email)
    assert domain in subject and f"{spec.slow}/100" in subject and rating(spec.slow) in subject
    # A service e-mail: the report, no call to buy; it can still be stopped.
    assert "Speed index:" in body and "/start" not in body and "Unsubscribe: " in body
    assert email in leads_of(speed.server, spec.source)
    assert speed.kit.on_form(email), "not subscribed with Kit"

    fix.click()
    expect(page).to_have_url(speed.server.url + "/start")
    assert console.problems == [], console.problems


@pytest.mark.parametrize("spec", PAGES, ids=IDS)
def test_a_fast_site_is_excellent_without_too_slow(
    desk: Page, speed: SpeedServer, console: ConsoleLog, spec: SpeedPage
) -> None:
    page = desk
    domain = f"score-{spec.fast}.example"
    open_tool(page, speed.server, spec.path)
    submit(page, domain, f"{spec.source}-fast@visitor.example")
    result = page.get_by_role("region", name=f"Speed results for {domain}")
    expect(result).to_be_visible(timeout=30_000)
    expect(result.locator(".score-dial--good .score-dial__number")).to_have_text(str(spec.fast))
    expect(result.locator(".score-dial__rating")).to_contain_text("Excellent")
    expect(result.get_by_role("heading", name="Too Slow")).to_have_count(0)
    expect(result.get_by_role("link", name="Fix My Website Now")).to_have_count(0)
    assert console.problems == [], console.problems


@pytest.mark.parametrize("spec", PAGES, ids=IDS)
def test_an_unreachable_site_shows_the_spec_message_and_the_next_submit_clears_it(
    desk: Page, speed: SpeedServer, console: ConsoleLog, spec: SpeedPage
) -> None:
    page = desk
    open_tool(page, speed.server, spec.path)
    submit(page, "down.example", f"{spec.source}-down@visitor.example")
    expect(page.get_by_role("alert")).to_have_text(UNREACHABLE, timeout=30_000)
    expect(page.get_by_role("progressbar")).to_have_count(0)
    expect(page.get_by_role("region", name="Speed results for down.example")).to_have_count(0)
    # Each submit clears the previous error and confirmation.
    submit(page, "", "x@visitor.example")
    expect(page.get_by_role("alert")).to_have_text(URL_REQUIRED)
    expect(page.get_by_text(re.compile("subscribed", re.IGNORECASE))).to_have_count(0)
    assert console.problems == [], console.problems


def test_a_kit_failure_is_said_and_the_test_still_runs(
    desk: Page, speed: SpeedServer, console: ConsoleLog
) -> None:
    page = desk
    open_tool(page, speed.server, "/coach-speed-test")
    speed.kit.fail_next(500, {"errors": ["Something went wrong at Kit"]})
    submit(page, "kit-fails.example", "kit-fails@visitor.example", newsletter=True)
    expect(
        page.get_by_text("Error subscribing to ConvertKit: Something went wrong at Kit")
    ).to_be_visible()
    result = page.get_by_role("region", name="Speed results for kit-fails.example")
    expect(result).to_be_visible(timeout=30_000)
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page.get_by_text("You're subscribed to the newsletter.")).to_have_count(0)
    assert not speed.kit.on_form("kit-fails@visitor.example")
    # The e-mail was given for the report: it is a lead.
    assert "kit-fails@visitor.example" in leads_of(speed.server, "coach-speed-test")
    assert console.problems == [], console.problems


def test_without_the_box_kit_is_never_reached(
    desk: Page, speed: SpeedServer, console: ConsoleLog
) -> None:
    page = desk
    open_tool(page, speed.server, "/speed-test")
    box = page.get_by_role("checkbox", name=re.compile("^Also send me the newsletter"))
    expect(box).not_to_be_checked()
    before = len(speed.kit.requests)
    submit(page, "score-81.example", "no-box@visitor.example")
    expect(page.get_by_role("region", name="Speed results for score-81.example")).to_be_visible(
        timeout=30_000
    )
    assert len(speed.kit.requests) == before
    expect(page.get_by_text(re.compile("subscribed", re.IGNORECASE))).to_have_count(0)
    assert console.problems == [], console.problems


def test_phone_flow_fits_the_screen(
    phone_visitor: Page, speed: SpeedServer, console: ConsoleLog
) -> None:
    page = phone_visitor
    open_tool(page, speed.server, "/clinic-speed-test")
    submit(page, "http://score-55.example", "phone@visitor.example")
    result = page.get_by_role("region", name="Speed results for score-55.example")
    expect(result).to_be_visible(timeout=30_000)
    expect(result).to_be_in_viewport()
    fix = result.get_by_role("link", name="Fix My Website Now")
    fix.scroll_into_view_if_needed()
    box = fix.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width} px)"
    assert console.problems == [], console.problems


def test_the_page_reads_without_javascript(
    browser: Browser, speed: SpeedServer, console: ConsoleLog
) -> None:
    page = open_page(browser, console, DESKTOP, java_script_enabled=False)
    try:
        page.goto(speed.server.url + "/speed-test")
        expect(page.get_by_role("heading", level=1)).to_have_text("Website Speed Test")
        expect(page.get_by_label("Website URL")).to_be_visible()
        expect(page.get_by_label("Your Email")).to_be_visible()
        # The count comes from the server: its line is kept, empty, until the script runs.
        expect(page.locator(".speedtest-form__tested")).to_have_text("")
        expect(page.get_by_text("websites tested this month")).to_have_count(0)
        expect(page.get_by_role("checkbox", name=re.compile("^Also send me"))).not_to_be_checked()
        expect(
            page.get_by_text("We e-mail you the full report in about 60 seconds.")
        ).to_be_visible()
        # Until the script runs the button does nothing (no e-mail in a GET query string).
        expect(page.get_by_role("button", name=SUBMIT)).to_be_disabled()
    finally:
        page.context.close()


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_the_states_have_no_accessibility_violations(
    browser: Browser, speed: SpeedServer, console: ConsoleLog, width: str
) -> None:
    """axe (the accessibility suite's rules) on what the prerendered page does not show: the
    red box, the confirmation with the scanning display, the result with Too Slow."""
    viewport, extra = (
        (PHONE, {"is_mobile": True, "has_touch": True})
        if width == "phone"
        else (
            DESKTOP,
            {},
        )
    )
    page = visitor(browser, console, viewport, bypass_csp=True, **extra)
    axe = AXE.read_text()

    def check(state: str) -> None:
        page.add_script_tag(content=axe)
        found: list[dict[str, Any]] = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
        assert not found, describe(f"/speed-test ({state})", width, found)

    try:
        open_tool(page, speed.server, "/speed-test")
        submit(page, "not a domain", "axe@visitor.example")
        expect(page.get_by_role("alert")).to_have_text(BAD_DOMAIN)
        check("red box")
        speed.pagespeed.delay = 3.0
        try:
            submit(page, f"score-6{len(width)}.example", f"axe-{width}@visitor.example")
            expect(page.get_by_role("progressbar")).to_be_visible()
            check("scanning")
            result = page.get_by_role("region", name=re.compile("Speed results for"))
            expect(result).to_be_visible(timeout=30_000)
        finally:
            speed.pagespeed.delay = 0.0
        expect(result.get_by_role("heading", name="Too Slow")).to_be_visible()
        check("result")
    finally:
        page.context.close()
    assert console.problems == [], console.problems
