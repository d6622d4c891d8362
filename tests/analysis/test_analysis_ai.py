"""The analysis' AI step through net.ai and the openai SDK, over HTTP, against the
fake OpenAI-compatible server: a valid answer, a partial one (§3's defaults), invalid JSON, 401,
429, a slow answer past the timeout, findings the facts contradict dropped; and parse_report,
defensive under hypothesis."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
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
from agency.modules.analysis.service import analyses
from agency.modules.analysis.service.analysis_ai import (
    ITEMS_MAX,
    MAX_TOKENS,
    MSG_NOTHING_USABLE,
    PARTS_MAX,
    ai_report,
    parse_report,
    states_score,
    system_message,
    user_message,
)
from agency.modules.analysis.service.analysis_rules import OVERVIEW_DEFAULT, OVERVIEW_MAX
from agency.modules.analysis.service.analysis_scores import derive_scores, fact_scores_text
from agency.modules.speedtest.api import SpeedResultOut
from agency.net import ai
from agency.net.ai import AIError
from agency.settings import Settings
from tests.analysis.test_analysis_rules import bare, facts_strategy, perfect, speed_result
from tests.fakes.openai_server import (
    DEFAULT_API_KEY,
    FakeOpenAI,
    Messages,
    Outcome,
    run_fake_openai,
)

DOMAIN = "smile-dental.example"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with run_fake_openai() as server:
        yield server


@pytest.fixture(autouse=True)
def fresh(fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "BACKOFF_FIRST", 0.01)
    fake.reset()


def settings_for(fake: FakeOpenAI, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "ai_api_key": DEFAULT_API_KEY,
        "ai_base_url": fake.api_base,
        "ai_model": "gpt-4o-mini",
        "ai_timeout": 5.0,
        "ai_max_retries": 0,
    }
    values.update(overrides)
    return Settings(**values)


def facts_in(messages: Messages) -> dict[str, Any]:
    """The facts the prompt gave the model, read back from the user message."""
    user = str(messages[-1]["content"])
    start = user.index("{")
    end = user.rindex("}") + 1
    data: dict[str, Any] = json.loads(user[start:end])
    return data


def grounded_answer(messages: Messages, model: str) -> dict[str, Any]:
    """What a well-behaved model writes: camelCase, from the facts it was given."""
    facts = facts_in(messages)
    booking = facts["booking_widgets"]
    return {
        "overview": f"The page titled {facts['title']} is served over HTTPS and has "
        f"{len(facts['calls_to_action'])} calls to action; visitors book through "
        f"{', '.join(booking)}.",
        "salesFunnel": {
            "stages": [
                {
                    "name": "Decision",
                    "description": f"Calls to action: {', '.join(facts['calls_to_action'])}.",
                    "improvements": ["Repeat the main call to action after each section."],
                }
            ]
        },
        "customerJourney": {
            "touchpoints": [
                {
                    "stage": "Booking",
                    "description": f"Visitors book through {booking[0]}.",
                    "opportunities": [f"Send reminders for {booking[0]} appointments."],
                }
            ]
        },
        "aiOpportunities": {
            "customerSupport": ["An AI assistant inside the Tidio chat."],
            "seo": ["FAQ markup next to the Dentist structured data."],
            "personalization": ["Different calls to action for returning visitors."],
        },
    }


async def test_a_valid_answer_becomes_the_report(fake: FakeOpenAI) -> None:
    fake.handler = grounded_answer

    report = await ai_report(settings_for(fake), perfect(), "general", DOMAIN)

    assert report == AnalysisReportOut(
        overview="The page titled Smile Dental Berlin is served over HTTPS and has 2 calls to "
        "action; visitors book through Calendly.",
        sales_funnel=SalesFunnelOut(
            stages=[
                FunnelStageOut(
                    name="Decision",
                    description="Calls to action: Book an appointment, Call us.",
                    improvements=["Repeat the main call to action after each section."],
                )
            ]
        ),
        customer_journey=CustomerJourneyOut(
            touchpoints=[
                TouchpointOut(
                    stage="Booking",
                    description="Visitors book through Calendly.",
                    opportunities=["Send reminders for Calendly appointments."],
                )
            ]
        ),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=["An AI assistant inside the Tidio chat."],
            seo=["FAQ markup next to the Dentist structured data."],
            personalization=["Different calls to action for returning visitors."],
        ),
    )
    [call] = fake.requests
    system, user = (str(m["content"]) for m in call.messages)
    assert [m["role"] for m in call.messages] == ["system", "user"]
    assert "expert web strategist and AI consultant" in system
    assert "JSON" in system and "customerJourney" in system
    assert DOMAIN in user
    assert facts_in(call.messages) == perfect().model_dump()
    assert call.response_format == {"type": "json_object"}
    assert call.model == "gpt-4o-mini"
    assert call.max_tokens == MAX_TOKENS


async def test_a_partial_answer_gets_the_defaults(fake: FakeOpenAI) -> None:
    fake.push(Outcome.json_answer({"overview": "A short overview of the page."}))
    fake.push(Outcome.json_answer({"aiOpportunities": {"seo": ["Write alt texts."]}}))

    first = await ai_report(settings_for(fake), bare(), "general", DOMAIN)
    second = await ai_report(settings_for(fake), bare(), "general", DOMAIN)

    assert first.overview == "A short overview of the page."
    assert first.sales_funnel.stages == [] and first.customer_journey.touchpoints == []
    assert first.ai_opportunities == AiOpportunitiesOut(
        customer_support=[], seo=[], personalization=[]
    )
    assert second.overview == OVERVIEW_DEFAULT
    assert second.ai_opportunities.seo == ["Write alt texts."]


async def test_findings_the_facts_contradict_are_dropped(fake: FakeOpenAI) -> None:
    fake.push(
        Outcome.json_answer(
            {
                "overview": "The site has no online booking. Its headline is clear.",
                "salesFunnel": {
                    "stages": [
                        {
                            "name": "Action",
                            "description": "Visitors cannot book online.",
                            "improvements": [
                                "Add online booking with Calendly.",
                                "Shorten the form to three fields.",
                            ],
                        }
                    ]
                },
                "aiOpportunities": {
                    "customerSupport": ["Implement an AI chatbot.", "Reply to forms with AI."],
                    "seo": ["Write a meta description, the page lacks one."],
                    "personalization": ["Install Google Analytics first."],
                },
            }
        )
    )

    report = await ai_report(settings_for(fake), perfect(), "lead", DOMAIN)

    assert report.overview == "Its headline is clear."
    assert report.sales_funnel.stages[0].improvements == ["Shorten the form to three fields."]
    assert report.ai_opportunities == AiOpportunitiesOut(
        customer_support=["Reply to forms with AI."], seo=[], personalization=[]
    )


async def test_invalid_json_is_an_ai_error(fake: FakeOpenAI) -> None:
    fake.push(Outcome.text('{"overview": "cut'))

    with pytest.raises(AIError) as caught:
        await ai_report(settings_for(fake), perfect(), "general", DOMAIN)

    assert caught.value.kind == "bad_answer"


async def test_an_answer_with_nothing_usable_is_an_ai_error(fake: FakeOpenAI) -> None:
    fake.push(Outcome.json_answer({"answer": "ok", "salesFunnel": "none"}))

    with pytest.raises(AIError) as caught:
        await ai_report(settings_for(fake), perfect(), "general", DOMAIN)

    assert (caught.value.kind, caught.value.message) == ("bad_answer", MSG_NOTHING_USABLE)


async def test_a_cut_off_answer_is_an_ai_error(fake: FakeOpenAI) -> None:
    fake.push(Outcome.truncated('{"overview": "The page'))

    with pytest.raises(AIError) as caught:
        await ai_report(settings_for(fake), perfect(), "general", DOMAIN)

    assert caught.value.kind == "bad_answer"


async def test_a_wrong_key_is_an_ai_error(fake: FakeOpenAI) -> None:
    with pytest.raises(AIError) as caught:
        await ai_report(settings_for(fake, ai_api_key="sk-wrong"), perfect(), "general", DOMAIN)

    assert (caught.value.kind, caught.value.status) == ("auth", 401)
    assert "sk-wrong" not in caught.value.message


@pytest.mark.parametrize(
    ("outcome", "kind"),
    [(Outcome.quota(), "quota"), (Outcome.rate_limited(), "rate_limited")],
)
async def test_429_is_an_ai_error(fake: FakeOpenAI, outcome: Outcome, kind: str) -> None:
    fake.push(outcome)

    with pytest.raises(AIError) as caught:
        await ai_report(settings_for(fake), perfect(), "general", DOMAIN)

    assert (caught.value.kind, caught.value.status) == (kind, 429)
    assert len(fake.requests) == 1


async def test_a_slow_answer_past_the_timeout_is_an_ai_error(fake: FakeOpenAI) -> None:
    fake.push(Outcome.slow(3.0))

    with pytest.raises(AIError) as caught:
        await ai_report(settings_for(fake, ai_timeout=0.5), perfect(), "general", DOMAIN)

    assert caught.value.kind == "timeout"
    assert caught.value.retryable


async def test_without_a_key_nothing_is_asked(fake: FakeOpenAI) -> None:
    with pytest.raises(AIError) as caught:
        await ai_report(settings_for(fake, ai_api_key=""), perfect(), "general", DOMAIN)

    assert caught.value.kind == "not_configured"
    assert fake.requests == []


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("general", ["customerSupport", "sales funnel", "personalisation"]),
        ("lead", ["enquiries and sales", "sales funnel"]),
        (
            "technical",
            ["Technical Architecture Overview", "Performance Analysis", "Security Analysis"],
        ),
        (
            "agency",
            [
                "Growth Strategy Overview",
                "Revenue Opportunities",
                "Growth Roadmap",
                "Premium Services",
                "Growth Services",
                "Client Services",
            ],
        ),
    ],
)
def test_each_variant_asks_for_its_own_sections(variant: AnalysisVariant, words: list[str]) -> None:
    message = system_message(variant)

    assert "expert web strategist and AI consultant" in message
    assert "only the facts" in message and "JSON" in message
    for word in words:
        assert word in message


# parse_report


def test_parse_reads_camel_and_snake_case() -> None:
    camel = parse_report(
        {
            "overview": "O",
            "salesFunnel": {"stages": [{"name": "N", "description": "D", "improvements": ["I"]}]},
            "customerJourney": {
                "touchpoints": [{"stage": "S", "description": "D", "opportunities": ["P"]}]
            },
            "aiOpportunities": {"customerSupport": ["C"], "seo": ["E"], "personalization": ["P"]},
        }
    )
    snake = parse_report(json.loads(camel.model_dump_json()))

    assert snake == camel
    assert camel.ai_opportunities.customer_support == ["C"]


def test_parse_drops_wrong_types() -> None:
    report = parse_report(
        {
            "overview": 42,
            "salesFunnel": {
                "stages": [
                    "a string",
                    {"description": "no name"},
                    {"name": "Kept", "description": ["x"], "improvements": ["ok", 3, None, ""]},
                ]
            },
            "customerJourney": {"touchpoints": {"stage": "not a list"}},
            "aiOpportunities": ["not", "an", "object"],
        }
    )

    assert report == AnalysisReportOut(
        overview=OVERVIEW_DEFAULT,
        sales_funnel=SalesFunnelOut(
            stages=[FunnelStageOut(name="Kept", description="", improvements=["ok"])]
        ),
        customer_journey=CustomerJourneyOut(touchpoints=[]),
        ai_opportunities=AiOpportunitiesOut(customer_support=[], seo=[], personalization=[]),
    )


@pytest.mark.parametrize("data", [None, [], "text", 3, {}, {"overview": "   "}])
def test_parse_of_nothing_is_the_defaults(data: object) -> None:
    assert parse_report(data) == AnalysisReportOut(
        overview=OVERVIEW_DEFAULT,
        sales_funnel=SalesFunnelOut(stages=[]),
        customer_journey=CustomerJourneyOut(touchpoints=[]),
        ai_opportunities=AiOpportunitiesOut(customer_support=[], seo=[], personalization=[]),
    )


def test_parse_trims_cleans_and_caps() -> None:
    long = "word " * 1000
    report = parse_report(
        {
            "overview": long * 2,
            "salesFunnel": {
                "stages": [
                    {"name": f"Stage\x00 {n}\n", "description": long, "improvements": [long] * 30}
                    for n in range(30)
                ]
            },
            "aiOpportunities": {"seo": ["  spaced \t out  "] * 30},
        }
    )

    assert len(report.overview) == OVERVIEW_MAX
    assert len(report.sales_funnel.stages) == PARTS_MAX
    stage = report.sales_funnel.stages[0]
    assert stage.name == "Stage 0"
    assert len(stage.description) == ITEM_MAX
    assert len(stage.improvements) == ITEMS_MAX
    assert all(len(item) == ITEM_MAX for item in stage.improvements)
    assert report.ai_opportunities.seo == ["spaced out"] * ITEMS_MAX


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "overview",
                    "salesFunnel",
                    "sales_funnel",
                    "stages",
                    "name",
                    "description",
                    "improvements",
                    "customerJourney",
                    "touchpoints",
                    "stage",
                    "opportunities",
                    "aiOpportunities",
                    "customerSupport",
                    "seo",
                    "personalization",
                    "other",
                ]
            )
            | st.text(max_size=5),
            children,
            max_size=6,
        )
    ),
    max_leaves=40,
)


@given(json_values)
def test_parse_never_raises_and_stays_bounded(data: object) -> None:
    report = parse_report(data)

    assert 0 < len(report.overview) <= OVERVIEW_MAX
    assert len(report.sales_funnel.stages) <= PARTS_MAX
    assert len(report.customer_journey.touchpoints) <= PARTS_MAX
    for stage in report.sales_funnel.stages:
        assert stage.name and len(stage.improvements) <= ITEMS_MAX
        assert all(0 < len(item) <= ITEM_MAX for item in stage.improvements)
    ai_lists = report.ai_opportunities
    for items in (ai_lists.customer_support, ai_lists.seo, ai_lists.personalization):
        assert len(items) <= ITEMS_MAX and all(0 < len(i) <= ITEM_MAX for i in items)
    # What parse_report returns can be stored as JSON (no NUL, no lone surrogate).
    dumped = report.model_dump_json()
    assert "\\u0000" not in dumped
    dumped.encode("utf-8")


@given(facts_strategy())
def test_the_prompt_always_carries_the_facts(facts: PageFactsOut) -> None:
    message = user_message(facts, DOMAIN)

    assert facts_in([{"role": "user", "content": message}]) == json.loads(facts.model_dump_json())


# The scores are ours: the model writes prose only (issue 29)


def test_the_prompt_gives_the_scores_as_facts_not_to_contradict() -> None:
    system = system_message("general")
    user = user_message(bare(), DOMAIN, "technical")

    assert "never state a score" in system and "never contradict the scores given" in system
    assert f"fixed; do not contradict them): {fact_scores_text(bare(), 'technical')}." in user


def test_parse_leaves_out_every_score_the_model_gives() -> None:
    report = parse_report(
        {
            "scores": {"strategy": 70, "funnel": 73, "aiReadiness": 30},
            "overview": "The page explains the clinic well. Its AI readiness score is 30/100. "
            "Booking is easy.",
            "salesFunnel": {
                "stages": [
                    {
                        "name": "Decision",
                        "description": "Rated 7 out of 10 for clarity.",
                        "improvements": ["Strategy: 70 out of 100.", "Show prices."],
                        "score": 12,
                    }
                ]
            },
            "aiOpportunities": {"seo": ["SEO score 45%.", "Write a page per treatment."]},
        }
    )

    assert report.overview == "The page explains the clinic well. Booking is easy."
    [stage] = report.sales_funnel.stages
    assert stage.description == "" and stage.improvements == ["Show prices."]
    assert report.ai_opportunities.seo == ["Write a page per treatment."]


@pytest.mark.parametrize(
    "text",
    [
        "Open 24/7 for emergencies.",
        "Book a check-up in 2 minutes.",
        "Three of 12 images have no alt text.",
        "Add 3 fields to the form.",
    ],
)
def test_ordinary_numbers_are_no_score(text: str) -> None:
    assert not states_score(text)


model_scores = st.fixed_dictionaries(
    {
        "strategy": st.integers(-1000, 1000),
        "funnel": st.integers(-1000, 1000),
        "aiReadiness": st.integers(-1000, 1000),
        "security": st.integers(-1000, 1000),
        "speed": st.integers(-1000, 1000),
    }
)


@settings(max_examples=25, deadline=None)
@given(
    facts=facts_strategy(),
    variant=st.sampled_from(["general", "lead", "technical", "agency"]),
    answered=model_scores,
    speed=st.none() | st.builds(speed_result, st.integers(0, 100), st.integers(0, 30_000)),
)
def test_the_scores_are_the_same_with_the_ai_and_with_the_rules(
    fake: FakeOpenAI,
    facts: PageFactsOut,
    variant: AnalysisVariant,
    answered: dict[str, int],
    speed: SpeedResultOut | None,
) -> None:
    """For any facts, whatever scores the model answers (as keys, and in its sentences), the
    analysis's scores with the AI path (over HTTP, the fake OpenAI server) are the rules'."""

    def answer(_messages: Messages, _model: str) -> dict[str, Any]:
        stated = [f"{name} score: {value}/100." for name, value in answered.items()]
        return {
            "scores": answered,
            "overview": "The page says what it offers. " + " ".join(stated),
            "salesFunnel": {
                "stages": [{"name": "Decision", "description": stated[0], "improvements": stated}]
            },
            "aiOpportunities": {"seo": [*stated, "Write a page per treatment."]},
            **answered,
        }

    fake.reset()
    fake.handler = answer
    ai_settings = settings_for(fake)
    with_ai = asyncio.run(analyses.write_report(ai_settings, facts, variant, DOMAIN))
    with_rules = asyncio.run(analyses.write_report(Settings(), facts, variant, DOMAIN))

    assert with_ai.generated_by == "ai" and with_rules.generated_by == "rules"
    assert fake.requests, "the AI path asked the model"
    ai_scores = derive_scores(with_ai.facts, speed, variant)
    assert ai_scores == derive_scores(with_rules.facts, speed, variant)
    assert ai_scores == derive_scores(facts, speed, variant)
    # Nothing the model wrote states a score of its own.
    written = [with_ai.report.overview]
    for stage in with_ai.report.sales_funnel.stages:
        written += [stage.name, stage.description, *stage.improvements]
    written += with_ai.report.ai_opportunities.seo
    assert not any(states_score(text) for text in written), written
