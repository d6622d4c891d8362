"""Consent, not assumption, in real Chromium against the real server on each database (SQLite,
PostgreSQL): the speed-test, analysis and lead forms reach the newsletter (the fake Kit,
`tests/fakes/kit.py`) only when the visitor ticks their unticked opt-in box; the page says
'subscribed' only when Kit took the address, and never beside a failed test's or analysis's
error; the speed-test pages' 'websites tested this month' is the server's real count, in a line
that does not move the page.

Speed tests run against the fake PageSpeed Insights, analyses read the local customer site
(`analysis_unsafe_fetch_overrides`); each visitor has an address of its own (X-Forwarded-For
behind one trusted proxy)."""

from __future__ import annotations

import itertools
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from agency.modules.leads.service.consents import NEWSLETTER_CONSENT_VERSION
from tests.conftest import BACKENDS
from tests.e2e.conftest import (
    DESKTOP,
    PHONE,
    ConsoleLog,
    LiveServer,
    open_page,
    running_server_on,
)
from tests.fakes.customer_site import CustomerSite, run_customer_site
from tests.fakes.kit import FakeKit, run_fake_kit
from tests.fakes.pagespeed import run_fake_pagespeed
from tests.fakes.smtp import SmtpServer

BOX = re.compile(r"^Also send me the newsletter")
SUBSCRIBED = "You're subscribed to the newsletter."
ANY_SUBSCRIBED = re.compile("subscribed", re.IGNORECASE)
UNREACHABLE = (
    "Unable to access the website. Please check if the domain is correct and the website is "
    "accessible."
)
THANKS = "Thank you! We'll contact you within 24 hours to schedule your free consultation."
ANALYSED = [f"score-{n}.example" for n in (42, 55, 61)]
BROKEN = "not-a-page.example"  # a JSON file, not a page: the analysis fails
_visitors = itertools.count(1)


@dataclass
class ConsentServer:
    server: LiveServer
    kit: FakeKit
    backend: str


def overrides(site: CustomerSite) -> str:
    mapping = dict.fromkeys(ANALYSED, site.base_url + "/")
    mapping[BROKEN] = site.base_url + "/data.json"
    return json.dumps(mapping)


@pytest.fixture(scope="module", params=BACKENDS)
def consent(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    smtp_server: SmtpServer,
) -> Iterator[ConsentServer]:
    """A server of its own on each database, with the fake Kit configured (v4)."""
    with run_fake_pagespeed() as pagespeed, run_fake_kit() as kit, run_customer_site() as site:
        settings = {
            "SPEEDTEST_PROVIDER": "psi",
            "PAGESPEED_API_BASE": pagespeed.base_url,
            "SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS": "true",
            "ANALYSIS_UNSAFE_FETCH_OVERRIDES": overrides(site),
            "AI_API_KEY": "",
            "KIT_API_VERSION": "v4",
            "KIT_API_BASE": kit.base_url,
            "KIT_API_KEY": kit.api_key,
            "KIT_FORM_ID": kit.form_id,
            "TRUSTED_PROXIES": "1",
        }
        with running_server_on(
            request.param, "consent", tmp_path_factory, smtp_server, **settings
        ) as live:
            yield ConsentServer(live, kit, request.param)


def visitor(browser: Browser, console: ConsoleLog, viewport: dict[str, int] = DESKTOP) -> Page:
    address = f"198.51.100.{next(_visitors) % 250 + 1}"
    return open_page(browser, console, viewport, extra_http_headers={"X-Forwarded-For": address})


@pytest.fixture
def desk(browser: Browser, console: ConsoleLog) -> Iterator[Page]:
    page = visitor(browser, console)
    yield page
    page.context.close()


def email(consent: ConsentServer, who: str) -> str:
    return f"{who}-{consent.backend}-{next(_visitors)}@visitor.example"


def kit_heard_of(kit: FakeKit, address: str) -> bool:
    return any(address in json.dumps(call.body) for call in kit.requests)


def unexpected(console: ConsoleLog, *statuses: int) -> list[str]:
    notes = [f"the server responded with a status of {status} " for status in statuses]
    return [p for p in console.problems if not any(note in p for note in notes)]


# ------------------------------------------------------------------------------ speed test


def speed_test(page: Page, url: str, address: str, *, box: bool) -> None:
    page.get_by_label("Website URL").fill(url)
    page.get_by_label("Your Email").fill(address)
    page.get_by_role("checkbox", name=BOX).set_checked(box)
    page.get_by_role("button", name="Test My Website Speed").click()


def open_speed_test(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/speed-test")
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("button", name="Test My Website Speed")).to_be_enabled()
    expect(page.get_by_role("checkbox", name=BOX)).not_to_be_checked()  # never ticked for one


def test_the_speed_test_reaches_the_newsletter_only_with_the_box(
    desk: Page, consent: ConsentServer, console: ConsoleLog
) -> None:
    page = desk
    open_speed_test(page, consent.server)
    privacy = page.locator(".speedtest-form").get_by_role("link", name="privacy policy")
    expect(privacy).to_have_attribute("href", "/privacy")

    without = email(consent, "unticked")
    speed_test(page, "score-91.example", without, box=False)
    expect(page.get_by_role("region", name="Speed results for score-91.example")).to_be_visible(
        timeout=30_000
    )
    expect(
        page.get_by_text(f"Your speed report will arrive at {without} in about 60 seconds.")
    ).to_be_visible()
    expect(page.get_by_text(ANY_SUBSCRIBED)).to_have_count(0)
    assert not kit_heard_of(consent.kit, without), "Kit was reached without the box"

    ticked = email(consent, "ticked")
    speed_test(page, "score-92.example", ticked, box=True)
    expect(page.get_by_role("region", name="Speed results for score-92.example")).to_be_visible(
        timeout=30_000
    )
    expect(page.get_by_text(SUBSCRIBED)).to_be_visible()
    assert consent.kit.on_form(ticked)
    assert not kit_heard_of(consent.kit, without)
    assert console.problems == [], console.problems


def test_no_subscription_is_shown_beside_a_failed_test(
    desk: Page, consent: ConsentServer, console: ConsoleLog
) -> None:
    page = desk
    open_speed_test(page, consent.server)
    speed_test(page, "down.example", email(consent, "down"), box=True)
    expect(page.get_by_role("alert")).to_have_text(UNREACHABLE, timeout=30_000)
    expect(page.get_by_text(ANY_SUBSCRIBED)).to_have_count(0)
    expect(page.get_by_text("Your speed report will arrive")).to_have_count(0)
    assert console.problems == [], console.problems


def layout_shift(page: Page) -> float:
    """The page's layout shifts so far (no input), as CLS adds them up."""
    return float(
        page.evaluate(
            """() => new Promise((resolve) => {
                let total = 0
                new PerformanceObserver((list) => {
                  for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value
                }).observe({ type: 'layout-shift', buffered: true })
                setTimeout(() => resolve(total), 500)
            })"""
        )
    )


def start_over_the_api(server: LiveServer, host: str, n: int, address: str = "") -> str:
    body = {"url": host, "email": address or f"count-{n}@visitor.example", "source": "speed-test"}
    request = urllib.request.Request(
        f"{server.url}/api/speed-tests",
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            "X-Agency-Request": "1",
            "X-Forwarded-For": f"203.0.113.{n}",
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(json.loads(answer.read())["id"])


def read(server: LiveServer, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_websites_tested_this_month_is_the_real_count_and_moves_nothing(
    browser: Browser, consent: ConsentServer, console: ConsoleLog, viewport: dict[str, int]
) -> None:
    # Twelve more websites tested to the end (distinct hosts, each a visitor of its own).
    started = [
        start_over_the_api(consent.server, f"score-{n}.example", n)
        for n in range(10 + viewport["width"] % 7, 22 + viewport["width"] % 7)
    ]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        states = [read(consent.server, f"/api/speed-tests/{i}")["status"] for i in started]
        if all(state in ("done", "failed") for state in states):
            break
        time.sleep(0.2)
    figure = read(consent.server, "/api/speed-tests/this-month")
    assert figure["websites"] >= 12, figure

    page = visitor(browser, console, viewport)
    try:
        page.goto(consent.server.url + "/speed-test")
        line = page.locator(".speedtest-form__tested")
        expect(line).to_have_text(f"{figure['websites']:,} websites tested this month.")
        expect(page.get_by_text("1,423 websites tested")).to_have_count(0)
        box = line.bounding_box()
        assert box is not None and box["height"] > 0
        assert layout_shift(page) < 0.01
    finally:
        page.context.close()
    # Without JavaScript the line is there, empty, one line high: the count takes its place.
    bare = open_page(browser, console, viewport, java_script_enabled=False)
    try:
        bare.goto(consent.server.url + "/speed-test")
        empty = bare.locator(".speedtest-form__tested")
        expect(empty).to_have_text("")
        empty_box = empty.bounding_box()
        assert empty_box is not None and abs(empty_box["height"] - box["height"]) < 0.5
    finally:
        bare.context.close()
    assert console.problems == [], console.problems


# ------------------------------------------------------------------------------- analysis


def analyse(page: Page, url: str, address: str, *, box: bool) -> None:
    page.get_by_label("Website URL").fill(url)
    page.get_by_label("Your Email").fill(address)
    page.get_by_role("checkbox", name=BOX).set_checked(box)
    page.locator(".analysis-form").get_by_role("button", name="Analyze Website with AI").click()


def test_the_analysis_reaches_the_newsletter_only_with_the_box(
    desk: Page, consent: ConsentServer, console: ConsoleLog
) -> None:
    page = desk
    page.goto(consent.server.url + "/ai-analysis")
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("checkbox", name=BOX)).not_to_be_checked()
    without = email(consent, "analysis-unticked")
    analyse(page, ANALYSED[0], without, box=False)
    results = page.get_by_role("region", name=f"Analysis results for {ANALYSED[0]}")
    expect(results).to_be_visible(timeout=45_000)
    expect(page.get_by_text(ANY_SUBSCRIBED)).to_have_count(0)
    assert not kit_heard_of(consent.kit, without)

    ticked = email(consent, "analysis-ticked")
    analyse(page, ANALYSED[1], ticked, box=True)
    expect(page.get_by_text(SUBSCRIBED)).to_be_visible(timeout=15_000)
    expect(page.get_by_role("region", name=f"Analysis results for {ANALYSED[1]}")).to_be_visible(
        timeout=45_000
    )
    assert consent.kit.on_form(ticked)

    # A failed analysis shows its error alone, although the box was ticked.
    analyse(page, BROKEN, email(consent, "analysis-broken"), box=True)
    expect(page.get_by_role("alert")).to_be_visible(timeout=45_000)
    expect(page.get_by_text(ANY_SUBSCRIBED)).to_have_count(0)
    assert console.problems == [], console.problems


# ------------------------------------------------------------------------------ lead form


def lead(page: Page, server: LiveServer, address: str, *, box: bool) -> None:
    page.goto(server.url + "/ai-automation")
    page.wait_for_load_state("networkidle")
    form = page.locator("form").filter(
        has=page.get_by_role("button", name="Book My Free Strategy Call")
    )
    form.get_by_label("Email Address").fill(address)
    optin = form.get_by_role("checkbox", name=BOX)
    expect(optin).not_to_be_checked()
    if box:
        optin.check()
    form.get_by_role("button", name="Book My Free Strategy Call").click()
    expect(page.get_by_text(THANKS)).to_be_visible()


def test_a_lead_form_reaches_the_newsletter_only_with_the_box(
    desk: Page, consent: ConsentServer, console: ConsoleLog
) -> None:
    page = desk
    without = email(consent, "lead-unticked")
    lead(page, consent.server, without, box=False)
    expect(page.get_by_text(ANY_SUBSCRIBED)).to_have_count(0)
    assert not kit_heard_of(consent.kit, without)

    ticked = email(consent, "lead-ticked")
    lead(page, consent.server, ticked, box=True)
    expect(page.get_by_text(SUBSCRIBED)).to_be_visible()
    assert consent.kit.on_form(ticked)
    assert unexpected(console) == [], console.problems
    # The ticked box is recorded as a consent (what admins list); the unticked one is not.
    assert consents_of(consent.server, without) == []
    [recorded] = consents_of(consent.server, ticked)
    assert recorded["form"] == "ai-automation-strategy-call"
    assert recorded["wording_version"] == NEWSLETTER_CONSENT_VERSION
    assert recorded["outcome"] == "subscribed"


def consents_of(server: LiveServer, address: str) -> list[dict[str, Any]]:
    listed = server.cli("leads", "consents", "--email", address, "--json")
    return list(json.loads(listed.stdout))


# -------------------------------------------------------------- the report's one-click header


def mails_to(smtp: SmtpServer, address: str) -> list[EmailMessage]:
    return [m for m in smtp.inbox.messages if m["To"] == address]


def wait_for_mail(smtp: SmtpServer, address: str, count: int = 1) -> list[EmailMessage]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if len(found := mails_to(smtp, address)) >= count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no report reached {address}")


def test_the_reports_one_click_header_unsubscribes_as_rfc_8058_says(
    consent: ConsentServer, smtp_server: SmtpServer
) -> None:
    """A mail provider's one-click: a POST to the List-Unsubscribe address with the body
    'List-Unsubscribe=One-Click', no cookie and no header of ours; the next report to that
    mailbox is not sent, while another mailbox's still is."""
    reader = email(consent, "one-click")
    other = email(consent, "still-reading")
    start_over_the_api(consent.server, "score-31.example", 31, reader)
    [report] = wait_for_mail(smtp_server, reader)
    assert report["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    header = str(report["List-Unsubscribe"])
    assert header.startswith(f"<{consent.server.url}/api/mail/unsubscribe?token=")
    assert header.endswith(">")
    text = smtp_server.inbox.text_of(report)
    assert f"Unsubscribe: {consent.server.url}/unsubscribe?token=" in text
    assert "/start" not in text  # a service e-mail: the report asked for, nothing to buy

    request = urllib.request.Request(
        header.strip("<>"),
        data=b"List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
        assert json.loads(answer.read()) == {"address": reader, "unsubscribed": True}

    for n, (host, address) in enumerate(
        [("score-32.example", reader), ("score-33.example", other)], start=32
    ):
        test_id = start_over_the_api(consent.server, host, n, address)
        deadline = time.monotonic() + 30
        while read(consent.server, f"/api/speed-tests/{test_id}")["status"] != "done":
            assert time.monotonic() < deadline, "the test did not finish"
            time.sleep(0.1)
    wait_for_mail(smtp_server, other)  # the other mailbox's report arrives...
    time.sleep(1.0)
    assert len(mails_to(smtp_server, reader)) == 1  # ...the unsubscribed one gets no second
