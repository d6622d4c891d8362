"""The analysis's scores, in one place: a deterministic function of the audit's facts and the
speed test's result (`derive_scores`). Whoever writes the report's prose (the AI model or the
rules) never changes a number: the report is not an input here (issue 29; this replaces spec
§9's counting of the report's items, which let the same page score 100 by rules and 30 by the
model).

Each score adds points for what the facts show (weights below, each table sums to 100):
- strategy (technical page: Architecture, agency page: Client Value): does the page say what it
  offers, get found and look trustworthy? title, meta description, one main heading, calls to
  action, structured data, Open Graph, viewport, language, HTTPS;
- funnel (agency page: Scalability): can a visitor go from interest to contact? calls to
  action, phone, e-mail, form, online booking, chat, analytics; on the technical page the same
  field is Performance: 100 less the page's weight (many or heavy scripts, no viewport, many
  images without a text alternative, an HTTP error);
- ai_readiness (agency page: Profitability): can AI support, search and personalisation build
  on the page? HTTPS and a chat count most (without both the page stays below 'Excellent'),
  then structured data, meta description, analytics, booking, forms, language, image texts;
- security (technical page): 100 less the findings (no HTTPS, a form sent without HTTPS, many
  or heavy third-party scripts, an HTTP error), never below 0;
- from the speed result (spec §9): visitors lost % = round((100 - speed score) * 0.53) (lead
  page); load time = speed index / 1000 s, one decimal; revenue increase % = round((100 -
  speed score) * 0.8) (agency page); recurring-revenue opportunity 'High' when the speed score
  is below 70, else 'Medium'. They are null while the speed test has no result.

Rounding is the pages' (JavaScript's Math.round and toFixed on these figures): halves go up,
computed in integers so 0.53 and 0.8 carry no binary-fraction error.
"""

from __future__ import annotations

from typing import Final, Literal

from agency.modules.analysis.schemas import (
    AnalysisScoresOut,
    AnalysisVariant,
    PageFactsOut,
)
from agency.modules.analysis.service.rules_common import (
    IMAGES_MANY,
    SCRIPT_KB_HEAVY,
    SCRIPTS_MANY,
)
from agency.modules.speedtest.api import SpeedResultOut

RECURRING_HIGH_BELOW = 70
LABELS = ((80, "Excellent"), (60, "Good"), (40, "Fair"))
LABEL_LOW = "Needs Work"
LABEL_LOW_TECHNICAL = "Critical"
EXCELLENT: Final = 80

# How each page names the three scores after Speed (the spec's analysis-shared).
SCORE_NAMES: Final[dict[str, tuple[str, str, str]]] = {
    "general": ("Strategy", "Funnel", "AI Readiness"),
    "lead": ("Strategy", "Funnel", "AI Readiness"),
    "technical": ("Architecture", "Performance", "Security"),
    "agency": ("Client Value", "Scalability", "Profitability"),
}


def _half_up(numerator: int, denominator: int) -> int:
    """round(numerator / denominator) with halves up, for non-negative figures."""
    return (2 * numerator + denominator) // (2 * denominator)


def _points(*parts: tuple[bool, int]) -> int:
    return min(100, sum(weight for present, weight in parts if present))


def strategy_score(f: PageFactsOut) -> int:
    return _points(
        (f.title is not None, 15),
        (f.meta_description is not None, 10),
        (len(f.h1) == 1, 15),
        (len(f.h1) > 1, 10),  # headings, but no single main one
        (len(f.calls_to_action) >= 1, 15),
        (len(f.calls_to_action) >= 2, 5),
        (bool(f.structured_data), 10),
        (f.open_graph, 5),
        (f.viewport, 10),
        (f.language is not None, 5),
        (f.https, 10),  # browsers mark a page without it 'Not secure'
    )


def funnel_score(f: PageFactsOut) -> int:
    return _points(
        (len(f.calls_to_action) >= 1, 20),
        (len(f.calls_to_action) >= 2, 5),
        (f.phone, 10),
        (f.email, 10),
        (f.forms > 0, 15),
        (bool(f.booking_widgets), 15),
        (bool(f.chat_widgets), 10),
        (bool(f.analytics), 15),
    )


def performance_score(f: PageFactsOut) -> int:
    """The technical page's Performance: 100 less what weighs the page down."""
    lost = (
        (25 if f.scripts >= SCRIPTS_MANY else 0)
        + (25 if f.script_kb >= SCRIPT_KB_HEAVY else 0)
        + (20 if not f.viewport else 0)
        + (10 if f.images_without_alt > 0 and f.images >= IMAGES_MANY else 0)
        + (20 if f.http_status >= 400 else 0)
    )
    return max(0, 100 - lost)


def ai_readiness_score(f: PageFactsOut) -> int:
    return _points(
        (f.https, 20),
        (bool(f.chat_widgets), 20),
        (bool(f.structured_data), 15),
        (f.meta_description is not None, 10),
        (bool(f.analytics), 10),
        (bool(f.booking_widgets), 10),
        (f.forms > 0, 5),
        (f.language is not None, 5),
        (f.images_without_alt == 0, 5),
    )


def security_score(f: PageFactsOut) -> int:
    lost = (
        (50 if not f.https else 0)
        + (20 if not f.https and f.forms > 0 else 0)
        + (15 if f.scripts >= SCRIPTS_MANY else 0)
        + (10 if f.script_kb >= SCRIPT_KB_HEAVY else 0)
        + (10 if f.http_status >= 400 else 0)
    )
    return max(0, 100 - lost)


def visitors_lost_percent(speed_score: int) -> int:
    return _half_up((100 - speed_score) * 53, 100)


def load_time_seconds(speed_index_ms: int) -> float:
    return _half_up(max(0, speed_index_ms), 100) / 10


def revenue_increase_percent(speed_score: int) -> int:
    return _half_up((100 - speed_score) * 8, 10)


def recurring_revenue(speed_score: int) -> Literal["High", "Medium"]:
    return "High" if speed_score < RECURRING_HIGH_BELOW else "Medium"


def derive_scores(
    facts: PageFactsOut, speed: SpeedResultOut | None, variant: AnalysisVariant
) -> AnalysisScoresOut:
    """Every score the pages, the e-mail and the CLI show, from the facts and the speed result
    alone (the variant only picks what the funnel field means: Performance on the technical
    page)."""
    funnel = performance_score(facts) if variant == "technical" else funnel_score(facts)
    return AnalysisScoresOut(
        speed=speed.score if speed else None,
        strategy=strategy_score(facts),
        funnel=funnel,
        ai_readiness=ai_readiness_score(facts),
        security=security_score(facts),
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


def fact_scores_text(facts: PageFactsOut, variant: AnalysisVariant) -> str:
    """The three fact scores as the page names them ('Strategy 55/100 (Fair), ...'), for the
    AI's prompt: the model is told them as facts and may not state others."""
    scores = derive_scores(facts, None, variant)
    third = scores.security if variant == "technical" else scores.ai_readiness
    values = (scores.strategy, scores.funnel, third)
    return ", ".join(
        f"{name} {value}/100 ({score_label(value, variant)})"
        for name, value in zip(SCORE_NAMES[variant], values, strict=True)
    )
