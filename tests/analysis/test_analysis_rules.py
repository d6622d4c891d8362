"""The rules report and the critical issues: grounded in the facts both ways (a gap
is named only when the facts show it, and always then), never contradicting them (hypothesis
over generated facts, every variant), the contradiction rule on AI-style sentences, and
ground_report dropping what the facts contradict."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.modules.analysis.schemas import (
    ITEM_MAX,
    AiOpportunitiesOut,
    AnalysisReportOut,
    AnalysisVariant,
    CustomerJourneyOut,
    FunnelStageOut,
    PageFactsOut,
    SalesFunnelOut,
    TouchpointOut,
)
from agency.modules.analysis.service.analysis_rules import (
    CRITICAL_MAX,
    OVERVIEW_DEFAULT,
    OVERVIEW_MAX,
    contradicts,
    critical_issues,
    ground_report,
    rules_report,
)
from agency.modules.analysis.service.analysis_scores import derive_scores
from agency.modules.speedtest.api import SpeedResultOut

VARIANTS: list[AnalysisVariant] = ["general", "lead", "technical", "agency"]
BOOKING = ["Calendly", "Cal.com", "Doctolib", "HubSpot Meetings", "Google Calendar appointments"]
CHAT = ["Intercom", "Tidio", "HubSpot chat", "WhatsApp", "LiveChat"]
ANALYTICS = ["Google Analytics 4", "Google Tag Manager", "Matomo", "Meta Pixel", "Hotjar"]
TYPES = ["LocalBusiness", "Organization", "Dentist", "FAQPage", "WebSite"]
# Page text that reads like a finding: the report quotes it, and that is no claim of ours.
TRICKY = [
    "No booking fees",
    "Add chat to your life",
    "Missing analytics? No problem",
    "No meta description needed",
    "Without HTTPS. Really",
    "Get started — book “now”",
    "No call to action here",
]


def page_text() -> st.SearchStrategy[str]:
    return st.one_of(st.text(min_size=1, max_size=120), st.sampled_from(TRICKY))


@st.composite
def facts_strategy(draw: st.DrawFn) -> PageFactsOut:
    images = draw(st.integers(0, 40))
    https = draw(st.booleans())
    return PageFactsOut(
        final_url=("https" if https else "http") + "://client.example/",
        http_status=draw(st.sampled_from([200, 200, 200, 203, 404, 500])),
        title=draw(st.none() | page_text()),
        meta_description=draw(st.none() | page_text()),
        h1=draw(st.lists(page_text(), max_size=3)),
        headings=draw(st.integers(0, 30)),
        calls_to_action=draw(st.lists(page_text(), max_size=10)),
        forms=draw(st.integers(0, 3)),
        form_fields=draw(st.integers(0, 20)),
        phone=draw(st.booleans()),
        email=draw(st.booleans()),
        structured_data=draw(st.lists(st.sampled_from(TYPES), unique=True, max_size=3)),
        open_graph=draw(st.booleans()),
        viewport=draw(st.booleans()),
        language=draw(st.none() | st.sampled_from(["en", "de-DE", "fr"])),
        images=images,
        images_without_alt=draw(st.integers(0, images)),
        scripts=draw(st.integers(0, 40)),
        script_kb=draw(st.integers(0, 400)),
        booking_widgets=draw(st.lists(st.sampled_from(BOOKING), unique=True, max_size=2)),
        chat_widgets=draw(st.lists(st.sampled_from(CHAT), unique=True, max_size=2)),
        analytics=draw(st.lists(st.sampled_from(ANALYTICS), unique=True, max_size=3)),
        https=https,
    )


def speed_result(score: int, speed_index_ms: int = 3100, tbt: int = 100) -> SpeedResultOut:
    return SpeedResultOut(
        score=score,
        rating="Poor",
        speed_index_ms=speed_index_ms,
        total_blocking_time_ms=tbt,
        largest_contentful_paint_ms=None,
        cumulative_layout_shift=None,
        first_contentful_paint_ms=None,
        field_data=[],
        opportunities=[],
        provider="psi",
    )


speeds = st.none() | st.builds(
    speed_result,
    st.integers(0, 100),
    st.integers(0, 30_000),
    st.integers(0, 3_000),
)


def texts(report: AnalysisReportOut) -> list[str]:
    """Every sentence-bearing string of a report."""
    out = [report.overview]
    for stage in report.sales_funnel.stages:
        out += [stage.name, stage.description, *stage.improvements]
    for point in report.customer_journey.touchpoints:
        out += [point.stage, point.description, *point.opportunities]
    ai = report.ai_opportunities
    return out + ai.customer_support + ai.seo + ai.personalization


QUOTED = re.compile(r"\u201c[^\u201d]*\u201d")


def our_words(items: list[str]) -> str:
    """The report's own words (quoted page text out), lower case."""
    return " | ".join(QUOTED.sub("“”", item) for item in items).lower()


# Phrases a report must not hold when the fact says the opposite: a check written apart from
# the contradiction rule's regular expressions.
FORBIDDEN: list[tuple[str, object, list[str]]] = [
    ("booking_widgets", bool, ["no online booking", "no booking tool", "add online booking"]),
    ("chat_widgets", bool, ["no chat widget", "add a chat", "add live chat"]),
    ("analytics", bool, ["no analytics", "install analytics", "has no analytics"]),
    ("meta_description", lambda v: v is not None, ["no meta description", "has none"]),
    ("title", lambda v: v is not None, ["no title", "lacks a title"]),
    ("https", bool, ["without https", "not secure", "over https and redirect"]),
    ("viewport", bool, ["no viewport"]),
    ("structured_data", bool, ["no structured data", "structured data set-up"]),
    ("open_graph", bool, ["no open graph"]),
    ("calls_to_action", bool, ["no call to action", "has none"]),
    ("phone", bool, ["no phone number"]),
    ("email", bool, ["no e-mail address"]),
    ("forms", bool, ["no form found", "no phone number, e-mail address or form"]),
    ("h1", bool, ["no h1"]),
    ("language", lambda v: v is not None, ["does not declare its language"]),
]


@given(facts_strategy(), st.sampled_from(VARIANTS))
def test_the_rules_never_contradict_the_facts(
    facts: PageFactsOut, variant: AnalysisVariant
) -> None:
    report = rules_report(facts, variant, "client.example")

    for text in texts(report):
        assert contradicts(text, facts) == [], text
    words = our_words(texts(report))
    for field, present, phrases in FORBIDDEN:
        if present(getattr(facts, field)):  # type: ignore[operator]
            for phrase in phrases:
                if phrase == "has none" and field == "meta_description":
                    assert "meta description writing" not in words
                    continue
                if phrase == "has none":
                    assert "call to action; the page has none" not in words
                    continue
                assert phrase not in words, (field, phrase)
    if facts.images_without_alt == 0:
        assert "no alt text" not in words and "image without one" not in words
        assert "images without one" not in words


@given(facts_strategy(), st.sampled_from(VARIANTS))
def test_the_rules_report_is_bounded_and_scores_fine(
    facts: PageFactsOut, variant: AnalysisVariant
) -> None:
    report = rules_report(facts, variant, "client.example")

    assert 100 < len(report.overview) <= OVERVIEW_MAX
    for stage in report.sales_funnel.stages:
        assert all(0 < len(item) <= ITEM_MAX for item in stage.improvements)
    for point in report.customer_journey.touchpoints:
        assert all(0 < len(item) <= ITEM_MAX for item in point.opportunities)
    ai = report.ai_opportunities
    assert all(0 < len(item) <= ITEM_MAX for item in ai.customer_support + ai.seo)
    assert all(0 < len(item) <= ITEM_MAX for item in ai.personalization)
    assert report.sales_funnel.stages and report.customer_journey.touchpoints


@given(facts_strategy())
def test_the_general_report_names_every_gap_the_facts_show(facts: PageFactsOut) -> None:
    words = our_words(texts(rules_report(facts, "general", "client.example")))

    assert ("no meta description" in words) == (facts.meta_description is None)
    assert ("no call to action" in words) == (not facts.calls_to_action)
    assert ("no online booking tool" in words) == (not facts.booking_widgets)
    assert ("no analytics or tag manager" in words) == (not facts.analytics)
    assert ("no viewport meta tag" in words) == (not facts.viewport)
    assert ("no structured data" in words) == (not facts.structured_data)
    if facts.images_without_alt:
        verb = "has" if facts.images_without_alt == 1 else "have"
        image = "image" if facts.images == 1 else "images"
        assert f"{facts.images_without_alt} of {facts.images} {image} {verb} no alt text" in words
    for name in facts.booking_widgets:
        assert f"book through {name.lower()}" in words or f"and {name.lower()}" in words


@given(facts_strategy())
def test_the_technical_security_score_falls_with_each_finding(facts: PageFactsOut) -> None:
    secure = facts.model_copy(update={"https": True, "final_url": "https://client.example/"})
    insecure = facts.model_copy(update={"https": False, "final_url": "http://client.example/"})

    high = derive_scores(secure, None, "technical").security
    low = derive_scores(insecure, None, "technical").security

    assert low < high or high == 0


def perfect() -> PageFactsOut:
    return PageFactsOut(
        final_url="https://client.example/",
        http_status=200,
        title="Smile Dental Berlin",
        meta_description="Gentle dentistry in Berlin-Mitte, open six days a week.",
        h1=["Gentle dentistry in Berlin"],
        headings=8,
        calls_to_action=["Book an appointment", "Call us"],
        forms=1,
        form_fields=3,
        phone=True,
        email=True,
        structured_data=["Dentist"],
        open_graph=True,
        viewport=True,
        language="en",
        images=6,
        images_without_alt=0,
        scripts=4,
        script_kb=3,
        booking_widgets=["Calendly"],
        chat_widgets=["Tidio"],
        analytics=["Plausible"],
        https=True,
    )


def bare() -> PageFactsOut:
    return PageFactsOut(
        final_url="http://client.example/",
        http_status=200,
        title=None,
        meta_description=None,
        h1=[],
        headings=0,
        calls_to_action=[],
        forms=0,
        form_fields=0,
        phone=False,
        email=False,
        structured_data=[],
        open_graph=False,
        viewport=False,
        language=None,
        images=12,
        images_without_alt=3,
        scripts=22,
        script_kb=180,
        booking_widgets=[],
        chat_widgets=[],
        analytics=[],
        https=False,
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_perfect_fast_page_has_no_critical_issue(variant: AnalysisVariant) -> None:
    assert critical_issues(perfect(), speed_result(95, 1200, 50), variant) == []


def test_a_bare_slow_page_lists_the_worst_first() -> None:
    issues = critical_issues(bare(), speed_result(31, 7400, 900), "general")

    assert issues == [
        "The page is served without HTTPS: browsers mark it 'Not secure'.",
        "Speed score 31/100: the page needs 7.4 s to show its content (speed index).",
        "No viewport meta tag: phones show the page zoomed out like a desktop page.",
        "No call to action found on the page.",
        "No phone number, e-mail address or form found: visitors have no way to get in touch.",
        "The page has no title.",
        "The page has no meta description.",
        "The page has no H1 heading.",
    ]
    assert len(issues) == CRITICAL_MAX


def test_the_lead_page_counts_lost_visitors_and_the_technical_page_blocking_time() -> None:
    lead = critical_issues(perfect(), speed_result(62, 3100, 400), "lead")
    technical = critical_issues(perfect(), speed_result(62, 3100, 400), "technical")
    general = critical_issues(perfect(), speed_result(62, 3100, 400), "general")

    assert lead == [
        "Speed score 62/100: the page needs 3.1 s to show its content, and about 20% of "
        "visitors leave before it loads.",
        "Load time 3.1 s: the industry standard is under 2 s.",
    ]
    assert technical[0] == (
        "Total blocking time 400 ms: at or above the 300 ms critical mark, the page ignores "
        "taps and clicks while scripts run."
    )
    assert not any("blocking" in issue for issue in general)


def test_blocking_time_is_critical_from_300_ms() -> None:
    at = critical_issues(perfect(), speed_result(95, 1000, 300), "technical")
    below = critical_issues(perfect(), speed_result(95, 1000, 299), "technical")

    assert any("300 ms" in issue for issue in at)
    assert below == []


def test_without_facts_only_the_speed_speaks() -> None:
    assert critical_issues(None, speed_result(40, 5000), "general") == [
        "Speed score 40/100: the page needs 5.0 s to show its content (speed index)."
    ]
    assert critical_issues(None, None, "technical") == []


@given(st.none() | facts_strategy(), speeds, st.sampled_from(VARIANTS))
def test_critical_issues_are_grounded_and_bounded(
    facts: PageFactsOut | None, speed: SpeedResultOut | None, variant: AnalysisVariant
) -> None:
    issues = critical_issues(facts, speed, variant)

    assert len(issues) <= CRITICAL_MAX
    assert len(set(issues)) == len(issues)
    if facts is not None:
        assert all(contradicts(issue, facts) == [] for issue in issues)
    if speed is None or speed.score >= 90:
        assert not any(issue.startswith("Speed score") for issue in issues)
    else:
        assert any(f"Speed score {speed.score}/100" in issue for issue in issues)


# The contradiction rule on sentences an AI writes


@pytest.mark.parametrize(
    ("sentence", "topics"),
    [
        ("Add online booking so visitors can schedule themselves.", ["booking"]),
        ("Integrate a booking widget such as Calendly.", ["booking"]),
        ("The site lacks an appointment scheduler.", ["booking"]),
        ("Consider adding a live chat to answer questions.", ["chat"]),
        ("Implement an AI chatbot for customer support.", ["chat"]),
        ("There is no analytics on the page.", ["analytics"]),
        ("Install Google Analytics to track visitors.", ["analytics"]),
        ("Your page is missing a meta description.", ["meta description"]),
        ("Meta description is missing.", ["meta description"]),
        ("Write a meta description, the page lacks one.", ["meta description"]),
        ("Structured data: the page has none.", ["structured data"]),
        ("The site does not use HTTPS.", ["https"]),
        ("Add an SSL certificate.", ["https"]),
        ("Add a viewport meta tag for mobile.", ["viewport"]),
        ("Add structured data for rich results.", ["structured data"]),
        ("Add Open Graph tags for social sharing.", ["open graph"]),
        ("There is no clear call to action.", ["call to action"]),
        ("No phone number is shown.", ["phone"]),
        ("There is no chat or booking.", ["booking", "chat"]),
        ("Get a booking tool such as Cal.com.", ["booking"]),
        ("Add a contact form.", ["form"]),
        ("The page has no H1 heading.", ["h1"]),
        ("Images are missing alt text.", ["alt text"]),
    ],
)
def test_ai_sentences_the_facts_contradict(sentence: str, topics: list[str]) -> None:
    assert contradicts(sentence, perfect()) == topics
    assert contradicts(sentence, bare()) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Send reminders to visitors who booked through your Calendly booking page.",
        "Add reminders to your existing booking flow.",
        "Connect an AI assistant to your Tidio chat.",
        "Use Plausible's goals to see which call to action converts.",
        "Rewrite the title “No booking fees, no chat” to name the city.",
        "Your meta description could mention the opening hours.",
        "Keep the page on HTTPS and send HSTS.",
        "Add FAQ entries to your structured data.",
        "Link every call to action to the calendar.",
        "Visit https://no-chat.example/ for comparison.",
        "Use AI to cut no-shows for appointments.",
        "Offer booking reminders by text message.",
        "No keywords in the title: name the city.",
        "Tailor the booking page to the visitor's needs.",
        "Patients can book without calling.",
    ],
)
def test_ai_sentences_the_facts_allow(sentence: str) -> None:
    assert contradicts(sentence, perfect()) == []


def test_ground_report_drops_what_the_facts_contradict() -> None:
    report = AnalysisReportOut(
        overview="The site has no online booking. Its headline is clear.",
        sales_funnel=SalesFunnelOut(
            stages=[
                FunnelStageOut(
                    name="Action",
                    description="Visitors cannot chat. There is no live chat. Forms work.",
                    improvements=["Add online booking with Calendly.", "Shorten the form."],
                )
            ]
        ),
        customer_journey=CustomerJourneyOut(
            touchpoints=[
                TouchpointOut(
                    stage="Search",
                    description="Snippet.",
                    opportunities=["Write a meta description.", "Add a meta description."],
                )
            ]
        ),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=["Implement an AI chatbot.", "Answer form enquiries with AI."],
            seo=["Add structured data."],
            personalization=["Install analytics first."],
        ),
    )

    grounded = ground_report(report, perfect())

    assert grounded.overview == "Its headline is clear."
    [stage] = grounded.sales_funnel.stages
    assert stage.description == "Visitors cannot chat. Forms work."
    assert stage.improvements == ["Shorten the form."]
    assert grounded.customer_journey.touchpoints[0].opportunities == ["Write a meta description."]
    assert grounded.ai_opportunities == AiOpportunitiesOut(
        customer_support=["Answer form enquiries with AI."], seo=[], personalization=[]
    )
    # The same report about a bare page keeps everything.
    assert ground_report(report, bare()) == report


def test_ground_report_falls_back_to_the_default_overview() -> None:
    report = rules_report(bare(), "general", "client.example").model_copy(
        update={"overview": "Add online booking."}
    )

    assert ground_report(report, perfect()).overview == OVERVIEW_DEFAULT


def test_the_lead_page_speaks_of_business_impact() -> None:
    issues = critical_issues(bare(), None, "lead")

    assert (
        "No call to action found on the page: visitors ready to buy have nothing to click."
        in issues
    )


def test_a_meta_description_ending_in_a_full_stop_gets_no_second_one() -> None:
    report = rules_report(perfect(), "general", "client.example")

    assert "open six days a week.”" in report.overview
    assert "week.”." not in report.overview
