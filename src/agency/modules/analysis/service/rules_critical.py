"""The 'Critical ... Found' box: the worst findings first, each from a fact or a figure of the
speed result. The lead page counts the visitors a slow page loses and says what a missing call
to action costs; the technical page adds the load time and blocking time and weighs heavy
scripts more."""

from __future__ import annotations

from agency.modules.analysis.schemas import AnalysisVariant, PageFactsOut
from agency.modules.analysis.service.analysis_scores import (
    load_time_seconds,
    visitors_lost_percent,
)
from agency.modules.analysis.service.rules_common import (
    BLOCKING_CRITICAL_MS,
    CRITICAL_MAX,
    LOAD_STANDARD_S,
    SCRIPT_KB_HEAVY,
    SCRIPTS_MANY,
    SPEED_FIX_BELOW,
    count,
)
from agency.modules.analysis.service.rules_wording import say
from agency.modules.speedtest.api import SpeedResultOut


def _speed_issues(speed: SpeedResultOut, variant: AnalysisVariant) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    seconds = load_time_seconds(speed.speed_index_ms)
    if speed.score < SPEED_FIX_BELOW:
        if variant == "lead":
            lost = visitors_lost_percent(speed.score)
            text = say("critical.speed_lead", score=speed.score, seconds=seconds, lost=lost)
        else:
            text = say("critical.speed", score=speed.score, seconds=seconds)
        found.append((90 if speed.score < 50 else 60, text))
    if seconds >= LOAD_STANDARD_S and variant in {"technical", "lead"}:
        found.append((55, say("critical.load_time", seconds=seconds, standard=LOAD_STANDARD_S)))
    if variant == "technical" and speed.total_blocking_time_ms >= BLOCKING_CRITICAL_MS:
        blocking = say(
            "critical.blocking_time",
            ms=speed.total_blocking_time_ms,
            critical=BLOCKING_CRITICAL_MS,
        )
        found.append((85, blocking))
    return found


def _fact_issues(f: PageFactsOut, variant: AnalysisVariant) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    if f.http_status >= 400:
        found.append((100, say("critical.http_error", status=f.http_status)))
    if not f.https:
        found.append((95, say("critical.no_https")))
    if not f.viewport:
        found.append((80, say("critical.no_viewport")))
    if not f.calls_to_action:
        found.append((75, say("critical.no_cta_lead" if variant == "lead" else "critical.no_cta")))
    if not (f.phone or f.email or f.forms):
        found.append((70, say("critical.no_contact")))
    if f.title is None:
        found.append((65, say("critical.no_title")))
    if f.meta_description is None:
        found.append((50, say("critical.no_meta")))
    if not f.h1:
        found.append((45, say("critical.no_h1")))
    if f.scripts >= SCRIPTS_MANY or f.script_kb >= SCRIPT_KB_HEAVY:
        heavy = say("critical.heavy_scripts", scripts=count(f.scripts, "script"), kb=f.script_kb)
        found.append((40 if variant != "technical" else 70, heavy))
    if f.images_without_alt:
        key = "critical.alt_one" if f.images_without_alt == 1 else "critical.alt_many"
        images = count(f.images, "image")
        found.append((35, say(key, missing=f.images_without_alt, images=images)))
    return found


def critical_issues(
    facts: PageFactsOut | None, speed: SpeedResultOut | None, variant: AnalysisVariant
) -> list[str]:
    """The 'Critical ... Found' box: the worst findings first, each from a fact or a figure of
    the speed result, at most `CRITICAL_MAX`."""
    found: list[tuple[int, str]] = []
    if speed is not None:
        found += _speed_issues(speed, variant)
    if facts is not None:
        found += _fact_issues(facts, variant)
    found.sort(key=lambda item: -item[0])
    return [text for _, text in found[:CRITICAL_MAX]]
