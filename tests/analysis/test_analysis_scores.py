"""Spec §9's derived scores: the spec's statements as examples, and hypothesis
against the formulas written out with exact fractions (ranges, monotonicity, halves up)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.modules.analysis.schemas import (
    AiOpportunitiesOut,
    AnalysisReportOut,
    CustomerJourneyOut,
    FunnelStageOut,
    SalesFunnelOut,
    TouchpointOut,
)
from agency.modules.analysis.service.analysis_scores import (
    derive_scores,
    load_time_seconds,
    recurring_revenue,
    revenue_increase_percent,
    score_label,
    visitors_lost_percent,
)
from agency.modules.speedtest.api import SpeedResultOut


def report(
    overview: str = "x",
    touchpoints: int = 0,
    improvements: tuple[int, ...] = (),
    opportunities: tuple[int, int, int] = (0, 0, 0),
) -> AnalysisReportOut:
    support, seo, personal = opportunities
    return AnalysisReportOut(
        overview=overview,
        sales_funnel=SalesFunnelOut(
            stages=[
                FunnelStageOut(name=f"S{i}", description="", improvements=["i"] * n)
                for i, n in enumerate(improvements)
            ]
        ),
        customer_journey=CustomerJourneyOut(
            touchpoints=[
                TouchpointOut(stage=f"T{i}", description="", opportunities=[])
                for i in range(touchpoints)
            ]
        ),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=["a"] * support, seo=["b"] * seo, personalization=["c"] * personal
        ),
    )


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


# The spec's statements, as examples


def test_strategy_starts_at_50_for_an_overview_over_100_characters_else_30() -> None:
    assert derive_scores(report("o" * 100, touchpoints=2), None).strategy == 30 + 20
    assert derive_scores(report("o" * 101, touchpoints=2), None).strategy == 50 + 20
    assert derive_scores(report("o" * 101, touchpoints=7), None).strategy == 100


def test_funnel_is_15_per_stage_plus_10_times_the_average_improvements() -> None:
    assert derive_scores(report(improvements=(1, 2, 3)), None).funnel == 45 + 20
    assert derive_scores(report(improvements=(1, 2)), None).funnel == 30 + 15  # 1.5 * 10
    assert derive_scores(report(improvements=(0, 0, 1)), None).funnel == 45 + 3  # 3.33
    assert derive_scores(report(improvements=(1, 1, 0)), None).funnel == 45 + 7  # 6.67
    assert derive_scores(report(improvements=(9,) * 6), None).funnel == 100
    assert derive_scores(report(), None).funnel == 0


def test_ai_readiness_is_10_per_opportunity_and_security_100_less_10_per_one() -> None:
    scores = derive_scores(report(opportunities=(1, 2, 1)), None)
    assert (scores.ai_readiness, scores.security) == (40, 60)
    scores = derive_scores(report(opportunities=(5, 4, 3)), None)
    assert (scores.ai_readiness, scores.security) == (100, 0)
    scores = derive_scores(report(), None)
    assert (scores.ai_readiness, scores.security) == (0, 100)


def test_speed_figures() -> None:
    scores = derive_scores(report(), speed(62, speed_index_ms=3140))

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
    scores = derive_scores(report(), None)

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


# The formulas under hypothesis

counts = st.integers(min_value=0, max_value=15)


@given(
    st.text(max_size=300),
    counts,
    st.lists(counts, max_size=12),
    st.tuples(counts, counts, counts),
)
def test_scores_are_the_formulas(
    overview: str, touchpoints: int, improvements: list[int], opportunities: tuple[int, int, int]
) -> None:
    scores = derive_scores(report(overview, touchpoints, tuple(improvements), opportunities), None)

    start = 50 if len(overview) > 100 else 30
    assert scores.strategy == min(100, start + 10 * touchpoints)
    if improvements:
        average = Fraction(sum(improvements), len(improvements))
        assert scores.funnel == min(100, half_up(15 * len(improvements) + 10 * average))
    else:
        assert scores.funnel == 0
    total = sum(opportunities)
    assert scores.ai_readiness == min(100, 10 * total)
    assert scores.security == max(0, 100 - 10 * total)
    for value in (scores.strategy, scores.funnel, scores.ai_readiness, scores.security):
        assert 0 <= value <= 100


@given(counts, counts, st.tuples(counts, counts, counts))
def test_more_touchpoints_and_opportunities_never_lower_strategy_or_readiness(
    touchpoints: int, extra: int, opportunities: tuple[int, int, int]
) -> None:
    fewer = derive_scores(report("o" * 150, touchpoints, (), opportunities), None)
    more_opportunities = (opportunities[0] + extra, opportunities[1], opportunities[2])
    more = derive_scores(report("o" * 150, touchpoints + extra, (), more_opportunities), None)

    assert more.strategy >= fewer.strategy
    assert more.ai_readiness >= fewer.ai_readiness
    assert more.security <= fewer.security


@given(st.integers(min_value=0, max_value=100), st.integers(min_value=0, max_value=10**7))
def test_speed_figures_are_the_formulas(score: int, speed_index_ms: int) -> None:
    scores = derive_scores(report(), speed(score, speed_index_ms))

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
