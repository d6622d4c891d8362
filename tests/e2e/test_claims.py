"""Claims the operator controls, in real Chromium against the real server: with the default
claims file the landing pages show the specs' urgency texts; with `urgency_claims = false` the
prerendered HTML (before any JS) and the hydrated page have none of them, with no empty box
left and no hydration complaint; a struck price is only the catalogue's recorded previous
price, labelled "Previous price"; an operator's claims file replaces a landing page's
testimonial and a client logo's name and switches single ones off, in the HTML and after
hydration (no gap, the carousel counting only what shows)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ConsoleLog, LiveServer, SmtpServer, running_server

URGENCY = (
    "8 slots left this week",
    "only 5 spots",
    "Only 5 spots",
    "spots left today",
    "Only a few engines",
    "Launch pricing",
)


OPERATORS_CLAIMS = """
[testimonials.sales_funnel.hannah_koch]
quote = "They rebuilt our checkout in a week & our refunds fell."
name = "Maria Weber"
position = "Owner, Weber Yoga Studio"
result = "Fewer refunds"
rating = 4

[testimonials.sales_funnel.luca_bianchi]
on = false

[testimonials.home.marco_bianchi]
on = false

[logos.vela_studio]
name = "Weber Yoga Studio"
image = "/logos/kestrel-coaching.svg"

[logos.alder_and_co]
on = false
"""


@pytest.fixture(scope="module")
def operators_claims(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    mine = tmp_path_factory.mktemp("claims") / "claims.toml"
    mine.write_text(OPERATORS_CLAIMS, encoding="utf-8")
    with running_server(tmp_path_factory, smtp_server, CLAIMS_FILE=str(mine)) as server:
        yield server


@pytest.fixture(scope="module")
def no_urgency(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    with running_server(tmp_path_factory, smtp_server, URGENCY_CLAIMS="false") as server:
        yield server


def html_of(server: LiveServer, path: str) -> str:
    response = httpx.get(server.url + path, timeout=10)
    assert response.status_code == 200
    return response.text


def test_the_default_claims_are_the_specs_wording(
    live_server: LiveServer, page: Page, console: ConsoleLog
) -> None:
    lead = html_of(live_server, "/ai-lead-engine")
    assert "Launch offer: only 5 spots" in lead and "Only 5 spots at the launch price" in lead
    assert "8 slots left this week" in html_of(live_server, "/ai-scale-startup")
    page.goto(live_server.url + "/ai-lead-engine")
    page.wait_for_load_state("networkidle")
    expect(page.get_by_text("Launch offer: only 5 spots").first).to_be_visible()
    offer = page.locator("#pricing")
    offer.scroll_into_view_if_needed()
    # The struck price is the recorded previous price, and says so.
    expect(offer.locator(".previous-price")).to_have_text("Previous price €297")
    expect(offer.get_by_text("Save 50%")).to_be_visible()
    assert console.problems == []


@pytest.mark.parametrize("viewport", ["page", "phone"])
def test_with_the_switch_off_no_page_has_an_urgency_claim(
    request: pytest.FixtureRequest, no_urgency: LiveServer, console: ConsoleLog, viewport: str
) -> None:
    for path in ("/ai-lead-engine", "/ai-scale-startup", "/ai-scale-startup2", "/"):
        text = html_of(no_urgency, path)  # as a crawler or a browser without JS sees it
        for claim in URGENCY:
            assert claim not in text, (path, claim)
        assert "__AGENCY_CLAIM" not in text and "data-claim-off" not in text.replace(
            'data-claim-off="lead_engine_badge"', ""
        )
    page: Page = request.getfixturevalue(viewport)
    page.goto(no_urgency.url + "/ai-lead-engine")
    page.wait_for_load_state("networkidle")
    body = page.locator("body")
    for claim in URGENCY:
        expect(body).not_to_contain_text(claim)
    # The badge and the ribbon say what is true; no empty ribbon or list line is left.
    expect(page.locator(".hero__badge")).to_have_text("Launch offer")
    offer = page.locator("#pricing")
    offer.scroll_into_view_if_needed()
    expect(offer.locator(".offer-card__ribbon")).to_have_text("Launch offer")
    expect(offer.locator(".previous-price")).to_have_text("Previous price €297")
    expect(page.locator(".landing-hero__points li")).to_have_count(2)
    expect(page.locator("#faq .faq__item")).to_have_count(3)
    if viewport == "phone":
        expect(page.get_by_role("region", name="Quick action")).to_have_text(
            "Live in 72hClaim Your Spot"
        )

    page.goto(no_urgency.url + "/ai-scale-startup")
    page.wait_for_load_state("networkidle")
    expect(page.locator(".ce-offer .offer-card__ribbon")).to_have_count(0)
    expect(page.get_by_role("heading", name="Your AI Content Engine")).to_be_attached()
    for claim in URGENCY:
        expect(page.locator("body")).not_to_contain_text(claim)

    page.goto(no_urgency.url + "/")
    page.wait_for_load_state("networkidle")
    pricing = page.locator("#pricing")
    pricing.scroll_into_view_if_needed()
    expect(pricing.get_by_role("heading", level=3, name="Professional")).to_be_visible()
    expect(pricing.locator(".pricing-launch")).to_have_count(0)
    professional = pricing.locator(".price-card", has_text="Professional")
    expect(professional.locator(".previous-price")).to_have_text("Previous price €97")
    # Hydration found exactly the HTML the server sent: nothing logged.
    assert console.problems == []


@pytest.mark.parametrize("viewport", ["page", "phone"])
def test_an_operators_testimonials_and_logos_replace_the_specs(
    request: pytest.FixtureRequest, operators_claims: LiveServer, console: ConsoleLog, viewport: str
) -> None:
    text = html_of(operators_claims, "/sales-funnel")  # before any JS
    assert "Maria Weber" in text and "Hannah Koch" not in text and "Luca Bianchi" not in text
    assert 'alt="Weber Yoga Studio"' in text and 'alt="Alder &amp; Co"' not in text
    assert "__AGENCY_CLAIM" not in text
    page: Page = request.getfixturevalue(viewport)
    page.goto(operators_claims.url + "/sales-funnel")
    page.wait_for_load_state("networkidle")
    section = page.locator("section", has=page.locator("#testimonials-title"))
    section.scroll_into_view_if_needed()
    quotes = section.locator(".testimonial")
    expect(quotes).to_have_count(2)  # the one switched off leaves no gap
    first = quotes.first
    expect(first).to_be_visible()
    expect(first.locator("blockquote")).to_have_text(
        "\u201cThey rebuilt our checkout in a week & our refunds fell.\u201d"
    )
    expect(first.locator(".testimonial__name")).to_have_text("Maria Weber")
    expect(first.locator(".testimonial__position")).to_have_text("Owner, Weber Yoga Studio")
    expect(first.locator(".testimonial__avatar")).to_have_text("MW")
    expect(first.locator(".testimonial__result")).to_have_text("Fewer refunds")
    expect(first.get_by_text("Rated 4 out of 5")).to_be_attached()
    expect(quotes.nth(1).locator(".testimonial__name")).to_have_text("Ingrid Solberg")
    logos = page.locator("#clients img")
    expect(logos).to_have_count(5)
    expect(logos.nth(4)).to_have_attribute("alt", "Weber Yoga Studio")
    page.screenshot(path=str(operators_claims.workdir / f"sales-funnel-{viewport}.png"))

    # The home page's carousel counts the three that show.
    page.goto(operators_claims.url + "/")
    page.wait_for_load_state("networkidle")
    carousel = page.get_by_role("region", name="Customer testimonials")
    carousel.scroll_into_view_if_needed()
    expect(carousel.get_by_role("group", name="1 of 3")).to_contain_text("Sophie Laurent")
    expect(carousel.get_by_role("button", name=re.compile(r"^Show testimonial"))).to_have_count(3)
    carousel.get_by_role("button", name="Next testimonial").click()
    expect(carousel.get_by_role("group", name="2 of 3")).to_contain_text("Elena Novak")
    expect(carousel).not_to_contain_text("Marco Bianchi")
    # Hydration found exactly the HTML the server sent: nothing logged.
    assert console.problems == [], console.problems
