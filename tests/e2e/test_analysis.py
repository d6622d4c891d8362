"""The four AI website-analysis pages in real Chromium against the real server: its analyses
and speed tests run by its job runner, the page read from a local "customer site" with known
facts (`tests/fakes/customer_site.py`), the speed from the fake PageSpeed Insights
(`tests/fakes/pagespeed.py`), the report from the rules (no AI key) or, on a second server,
from the fake OpenAI (`tests/fakes/openai_server.py`), the mail to the test SMTP server.

Covered: every page's validation messages in the spec's order, the loading state (progress,
'Analyzing {domain}...', the e-mail note, the busy button), the results with the derived
scores computed from the fake's known speed score, the facts found on the page, the
'Critical ... Found' boxes, the report e-mail, the stored lead, a failing site's red box, the
mobile bars at phone width, the AI path, the pages without JavaScript, and axe on the states.

The analysed names are `score-N.example` (the fake PageSpeed scores them N); the customer
site stands in for each of them through `analysis_unsafe_fetch_overrides`, which needs
`speedtest_unsafe_allow_private_targets` (tests only). Each test is a visitor of its own
(`X-Forwarded-For` behind one trusted proxy), so the per-address limits hold as for real
visitors. Set ANALYSIS_SHOTS=/some/dir to keep screenshots of the results at 390 and 1280 px.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Locator, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page, running_server
from tests.e2e.test_accessibility import AXE_TAGS, REVIEW_AS_VIOLATION, RUN_AXE, describe
from tests.fakes.customer_site import RICH_FACTS, CustomerSite, run_customer_site
from tests.fakes.openai_server import FakeOpenAI, run_fake_openai
from tests.fakes.pagespeed import FakePageSpeed, run_fake_pagespeed
from tests.fakes.smtp import SmtpServer

AXE = Path(__file__).resolve().parents[2] / "webui" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = os.environ.get("ANALYSIS_SHOTS")

BAD_DOMAIN = "Please enter a valid domain (e.g., example.com)"
EMAIL_INVALID = "Please enter a valid email address"
NOT_HTML = "The address does not lead to a web page (HTML)."
# The spec's words, with its en dash.
REBUILD_SPOTS = "2 rebuild spots left today \u2013 don't miss out"
AGENCY_SPOTS = "2 agency spots left today \u2013 don't miss out"
# What the visitor reads the report is based on: plain words, never the provider's failure.
RULES_NOTE = "Based on the facts found on your page and its speed test."
AI_NOTE = (
    "Written with AI from the facts found on your page and its speed test. "
    "The scores come from those facts alone."
)
PRE_SCAN_LOCK = "Enter your website to unlock your full report."


@dataclass(frozen=True)
class AnalysisPage:
    path: str
    source: str
    variant: str
    title: str
    url_label: str
    email_label: str
    button: str
    url_message: str
    email_message: str
    names: tuple[str, str, str]  # the three derived scores after Speed
    sections: tuple[str, ...]
    critical: str | None
    spots: str | None  # the phone bar's message after a slow result
    slow: int  # the speed score its slow site gets (hosts differ per page: results are reused)


PAGES = [
    AnalysisPage(
        "/ai-analysis",
        "ai-analysis",
        "general",
        "Reverse Engineer Any Website with AI",
        "Website URL",
        "Your Email",
        "Analyze Website with AI",
        "Please enter a website URL",
        "Please enter your email address",
        ("Strategy", "Funnel", "AI Readiness"),
        (
            "Strategy Overview",
            "Sales Funnel Analysis",
            "Customer Journey Analysis",
            "AI Customer Support",
            "AI SEO Opportunities",
            "AI Personalization",
        ),
        None,
        None,
        38,
    ),
    AnalysisPage(
        "/business-analysis",
        "business-analysis",
        "lead",
        "We Already Reverse Engineered Your Website.",
        "Website URL",
        "Your Email",
        "Show Me My Report →",
        "Please enter your website URL",
        "Please enter your email address",
        ("Strategy", "Funnel", "AI Readiness"),
        ("Strategy Overview", "Sales Funnel Analysis", "Customer Journey Analysis"),
        "Critical Business Impact Found",
        REBUILD_SPOTS,
        42,
    ),
    AnalysisPage(
        "/technical-analysis",
        "technical-analysis",
        "technical",
        "Deep Technical Analysis of Your Stack",
        "Website URL",
        "Your Email",
        "Run Technical Analysis →",
        "Please enter your website URL",
        "Please enter your email address",
        ("Architecture", "Performance", "Security"),
        (
            "Technical Architecture Overview",
            "Performance Analysis",
            "Security Analysis",
            "Transport and Headers",
            "Third-Party Scripts",
            "Forms and Data",
        ),
        "Critical Technical Issues Found",
        REBUILD_SPOTS,
        55,
    ),
    AnalysisPage(
        "/agency-analysis",
        "agency-analysis",
        "agency",
        "Agency Growth Analysis",
        "Client Website URL",
        "Your Agency Email",
        "Analyze Growth Potential →",
        "Please enter your client's website URL",
        "Please enter your agency email address",
        ("Client Value", "Scalability", "Profitability"),
        (
            "Growth Strategy Overview",
            "Revenue Opportunities",
            "Growth Roadmap",
            "Premium Services",
            "Growth Services",
            "Client Services",
        ),
        None,
        AGENCY_SPOTS,
        65,
    ),
]
IDS = [p.variant for p in PAGES]
BY_VARIANT = {p.variant: p for p in PAGES}
_visitors = itertools.count(1)

# Every name the tests analyse, and what of the customer site stands in for it.
RICH_DOMAINS = [f"score-{n}.example" for n in (38, 42, 55, 65, 44, 57, 66, 70, 71, 72, 73)]
BROKEN = "not-a-page.example"


def label(score: int, variant: str) -> str:
    if score >= 80:
        return "Excellent"
    if score >= 60:
        return "Good"
    if score >= 40:
        return "Fair"
    return "Critical" if variant == "technical" else "Needs Work"


@dataclass
class AnalysisServer:
    server: LiveServer
    pagespeed: FakePageSpeed
    site: CustomerSite


def overrides(site: CustomerSite) -> str:
    mapping = dict.fromkeys(RICH_DOMAINS, site.base_url + "/")
    mapping[BROKEN] = site.base_url + "/data.json"
    mapping["score-80.example"] = site.base_url + "/"  # the AI run's site
    return json.dumps(mapping)


@pytest.fixture(scope="module")
def analysis(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[AnalysisServer]:
    with (
        run_fake_pagespeed() as pagespeed,
        run_customer_site() as site,
        running_server(
            tmp_path_factory,
            smtp_server,
            SPEEDTEST_PROVIDER="psi",
            PAGESPEED_API_BASE=pagespeed.base_url,
            SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS="true",
            ANALYSIS_UNSAFE_FETCH_OVERRIDES=overrides(site),
            AI_API_KEY="",
            TRUSTED_PROXIES="1",
        ) as server,
    ):
        yield AnalysisServer(server, pagespeed, site)


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


def form_button(page: Page, spec: AnalysisPage) -> Locator:
    return page.locator(".analysis-form").get_by_role("button", name=spec.button)


def open_tool(page: Page, server: LiveServer, spec: AnalysisPage) -> None:
    page.goto(server.url + spec.path)
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("heading", level=1)).to_have_text(spec.title)


def fill(page: Page, spec: AnalysisPage, url: str, email: str) -> None:
    page.get_by_label(spec.url_label).fill(url)
    page.get_by_label(spec.email_label).fill(email)


def submit(page: Page, spec: AnalysisPage, url: str, email: str) -> None:
    fill(page, spec, url, email)
    form_button(page, spec).click()


def report_mail(smtp: SmtpServer, to: str, timeout: float = 60) -> tuple[str, str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in smtp.inbox.messages:
            if message["To"] == to:
                return str(message["Subject"]), smtp.inbox.text_of(message)
        time.sleep(0.2)
    raise AssertionError(f"no analysis report reached {to}")


def leads_of(server: LiveServer, source: str) -> str:
    export = server.workdir / f"{source}-{next(_visitors)}.csv"
    server.cli("leads", "export", "--csv", str(export), "--source", source)
    return export.read_text()


def unexpected(console: ConsoleLog, *statuses: int) -> list[str]:
    """Console problems apart from the browser's own note on an error answer we asked for."""
    notes = [f"the server responded with a status of {status} " for status in statuses]
    return [p for p in console.problems if not any(note in p for note in notes)]


def results_of(page: Page, domain: str) -> Locator:
    return page.get_by_role("region", name=f"Analysis results for {domain}")


def figure(box: Locator, name: str) -> Locator:
    """The value of one of the spec's figures in a 'Critical ... Found' box."""
    return box.locator(".critical-figure").filter(has_text=name).locator("dd")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        width = page.viewport_size["width"] if page.viewport_size else 1280
        height = page.evaluate("document.documentElement.scrollHeight")
        for n, top in enumerate(range(0, height, 1600)):
            clip: FloatRect = {"x": 0, "y": top, "width": width, "height": min(1600, height - top)}
            page.screenshot(path=str(Path(SHOTS) / f"{name}-{n}.png"), full_page=True, clip=clip)


@pytest.mark.parametrize("spec", PAGES, ids=IDS)
def test_validation_messages_in_the_spec_order(
    desk: Page, analysis: AnalysisServer, console: ConsoleLog, spec: AnalysisPage
) -> None:
    page = desk
    open_tool(page, analysis.server, spec)
    submit(page, spec, "", "")
    expect(page.get_by_role("alert")).to_have_text(spec.url_message)
    expect(page.get_by_label(spec.url_label)).to_be_focused()
    submit(page, spec, "", "ann@visitor.example")
    expect(page.get_by_role("alert")).to_have_text(spec.url_message)
    submit(page, spec, "example.com", "")
    expect(page.get_by_role("alert")).to_have_text(spec.email_message)
    expect(page.get_by_label(spec.email_label)).to_have_attribute("aria-invalid", "true")
    fetched = len(analysis.site.requests)
    for typed in ("shop.example.com", "example.com/page", "ab.com", "localhost", "not a domain"):
        submit(page, spec, typed, "ann@visitor.example")
        expect(page.get_by_role("alert")).to_have_text(BAD_DOMAIN)
    # The e-mail's form is the server's check (the one rule), shown in the same red box.
    submit(page, spec, "example.com", "ann@")
    expect(page.get_by_role("alert")).to_have_text(EMAIL_INVALID)
    expect(page.get_by_role("progressbar")).to_have_count(0)
    assert len(analysis.site.requests) == fetched
    assert unexpected(console, 400) == [], console.problems


@pytest.mark.parametrize("spec", PAGES, ids=IDS)
def test_loading_then_results_with_the_derived_scores_the_mail_and_the_lead(
    desk: Page,
    analysis: AnalysisServer,
    smtp_server: SmtpServer,
    console: ConsoleLog,
    spec: AnalysisPage,
) -> None:
    page = desk
    email = f"{spec.source}@visitor.example"
    domain = f"score-{spec.slow}.example"
    speed = spec.slow
    lost = 100 - speed
    analysis.pagespeed.delay = 2.0  # long enough to see the loading state
    try:
        open_tool(page, analysis.server, spec)
        if spec.variant == "lead":
            expect(page.get_by_text(PRE_SCAN_LOCK)).to_be_visible()
        submit(page, spec, f"https://www.{domain}/", email)
        expect(
            page.get_by_text(f"You'll receive your detailed analysis report at {email}")
        ).to_be_visible()
        if spec.variant == "lead":  # the teaser stays while the analysis runs
            expect(page.get_by_text(PRE_SCAN_LOCK)).to_be_visible()
        expect(page.locator(".analysis-loading")).to_contain_text(f"Analyzing {domain}...")
        expect(page.get_by_role("progressbar")).to_be_visible()
        expect(form_button(page, spec)).to_be_disabled()
        results = results_of(page, domain)
        expect(results).to_be_visible(timeout=45_000)
        expect(results).to_be_focused()
        expect(page.get_by_role("progressbar")).to_have_attribute("value", "100")
        # The speed test may finish after the report: the speed card then says so, and the
        # page keeps asking until its score is there.
        speed_tile = results.locator(".score-tile").first
        expect(speed_tile.locator(".score-tile__value")).to_have_text(
            f"{speed} out of 100", timeout=30_000
        )
    finally:
        analysis.pagespeed.delay = 0.0
    expect(speed_tile.locator(".score-tile__label")).to_have_text(label(speed, spec.variant))
    expect(speed_tile.get_by_role("link", name="Fix Now")).to_have_attribute("href", "/start")
    tiles = results.locator(".score-tiles")
    for name in spec.names:
        expect(tiles.get_by_text(name, exact=True)).to_be_visible()
    for title in spec.sections:
        expect(results.get_by_role("heading", name=title, exact=True)).to_be_visible()
    expect(results.get_by_text(RULES_NOTE)).to_be_visible()
    shown = results.inner_text()
    assert "AI model is configured" not in shown and "AI provider" not in shown
    # Once the finished report is shown, the blurred pre-scan teaser has gone (lead page).
    expect(page.locator(".pre-scan")).to_have_count(0)
    expect(page.get_by_text(PRE_SCAN_LOCK)).to_have_count(0)

    # The facts found on the customer site.
    facts = results.get_by_role("region", name="What we found on your page")
    expect(facts.get_by_text(str(RICH_FACTS["title"]))).to_be_visible()
    expect(facts.get_by_text("Calendly")).to_be_visible()
    expect(facts.get_by_text("Google Analytics 4")).to_be_visible()
    expect(facts.get_by_text("1 of 3")).to_be_visible()
    # Grounded: the page has a booking widget, so no finding tells it to add one.
    text = results.inner_text().lower()
    assert "add an online booking" not in text and "add a booking" not in text

    # Spec §9's figures from the fake's known speed score.
    if spec.variant == "lead":
        box = results.get_by_role("region", name=spec.critical)
        expect(figure(box, "Visitors lost before the page loads")).to_have_text(
            f"{round(lost * 0.53)}%"
        )
        speed_index = 798 + lost * 61.41
        expect(figure(box, "Load time (industry standard: under 2 s)")).to_have_text(
            f"{speed_index / 1000:.1f} s"
        )
    elif spec.variant == "technical":
        box = results.get_by_role("region", name=spec.critical)
        speed_index = 798 + lost * 61.41
        shows = "Until content shows (recommended response: under 0.2 s)"
        expect(figure(box, shows)).to_have_text(f"{speed_index / 1000:.1f} s")
        blocking = round(90 + lost * 12.26)
        expect(figure(box, "Total blocking time (critical at 300 ms)")).to_have_text(
            f"{blocking:,} ms"
        )
    elif spec.variant == "agency":
        expect(results.locator(".revenue-box")).to_contain_text(f"+{round(lost * 0.8)}%")
        expect(results.locator(".revenue-box")).to_contain_text("High" if speed < 70 else "Medium")
    else:
        expect(results.get_by_text(re.compile(r"Critical .* Found"))).to_have_count(0)
    cta = {
        "general": "Implement These Improvements Now",
        "lead": "Implement These Improvements Now",
        "technical": "Fix Technical Issues Now",
        "agency": "Scale Your Agency Now",
    }[spec.variant]
    expect(results.get_by_role("link", name=cta)).to_have_attribute("href", "/start")
    shot(page, f"{spec.variant}-1280")

    subject, body = report_mail(smtp_server, email)
    assert domain in subject, subject
    # A service e-mail: the report asked for, no call to buy; it can still be stopped.
    assert "/start" not in body and "Unsubscribe: " in body
    assert email in leads_of(analysis.server, spec.source)
    assert console.problems == [], console.problems


@pytest.mark.parametrize("variant", ["general", "lead"])
def test_a_failing_site_shows_the_red_box_and_the_next_submit_clears_it(
    desk: Page, analysis: AnalysisServer, console: ConsoleLog, variant: str
) -> None:
    page = desk
    spec = BY_VARIANT[variant]
    open_tool(page, analysis.server, spec)
    submit(page, spec, BROKEN, f"broken-{variant}@visitor.example")
    expect(page.get_by_role("alert")).to_have_text(NOT_HTML, timeout=45_000)
    expect(page.get_by_role("progressbar")).to_have_count(0)
    expect(results_of(page, BROKEN)).to_have_count(0)
    if variant != "general":  # the lead, technical and agency pages scroll to the form
        expect(page.locator("#analysis-form")).to_be_in_viewport()
    # Each submit clears the previous error and note.
    submit(page, spec, "", "x@visitor.example")
    expect(page.get_by_role("alert")).to_have_text(spec.url_message)
    expect(page.get_by_text("You'll receive your detailed analysis report")).to_have_count(0)
    assert console.problems == [], console.problems


@pytest.mark.parametrize("variant", ["lead", "technical", "agency"])
def test_the_phone_bar_submits_then_offers_the_fix(
    phone_visitor: Page, analysis: AnalysisServer, console: ConsoleLog, variant: str
) -> None:
    page = phone_visitor
    spec = BY_VARIANT[variant]
    domain = {
        "lead": "score-44.example",
        "technical": "score-57.example",
        "agency": "score-66.example",
    }[variant]
    open_tool(page, analysis.server, spec)
    bar = page.get_by_role("region", name="Quick action")
    expect(bar).to_be_visible()
    expect(form_button(page, spec)).to_be_hidden()  # the bar holds the submit button
    button = bar.get_by_role("button", name=spec.button)
    expect(button).to_be_disabled()
    page.get_by_label(spec.url_label).fill(domain)
    expect(button).to_be_disabled()
    page.get_by_label(spec.email_label).fill(f"phone-{variant}@visitor.example")
    expect(button).to_be_enabled()
    if variant == "lead":
        # The form comes before the pre-scan on a phone.
        form_box = page.locator("#analysis-form").bounding_box()
        scan_box = page.locator(".pre-scan").bounding_box()
        assert form_box and scan_box and form_box["y"] < scan_box["y"]
        expect(page.get_by_text("Too Slow (3.1s)")).to_be_attached()
    button.click()
    results = results_of(page, domain)
    expect(results).to_be_visible(timeout=45_000)
    fix = bar.get_by_role("link", name="Fix My Website Now")
    expect(fix).to_be_visible(timeout=30_000)
    expect(page.locator(".pre-scan")).to_have_count(0)  # the teaser goes with the report
    expect(bar).to_contain_text(str(spec.spots))
    expect(fix).to_have_attribute("href", "/start")
    shot(page, f"{variant}-390")
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 391).slice(0, 5)"
        ".map(e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)"
    )
    assert width <= PHONE["width"], f"the page scrolls sideways ({width} px): {wide}"
    assert console.problems == [], console.problems


@pytest.mark.parametrize("spec", PAGES, ids=IDS)
def test_the_page_reads_without_javascript(
    browser: Browser, analysis: AnalysisServer, console: ConsoleLog, spec: AnalysisPage
) -> None:
    page = open_page(browser, console, DESKTOP, java_script_enabled=False)
    try:
        page.goto(analysis.server.url + spec.path)
        expect(page.get_by_role("heading", level=1)).to_have_text(spec.title)
        expect(page.get_by_label(spec.url_label)).to_be_visible()
        expect(page.get_by_label(spec.email_label)).to_be_visible()
        expect(page.get_by_role("heading", name="Read from your real page")).to_be_visible()
        # Until the script runs the button does nothing (no e-mail in a GET query string).
        expect(form_button(page, spec)).to_be_disabled()
        if spec.variant == "lead":
            expect(page.get_by_text("Too Slow (3.1s)")).to_be_visible()
    finally:
        page.context.close()


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_the_states_have_no_accessibility_violations(
    browser: Browser, analysis: AnalysisServer, console: ConsoleLog, width: str
) -> None:
    """axe on what the prerendered page does not show: the red box, the loading state with
    the note, the results with the Critical box and the phone bar's fix."""
    viewport, extra = (
        (PHONE, {"is_mobile": True, "has_touch": True}) if width == "phone" else (DESKTOP, {})
    )
    page = visitor(browser, console, viewport, bypass_csp=True, **extra)
    spec = BY_VARIANT["lead"]
    axe = AXE.read_text()

    def check(state: str) -> None:
        page.add_script_tag(content=axe)
        found: list[dict[str, Any]] = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
        assert not found, describe(f"{spec.path} ({state})", width, found)

    domain = "score-70.example" if width == "phone" else "score-71.example"
    try:
        open_tool(page, analysis.server, spec)
        fill(page, spec, "not a domain", "axe@visitor.example")
        page.locator("#analysis-form form").evaluate("f => f.requestSubmit()")
        expect(page.get_by_role("alert")).to_have_text(BAD_DOMAIN)
        check("red box")
        analysis.pagespeed.delay = 3.0
        try:
            fill(page, spec, domain, f"axe-{width}@visitor.example")
            page.locator("#analysis-form form").evaluate("f => f.requestSubmit()")
            expect(page.get_by_role("progressbar")).to_be_visible()
            check("loading")
            results = results_of(page, domain)
            expect(results).to_be_visible(timeout=45_000)
            expect(results.locator(".score-tile__value").first).to_have_text(
                re.compile("out of 100"), timeout=30_000
            )
        finally:
            analysis.pagespeed.delay = 0.0
        check("results")
    finally:
        page.context.close()
    assert console.problems == [], console.problems


# ---- The AI path: a second server with the fake OpenAI configured ----------------------------

AI_OVERVIEW = (
    "Bright Smile Dental Clinic presents family dentistry in Berlin Mitte with a clear headline "
    "and online booking through Calendly."
)


def grounded_answer(messages: list[dict[str, Any]], model: str) -> dict[str, Any]:
    """What the "model" writes: §3's shape, quoting the page's title from the facts it was given."""
    prompt = "\n".join(str(m.get("content", "")) for m in messages)
    assert "Bright Smile Dental Clinic" in prompt, "the facts were not in the prompt"
    return {
        # Scores of its own, as keys and in a sentence: the page shows none of them.
        "scores": {"strategy": 12, "funnel": 13, "aiReadiness": 100},
        "overview": AI_OVERVIEW + " Its AI readiness score is 100/100.",
        "salesFunnel": {
            "stages": [
                {
                    "name": "Awareness",
                    "description": "The title names the service and the district.",
                    "improvements": ["Name the top three treatments in the meta description"],
                }
            ]
        },
        "customerJourney": {
            "touchpoints": [
                {
                    "stage": "Booking",
                    "description": "Visitors book through the Calendly widget.",
                    "opportunities": ["Send a reminder the day before"],
                }
            ]
        },
        "aiOpportunities": {
            "customerSupport": ["An assistant that answers insurance questions"],
            "seo": ["Treatment pages written from the FAQ"],
            "personalization": ["Show the next free slot first"],
        },
    }


@pytest.fixture(scope="module")
def ai_analysis(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[tuple[AnalysisServer, FakeOpenAI]]:
    with (
        run_fake_pagespeed() as pagespeed,
        run_customer_site() as site,
        run_fake_openai(handler=grounded_answer) as ai,
        running_server(
            tmp_path_factory,
            smtp_server,
            SPEEDTEST_PROVIDER="psi",
            PAGESPEED_API_BASE=pagespeed.base_url,
            SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS="true",
            ANALYSIS_UNSAFE_FETCH_OVERRIDES=overrides(site),
            AI_API_KEY=ai.api_key,
            AI_BASE_URL=ai.api_base,
            AI_MODEL="fake-model-1",
            TRUSTED_PROXIES="1",
        ) as server,
    ):
        yield AnalysisServer(server, pagespeed, site), ai


def tile_values(results: Locator) -> list[str]:
    return [v.inner_text() for v in results.locator(".score-tile__value").all()]


def test_the_ai_path_writes_the_report_from_the_facts(
    desk: Page,
    ai_analysis: tuple[AnalysisServer, FakeOpenAI],
    analysis: AnalysisServer,
    console: ConsoleLog,
) -> None:
    server, ai = ai_analysis
    page = desk
    spec = BY_VARIANT["general"]
    open_tool(page, server.server, spec)
    submit(page, spec, "score-80.example", "ai@visitor.example")
    results = results_of(page, "score-80.example")
    expect(results).to_be_visible(timeout=45_000)
    expect(results.get_by_text(AI_OVERVIEW)).to_be_visible()
    expect(results.get_by_text(AI_NOTE)).to_be_visible()
    assert "fake-model-1" not in results.inner_text()
    assert "100/100" not in results.inner_text()
    expect(results.get_by_text("An assistant that answers insurance questions")).to_be_visible()
    expect(results.locator(".score-tile__value").first).to_have_text(
        "80 out of 100", timeout=30_000
    )
    expect(results.locator(".score-tile__label").first).to_have_text("Excellent")
    # Excellent on the analysis scale (80+), yet below the speed test's 90: 'Fix Now' shows.
    expect(results.get_by_role("link", name="Fix Now")).to_have_count(1)
    assert len(ai.requests) == 1
    # The customer site has no HTTPS (it is served on loopback over http) and no chat: its AI
    # readiness cannot be Excellent, whatever the model answered.
    readiness = results.locator(".score-tile").filter(has_text="AI Readiness")
    expect(readiness.locator(".score-tile__label")).not_to_have_text("Excellent")
    with_ai = tile_values(results)

    # The same page on the server without an AI model: the rules write, the scores are the same.
    open_tool(page, analysis.server, spec)
    submit(page, spec, "score-80.example", "rules@visitor.example")
    results = results_of(page, "score-80.example")
    expect(results.get_by_text(RULES_NOTE)).to_be_visible(timeout=45_000)
    expect(results.locator(".score-tile__value").first).to_have_text(
        "80 out of 100", timeout=30_000
    )
    assert tile_values(results) == with_ai
    assert console.problems == [], console.problems
