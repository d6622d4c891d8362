"""The analysis's scores: one deterministic function of the facts found on the page and the
speed result (issue 29). Examples of each score's weights, the page from the issue (no HTTPS,
no chat) that can never be 'Excellent' AI-ready, and hypothesis: bounded, deterministic,
monotonic in what the page has, the report is no input, and spec §9's speed figures (halves up,
against the formulas with exact fractions)."""

from __future__ import annotations

import inspect
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.modules.analysis.schemas import AnalysisVariant, PageFactsOut
from agency.modules.analysis.service import analysis_scores
from agency.modules.analysis.service.analysis_scores import (
    EXCELLENT,
    derive_scores,
    fact_scores_text,
    load_time_seconds,
    recurring_revenue,
    revenue_increase_percent,
    score_label,
    visitors_lost_percent,
)
from agency.modules.speedtest.api import SpeedResultOut
from tests.analysis.test_analysis_rules import bare, facts_strategy, perfect

VARIANTS: list[AnalysisVariant] = ["general", "lead", "technical", "agency"]


def speed(score: int, speed_index_ms: int = 3100, tbt: int = 200) -> SpeedResultOut:
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


def half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def the_issues_page() -> PageFactsOut:
    """The page the issue reports: a good-looking page, but no HTTPS and no chat (rated 100
    'Excellent' AI readiness by the old count of the rules report's items)."""
    return perfect().model_copy(
        update={"https": False, "final_url": "http://client.example/", "chat_widgets": []}
    )


# Examples


def test_a_complete_page_scores_100_and_a_bare_one_next_to_nothing() -> None:
    top = derive_scores(perfect(), None, "general")
    assert (top.strategy, top.funnel, top.ai_readiness, top.security) == (100, 100, 100, 100)
    assert derive_scores(perfect(), None, "technical").funnel == 100  # Performance

    low = derive_scores(bare(), None, "general")
    assert (low.strategy, low.funnel, low.ai_readiness) == (0, 0, 0)
    assert low.security == 100 - 50 - 15 - 10  # no HTTPS, many scripts, heavy scripts
    # Performance: many scripts, heavy scripts, no viewport (few images: alt texts not counted)
    assert derive_scores(bare(), None, "technical").funnel == 100 - 25 - 25 - 20


def test_each_fact_adds_its_weight() -> None:
    base = bare().model_copy(update={"scripts": 0, "script_kb": 0, "https": True})
    assert derive_scores(base, None, "general").strategy == 10  # HTTPS
    with_title = base.model_copy(update={"title": "Smile"})
    assert derive_scores(with_title, None, "general").strategy == 10 + 15
    one_h1 = base.model_copy(update={"h1": ["Smile"]})
    two_h1 = base.model_copy(update={"h1": ["Smile", "Dental"]})
    assert derive_scores(one_h1, None, "general").strategy == 10 + 15
    assert derive_scores(two_h1, None, "general").strategy == 10 + 10
    booking = base.model_copy(update={"booking_widgets": ["Calendly"]})
    assert derive_scores(booking, None, "general").funnel == 15
    chat = base.model_copy(update={"chat_widgets": ["Tidio"]})
    assert derive_scores(chat, None, "general").ai_readiness == 20 + 20  # HTTPS, chat
    plain = base.model_copy(update={"images_without_alt": 0})
    assert derive_scores(plain, None, "general").ai_readiness == 20 + 5  # HTTPS, alt texts


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_https_and_no_chat_is_never_excellent_ai_readiness(variant: AnalysisVariant) -> None:
    scores = derive_scores(the_issues_page(), speed(99), variant)

    assert scores.ai_readiness == 60
    assert score_label(scores.ai_readiness, variant) == "Good"
    with_https = the_issues_page().model_copy(update={"https": True})
    assert derive_scores(with_https, None, variant).ai_readiness == 80  # Excellent again
    # A form sent without HTTPS is a finding of its own.
    assert derive_scores(the_issues_page(), None, variant).security == 100 - 50 - 20


def test_the_speed_figures() -> None:
    scores = derive_scores(perfect(), speed(62, speed_index_ms=3140), "lead")

    assert scores.speed == 62
    assert scores.visitors_lost_percent == 20  # (100 - 62) * 0.53 = 20.14
    assert scores.load_time_seconds == 3.1
    assert scores.revenue_increase_percent == 30  # 38 * 0.8 = 30.4
    assert scores.recurring_revenue == "High"


def test_halves_go_up_like_the_pages_math_round() -> None:
    assert visitors_lost_percent(50) == 27  # 26.5
    assert revenue_increase_percent(95) == 4  # 4.0
    assert revenue_increase_percent(99) == 1  # 0.8
    assert load_time_seconds(3150) == 3.2
    assert load_time_seconds(3149) == 3.1
    assert load_time_seconds(0) == 0.0


def test_recurring_revenue_is_high_below_70() -> None:
    assert recurring_revenue(69) == "High"
    assert recurring_revenue(70) == "Medium"
    assert recurring_revenue(0) == "High"
    assert recurring_revenue(100) == "Medium"


def test_without_a_speed_result_its_figures_are_null() -> None:
    scores = derive_scores(perfect(), None, "agency")

    assert scores.speed is None
    assert scores.visitors_lost_percent is None
    assert scores.load_time_seconds is None
    assert scores.revenue_increase_percent is None
    assert scores.recurring_revenue is None


@pytest.mark.parametrize(
    ("score", "general", "technical"),
    [
        (100, "Excellent", "Excellent"),
        (80, "Excellent", "Excellent"),
        (79, "Good", "Good"),
        (60, "Good", "Good"),
        (59, "Fair", "Fair"),
        (40, "Fair", "Fair"),
        (39, "Needs Work", "Critical"),
        (0, "Needs Work", "Critical"),
    ],
)
def test_labels_80_60_40_and_critical_on_the_technical_page(
    score: int, general: str, technical: str
) -> None:
    assert score_label(score, "general") == general
    assert score_label(score, "lead") == general
    assert score_label(score, "agency") == general
    assert score_label(score, "technical") == technical


def test_the_prompt_names_the_scores_as_the_page_does() -> None:
    assert fact_scores_text(the_issues_page(), "general") == (
        "Strategy 90/100 (Excellent), Funnel 90/100 (Excellent), AI Readiness 60/100 (Good)"
    )
    assert fact_scores_text(bare(), "technical").startswith("Architecture 0/100 (Critical)")


def test_the_report_is_not_an_input() -> None:
    """Whatever writes the prose, it cannot move a number: the one function takes no report."""
    assert list(inspect.signature(derive_scores).parameters) == ["facts", "speed", "variant"]
    assert "AnalysisReportOut" not in inspect.getsource(analysis_scores)


# Under hypothesis

variants = st.sampled_from(VARIANTS)
speeds = st.none() | st.builds(speed, st.integers(0, 100), st.integers(0, 30_000))


@given(facts_strategy(), speeds, variants)
def test_scores_are_bounded_and_deterministic(
    facts: PageFactsOut, result: SpeedResultOut | None, variant: AnalysisVariant
) -> None:
    scores = derive_scores(facts, result, variant)

    for value in (scores.strategy, scores.funnel, scores.ai_readiness, scores.security):
        assert 0 <= value <= 100
    again = derive_scores(PageFactsOut.model_validate(facts.model_dump()), result, variant)
    assert again == scores


@given(facts_strategy(), variants)
def test_without_https_and_chat_ai_readiness_is_never_excellent(
    facts: PageFactsOut, variant: AnalysisVariant
) -> None:
    page = facts.model_copy(update={"https": False, "chat_widgets": []})
    readiness = derive_scores(page, None, variant).ai_readiness

    assert readiness < EXCELLENT
    assert score_label(readiness, variant) != "Excellent"


@given(facts_strategy(), variants)
def test_having_more_never_lowers_a_score(facts: PageFactsOut, variant: AnalysisVariant) -> None:
    more = facts.model_copy(
        update={
            "https": True,
            "chat_widgets": facts.chat_widgets or ["Tidio"],
            "booking_widgets": facts.booking_widgets or ["Calendly"],
            "analytics": facts.analytics or ["Matomo"],
            "structured_data": facts.structured_data or ["Dentist"],
            "meta_description": facts.meta_description or "Gentle dentistry.",
            "phone": True,
            "email": True,
            "forms": max(1, facts.forms),
            "open_graph": True,
            "viewport": True,
        }
    )
    before, after = derive_scores(facts, None, variant), derive_scores(more, None, variant)

    assert after.strategy >= before.strategy
    assert after.funnel >= before.funnel
    assert after.ai_readiness >= before.ai_readiness
    assert after.security >= before.security


@given(st.integers(min_value=0, max_value=100), st.integers(min_value=0, max_value=10**7))
def test_speed_figures_are_the_formulas(score: int, speed_index_ms: int) -> None:
    scores = derive_scores(perfect(), speed(score, speed_index_ms), "general")

    assert scores.speed == score
    assert scores.visitors_lost_percent == half_up((100 - score) * Fraction(53, 100))
    assert scores.revenue_increase_percent == half_up((100 - score) * Fraction(8, 10))
    assert scores.load_time_seconds == half_up(Fraction(speed_index_ms, 100)) / 10
    assert scores.recurring_revenue == ("High" if score < 70 else "Medium")
    assert 0 <= (scores.visitors_lost_percent or 0) <= 53
    assert 0 <= (scores.revenue_increase_percent or 0) <= 80


@given(st.integers(min_value=0, max_value=99))
def test_a_faster_page_loses_fewer_visitors_and_gains_less_revenue(score: int) -> None:
    assert visitors_lost_percent(score + 1) <= visitors_lost_percent(score)
    assert revenue_increase_percent(score + 1) <= revenue_increase_percent(score)


@given(st.integers(min_value=0, max_value=100), st.integers(min_value=0, max_value=100))
def test_labels_are_monotonic(a: int, b: int) -> None:
    order = ["Needs Work", "Fair", "Good", "Excellent"]
    low, high = sorted((a, b))
    assert order.index(score_label(low, "general")) <= order.index(score_label(high, "general"))
