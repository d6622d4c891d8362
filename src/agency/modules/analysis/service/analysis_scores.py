"""Spec §9's derived scores of the analysis, in one place.

- strategy = min(100, (overview longer than 100 characters ? 50 : 30) + 10 per touchpoint)
  (technical page: Architecture, agency page: Client Value);
- funnel = min(100, 15 per stage + 10 times the average improvements per stage; no stage: 0)
  (technical: Performance, agency: Scalability);
- ai_readiness = min(100, 10 per opportunity across the three lists) (agency: Profitability);
- security (technical page) = 100 - 10 per opportunity across the three lists (there the
  Security Analysis findings), never below 0;
- visitors lost % = round((100 - speed score) * 0.53) (lead page);
- load time = speed index / 1000 s, one decimal;
- revenue increase % = round((100 - speed score) * 0.8) (agency page);
- recurring-revenue opportunity 'High' when the speed score is below 70, else 'Medium'.

Rounding is the pages' (JavaScript's Math.round and toFixed on these figures): halves go up,
computed in integers so 0.53 and 0.8 carry no binary-fraction error. Figures that need the speed
result are null without it.
"""

from __future__ import annotations

from typing import Literal

from agency.modules.analysis.schemas import (
    AnalysisReportOut,
    AnalysisScoresOut,
    AnalysisVariant,
)
from agency.modules.speedtest.api import SpeedResultOut

OVERVIEW_LONG = 100  # characters: a longer overview starts the strategy score at 50, else 30
RECURRING_HIGH_BELOW = 70
LABELS = ((80, "Excellent"), (60, "Good"), (40, "Fair"))
LABEL_LOW = "Needs Work"
LABEL_LOW_TECHNICAL = "Critical"


def _half_up(numerator: int, denominator: int) -> int:
    """round(numerator / denominator) with halves up, for non-negative figures."""
    return (2 * numerator + denominator) // (2 * denominator)


def strategy_score(report: AnalysisReportOut) -> int:
    start = 50 if len(report.overview) > OVERVIEW_LONG else 30
    return min(100, start + 10 * len(report.customer_journey.touchpoints))


def funnel_score(report: AnalysisReportOut) -> int:
    stages = report.sales_funnel.stages
    if not stages:
        return 0
    improvements = sum(len(stage.improvements) for stage in stages)
    # 15 per stage + 10 * improvements / stages, rounded half up
    return min(100, 15 * len(stages) + _half_up(10 * improvements, len(stages)))


def _opportunities(report: AnalysisReportOut) -> int:
    ai = report.ai_opportunities
    return len(ai.customer_support) + len(ai.seo) + len(ai.personalization)


def ai_readiness_score(report: AnalysisReportOut) -> int:
    return min(100, 10 * _opportunities(report))


def security_score(report: AnalysisReportOut) -> int:
    return max(0, min(100, 100 - 10 * _opportunities(report)))


def visitors_lost_percent(speed_score: int) -> int:
    return _half_up((100 - speed_score) * 53, 100)


def load_time_seconds(speed_index_ms: int) -> float:
    return _half_up(max(0, speed_index_ms), 100) / 10


def revenue_increase_percent(speed_score: int) -> int:
    return _half_up((100 - speed_score) * 8, 10)


def recurring_revenue(speed_score: int) -> Literal["High", "Medium"]:
    return "High" if speed_score < RECURRING_HIGH_BELOW else "Medium"


def derive_scores(report: AnalysisReportOut, speed: SpeedResultOut | None) -> AnalysisScoresOut:
    return AnalysisScoresOut(
        speed=speed.score if speed else None,
        strategy=strategy_score(report),
        funnel=funnel_score(report),
        ai_readiness=ai_readiness_score(report),
        security=security_score(report),
        visitors_lost_percent=visitors_lost_percent(speed.score) if speed else None,
        load_time_seconds=load_time_seconds(speed.speed_index_ms) if speed else None,
        revenue_increase_percent=revenue_increase_percent(speed.score) if speed else None,
        recurring_revenue=recurring_revenue(speed.score) if speed else None,
    )


def score_label(score: int, variant: AnalysisVariant) -> str:
    """80 and above Excellent, 60-79 Good, 40-59 Fair, below 40 'Needs Work' ('Critical' on
    the technical page)."""
    for floor, label in LABELS:
        if score >= floor:
            return label
    return LABEL_LOW_TECHNICAL if variant == "technical" else LABEL_LOW
