"""Every lead form of the public site in real Chromium: the visitor sees the spec's
confirmation, the lead is stored with its source, and the agency's e-mail arrives at the (real,
local) SMTP server the live server sends through."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleLog, LiveServer, running_server
from tests.fakes.smtp import SmtpServer

AGENCY_EMAIL = "leads@agency.example"
THANKS = "Thank you! We'll contact you within 24 hours to schedule your free consultation."


@dataclass(frozen=True)
class LeadForm:
    path: str
    source: str
    submit: str
    confirmation: str
    email_label: str = "Email Address"
    with_name_and_domain: bool = False


FORMS = [
    LeadForm("/ai-automation", "ai-automation-strategy-call", "Book My Free Strategy Call", THANKS),
    LeadForm(
        "/ai-onboarding-system",
        "ai-onboarding-audit",
        "Get My Free Audit",
        "Thank you! We'll contact you within 24 hours to schedule your free onboarding audit.",
        email_label="Agency Email Address",
    ),
    LeadForm(
        "/lead-generation",
        "clinic-consultation",
        "Book My Free Consultation",
        THANKS,
        with_name_and_domain=True,
    ),
    LeadForm(
        "/sales-funnel", "sales-funnel-teardown", "Apply Now", THANKS, with_name_and_domain=True
    ),
    LeadForm(
        "/free-preview",
        "free-preview",
        "Get My Free Preview",
        "Request Received!",
        with_name_and_domain=True,
    ),
]


@pytest.fixture(scope="module")
def lead_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    """A server of its own (its own rate-limit counters) that e-mails leads to the agency."""
    with running_server(tmp_path_factory, smtp_server, AGENCY_EMAIL=AGENCY_EMAIL) as server:
        yield server


def agency_mail_about(smtp: SmtpServer, visitor: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in smtp.inbox.messages:
            if message["To"] == AGENCY_EMAIL and visitor in str(message["Subject"]):
                return smtp.inbox.text_of(message)
        time.sleep(0.1)
    raise AssertionError(f"no e-mail about {visitor} reached the agency")


@pytest.mark.parametrize("form", FORMS, ids=[f.source for f in FORMS])
def test_form_stores_the_lead_and_mails_the_agency(
    page: Page,
    lead_server: LiveServer,
    smtp_server: SmtpServer,
    console: ConsoleLog,
    form: LeadForm,
) -> None:
    visitor = f"{form.source}@visitor.example"
    page.goto(lead_server.url + form.path)
    page.wait_for_load_state("networkidle")
    scope = page.locator("form").filter(has=page.get_by_role("button", name=form.submit))
    if form.with_name_and_domain:
        scope.get_by_label("Your Name").fill("Ada Visitor")
        scope.get_by_label("Website URL").fill("ada-visitor.example")
    scope.get_by_label(form.email_label).fill(visitor)
    scope.get_by_role("button", name=form.submit).click()
    expect(page.get_by_text(form.confirmation)).to_be_visible()

    body = agency_mail_about(smtp_server, visitor)
    assert visitor in body
    if form.with_name_and_domain:
        assert "Ada Visitor" in body and "ada-visitor.example" in body
    export = lead_server.workdir / f"{form.source}.csv"
    lead_server.cli("leads", "export", "--csv", str(export), "--source", form.source)
    assert visitor in export.read_text()
    assert console.problems == [], console.problems
