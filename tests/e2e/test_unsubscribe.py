"""Unsubscribing in real Chromium against the real server: a speed test's
report reaches the test SMTP server with an unsubscribe link; the link's page asks first, the
button stops the mail and says so; a forged link is refused in the red box; the one-click
address opened in a browser leads to the same page; phone width and axe on every state.

Speed tests run against the fake PageSpeed Insights (`tests/fakes/pagespeed.py`) with
`speedtest_unsafe_allow_private_targets` (names under `.example` never resolve)."""

from __future__ import annotations

import itertools
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, ConsoleLog, LiveServer, open_page, running_server
from tests.e2e.test_accessibility import AXE_SOURCE, AXE_TAGS, REVIEW_AS_VIOLATION, RUN_AXE
from tests.e2e.test_accessibility import describe as describe_violations
from tests.fakes.pagespeed import run_fake_pagespeed
from tests.fakes.smtp import SmtpServer

INVALID = "This unsubscribe link is not valid. Please use the link from the e-mail."
_visitors = itertools.count(1)


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    with (
        run_fake_pagespeed() as pagespeed,
        running_server(
            tmp_path_factory,
            smtp_server,
            SPEEDTEST_PROVIDER="psi",
            PAGESPEED_API_BASE=pagespeed.base_url,
            SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS="true",
            TRUSTED_PROXIES="1",
        ) as live,
    ):
        yield live


def post(url: str, data: bytes, headers: dict[str, str]) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def report_for(server: LiveServer, smtp: SmtpServer, email: str) -> EmailMessage:
    """Start a speed test for `email` (as a visitor of its own) and wait for its report."""
    n = next(_visitors)
    body = {"url": f"score-{40 + n}.example", "email": email, "source": "speed-test"}
    status, data = post(
        f"{server.url}/api/speed-tests",
        json.dumps(body).encode(),
        {
            "Content-Type": "application/json",
            "X-Agency-Request": "1",
            "X-Forwarded-For": f"198.51.100.{200 + n}",
        },
    )
    assert status == 202, data
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for message in smtp.inbox.messages:
            if message["To"] == email:
                return message
        time.sleep(0.1)
    raise AssertionError(f"no report reached {email}")


def page_link(smtp: SmtpServer, message: EmailMessage) -> str:
    found = re.search(r"^Unsubscribe: (\S+)\s*$", smtp.inbox.text_of(message), re.MULTILINE)
    assert found, smtp.inbox.text_of(message)
    return found.group(1)


def one_click_url(message: EmailMessage) -> str:
    return str(message["List-Unsubscribe"]).strip("<>")


def unexpected(console: ConsoleLog, *statuses: int) -> list[str]:
    """Console problems apart from the browser's own note on an error answer we asked for."""
    notes = [f"the server responded with a status of {status} " for status in statuses]
    return [p for p in console.problems if not any(note in p for note in notes)]


def test_the_link_from_the_e_mail_asks_then_unsubscribes(
    page: Page, server: LiveServer, smtp_server: SmtpServer, console: ConsoleLog
) -> None:
    email = "reader@visitor.example"
    report = report_for(server, smtp_server, email)
    link = page_link(smtp_server, report)
    assert link.startswith(f"{server.url}/unsubscribe?token=")
    page.goto(link)
    expect(page.get_by_role("heading", level=1, name="Unsubscribe")).to_be_visible()
    expect(page.get_by_text(f"Stop e-mails to {email}?")).to_be_visible()
    # Opening the link changed nothing: a provider's one-click still finds it subscribed.
    button = page.get_by_role("button", name="Unsubscribe")
    button.click()
    expect(page.get_by_role("status")).to_have_text(
        f"Done. We will send no more e-mails to {email}."
    )
    home = page.get_by_role("link", name="Go to the home page")
    expect(home).to_have_attribute("href", "/")
    # The one-click address in the header agrees (and doing it again changes nothing).
    status, body = post(
        one_click_url(report),
        b"List-Unsubscribe=One-Click",
        {"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert (status, body) == (200, {"address": email, "unsubscribed": True})
    home.click()
    expect(page).to_have_url(server.url + "/")
    assert console.problems == [], console.problems


def test_a_forged_link_is_refused_in_the_red_box(
    page: Page, server: LiveServer, smtp_server: SmtpServer, console: ConsoleLog
) -> None:
    report = report_for(server, smtp_server, "victim@visitor.example")
    token = parse_qs(urlsplit(page_link(smtp_server, report)).query)["token"][0]
    body, _, signature = token.partition(".")
    forged = f"{body}.{signature[::-1]}"
    page.goto(f"{server.url}/unsubscribe?token={forged}")
    page.get_by_role("button", name="Unsubscribe").click()
    expect(page.get_by_role("alert")).to_have_text(INVALID)
    expect(page.get_by_role("button", name="Unsubscribe")).to_have_count(0)
    # The real link still works: the forged one changed nothing.
    status, answer = post(
        one_click_url(report),
        b"List-Unsubscribe=One-Click",
        {"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert (status, answer) == (200, {"address": "victim@visitor.example", "unsubscribed": True})
    assert unexpected(console, 400) == [], console.problems


def test_the_one_click_address_opened_in_a_browser_asks_first(
    page: Page, server: LiveServer, smtp_server: SmtpServer, console: ConsoleLog
) -> None:
    """A mail reader without RFC 8058 opens the List-Unsubscribe address in a browser."""
    email = "old-reader@visitor.example"
    report = report_for(server, smtp_server, email)
    page.goto(one_click_url(report))
    expect(page).to_have_url(re.compile(r"/unsubscribe\?token="))
    expect(page.get_by_text(f"Stop e-mails to {email}?")).to_be_visible()
    page.get_by_role("button", name="Unsubscribe").click()
    expect(page.get_by_role("status")).to_contain_text("Done.")
    assert console.problems == [], console.problems


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_every_state_fits_and_has_no_accessibility_violations(
    browser: Browser,
    server: LiveServer,
    smtp_server: SmtpServer,
    console: ConsoleLog,
    width: str,
) -> None:
    """axe (the accessibility suite's rules) on the question, the refusal and the
    confirmation, a long address wrapping within a phone's width; the button works from the
    keyboard."""
    viewport, extra = (
        (PHONE, {"is_mobile": True, "has_touch": True})
        if width == "phone"
        else (
            DESKTOP,
            {},
        )
    )
    page = open_page(browser, console, viewport, bypass_csp=True, **extra)
    axe = AXE_SOURCE.read_text()
    email = f"a-rather-long-mailbox-name-for-{width}@some-long-domain-name.visitor.example"
    link = page_link(smtp_server, report_for(server, smtp_server, email))

    def check(state: str) -> None:
        page.add_script_tag(content=axe)
        found: list[dict[str, Any]] = page.evaluate(RUN_AXE, [AXE_TAGS, REVIEW_AS_VIOLATION])
        assert not found, describe_violations(f"/unsubscribe ({state})", width, found)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= viewport["width"], f"{state}: the page scrolls sideways ({scroll} px)"

    try:
        page.goto(f"{server.url}/unsubscribe")
        expect(page.get_by_role("alert")).to_contain_text(INVALID)
        check("no token")
        page.goto(link)
        button = page.get_by_role("button", name="Unsubscribe")
        expect(button).to_be_visible()
        check("question")
        button.focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("status")).to_contain_text(email)
        check("done")
    finally:
        page.context.close()
    assert console.problems == [], console.problems
