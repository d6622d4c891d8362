"""What a visitor types, picks or has autofilled into a prerendered form before its scripts
arrive is what the form sends, in real Chromium against the real server's pages.

The page's scripts are held back while the fields are filled: some by typing (`fill`, with
events nobody listens to yet), one by setting the value without any event, as autofill does on a
page whose listeners are not there. Then the scripts run, the page hydrates and renders again
(the submit buttons enable themselves), and the form is submitted. The forms' inputs are
uncontrolled, so the elements are the only copy of the values: nothing hands them over at
hydration and nothing replays them. Each form's request is answered here with a validation
error naming a field, so the test also sees the server's `fields` mark that field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, expect

from tests.e2e.conftest import ConsoleLog, LiveServer

Fill = Callable[[Page], None]


def typed(name: str, value: str) -> Fill:
    """Types into the field (its events reach no listener yet)."""
    return lambda page: page.locator(f"form [name={name}]").first.fill(value)


def autofilled(name: str, value: str) -> Fill:
    """Sets the value with no event, as the browser's autofill looks to a page not yet hydrated."""
    return lambda page: page.locator(f"form [name={name}]").first.evaluate(
        "(el, value) => { el.value = value }", value
    )


def ticked(name: str) -> Fill:
    return lambda page: page.locator(f"form [name={name}]").first.check()


def picked(plan: str) -> Fill:
    return lambda page: page.locator(f"form [name=plan][value={plan}]").check()


@dataclass(frozen=True)
class EarlyForm:
    path: str
    fills: list[Fill]
    submit: str
    api: str
    sent: dict[str, Any]
    # The field the answered error names; its input must be marked invalid.
    flagged: str
    # What else must show once the page has hydrated (e.g. the picked package's highlight).
    after_hydration: Callable[[Page], None] = field(default=lambda page: None)


def premium_is_highlighted(page: Page) -> None:
    expect(page.get_by_role("radio", name=re.compile("^Premium"))).to_be_checked()
    # The highlight and the summary follow the pick made before hydration.
    expect(page.locator(".package-option--checked")).to_contain_text("Premium")
    expect(page.locator(".purchase-submit__plan")).to_have_text("Premium")


FORMS = [
    EarlyForm(
        "/login",
        [
            typed("email", "early@example.com"),
            autofilled("password", "autofilled pw"),
            ticked("remember"),
        ],
        "Log in",
        "/api/auth/login",
        {"email": "early@example.com", "password": "autofilled pw", "remember": True},
        "email",
    ),
    EarlyForm(
        "/signup",
        [
            typed("first_name", "Grace"),
            autofilled("last_name", "Hopper"),
            typed("email", "grace.early@example.com"),
            typed("password", "cobol 1959"),
            typed("confirm_password", "cobol 1959"),
            ticked("terms"),
        ],
        "Create account",
        "/api/auth/signup",
        {
            "first_name": "Grace",
            "last_name": "Hopper",
            "email": "grace.early@example.com",
            "password": "cobol 1959",
            "confirm_password": "cobol 1959",
        },
        "email",
    ),
    EarlyForm(
        "/forgot-password",
        [autofilled("email", "forgot.early@example.com")],
        "Send reset link",
        "/api/auth/forgot-password",
        {"email": "forgot.early@example.com"},
        "email",
    ),
    EarlyForm(
        "/lead-generation",
        [
            typed("name", "Ada Early"),
            autofilled("domain", "ada-early.example"),
            typed("email", "ada.early@example.com"),
        ],
        "Book My Free Consultation",
        "/api/leads",
        {
            "name": "Ada Early",
            "domain": "ada-early.example",
            "email": "ada.early@example.com",
            "company_website": "",
        },
        "email",
    ),
    EarlyForm(
        "/support",
        [
            typed("name", "Grace Early"),
            autofilled("email", "grace.support@example.com"),
            typed("subject", "Typed before the scripts"),
            typed("message", "Still here after hydration."),
        ],
        "Send request",
        "/api/support",
        {
            "name": "Grace Early",
            "email": "grace.support@example.com",
            "subject": "Typed before the scripts",
            "message": "Still here after hydration.",
            "company_website": "",
        },
        "subject",
    ),
    EarlyForm(
        "/speed-test",
        [typed("url", "early-speed.example"), autofilled("email", "speed.early@example.com")],
        "Test My Website Speed",
        "/api/speed-tests",
        {
            "url": "early-speed.example",
            "email": "speed.early@example.com",
            "source": "speed-test",
            "newsletter": False,
        },
        "email",
    ),
    EarlyForm(
        "/business-analysis",
        [autofilled("url", "early-analysis.example"), typed("email", "analysis.early@example.com")],
        "Show Me My Report →",
        "/api/analyses",
        {"url": "early-analysis.example", "email": "analysis.early@example.com"},
        "url",
    ),
    EarlyForm(
        "/start?type=website",
        [
            typed("full_name", "Margaret Early"),
            autofilled("email", "margaret.early@example.com"),
            typed("password", "apollo 11 code"),
            typed("domain", "hamilton-early.example"),
            picked("premium"),
        ],
        "Order with obligation to pay",
        "/api/billing/checkout",
        {
            "plan": "premium",
            "page": "start",
            "buyer_type": "consumer",
            "early_start_consent": False,
            "full_name": "Margaret Early",
            "email": "margaret.early@example.com",
            "password": "apollo 11 code",
            "domain": "hamilton-early.example",
        },
        "domain",
        after_hydration=premium_is_highlighted,
    ),
]

MESSAGE = "The server names this field."


def hold_scripts(page: Page) -> Callable[[], None]:
    """Holds every script of the page until the returned function is called."""
    held: list[Route] = []
    released = False

    def hold(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/assets/*.js", hold)

    def release() -> None:
        nonlocal released
        released = True
        for route in held:
            route.continue_()

    return release


@pytest.mark.parametrize("form", FORMS, ids=[f.path for f in FORMS])
def test_values_filled_before_the_scripts_arrive_are_sent(
    page: Page, live_server: LiveServer, console: ConsoleLog, form: EarlyForm
) -> None:
    sent: list[Request] = []

    def answer(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request)
        error = {"code": "validation_error", "message": MESSAGE, "fields": {form.flagged: MESSAGE}}
        route.fulfill(
            status=400, content_type="application/json", body=json.dumps({"error": error})
        )

    page.route(f"**{form.api}", answer)
    release = hold_scripts(page)
    page.goto(live_server.url + form.path, wait_until="commit")
    for fill in form.fills:
        fill(page)
    release()
    page.wait_for_load_state("networkidle")  # hydrated, and rendered again since
    form.after_hydration(page)

    submit = page.get_by_role("button", name=form.submit, exact=True).first
    scope = page.locator("form").filter(has=submit).first
    submit.click()
    expect(page.get_by_role("alert").filter(has_text=MESSAGE).first).to_be_visible()
    assert len(sent) == 1
    body: dict[str, Any] = sent[0].post_data_json or {}
    assert {key: body.get(key) for key in form.sent} == form.sent
    flagged = scope.locator(f"[name={form.flagged}]")
    expect(flagged).to_have_attribute("aria-invalid", "true")
    # Nothing was lost on the way: the fields still hold what was filled in.
    for key, value in form.sent.items():
        if isinstance(value, str) and value and key not in ("page", "source", "plan", "buyer_type"):
            expect(scope.locator(f"[name={key}]")).to_have_value(value)
    # The answered 400 is the only complaint (no hydration problem).
    assert [p for p in console.problems if "status of 400" not in p] == [], console.problems


def test_the_phone_bar_knows_of_fields_autofilled_before_hydration(
    phone: Page, live_server: LiveServer
) -> None:
    """The analysis pages' bar on phones enables its submit button once both fields hold
    something: the form looks at its fields in the hydrating commit."""
    release = hold_scripts(phone)
    phone.goto(live_server.url + "/business-analysis", wait_until="commit")
    autofilled("url", "bar-early.example")(phone)
    autofilled("email", "bar.early@example.com")(phone)
    release()
    phone.wait_for_load_state("networkidle")
    bar = phone.get_by_role("region", name="Quick action")
    expect(bar.locator("button[type=submit]")).to_be_enabled()
