"""The gaps the facts show, each one sentence: a gap is named only when the facts show it, and
always then."""

from __future__ import annotations

from agency.modules.analysis.schemas import PageFactsOut
from agency.modules.analysis.service.rules_common import (
    FIELDS_MANY,
    META_LONG,
    SCRIPT_KB_HEAVY,
    SCRIPTS_MANY,
    TITLE_LONG,
    count,
    quote,
)
from agency.modules.analysis.service.rules_wording import say


def gaps_search(f: PageFactsOut) -> list[str]:
    gaps = []
    if f.title is None:
        gaps.append(say("gaps.no_title"))
    elif len(f.title) > TITLE_LONG:
        gaps.append(say("gaps.long_title", length=len(f.title), limit=TITLE_LONG))
    if f.meta_description is None:
        gaps.append(say("gaps.no_meta"))
    elif len(f.meta_description) > META_LONG:
        gaps.append(say("gaps.long_meta", length=len(f.meta_description), limit=META_LONG))
    if not f.structured_data:
        gaps.append(say("gaps.no_structured_data"))
    if not f.open_graph:
        gaps.append(say("gaps.no_open_graph"))
    if f.language is None:
        gaps.append(say("gaps.no_language"))
    return gaps


def gap_h1(f: PageFactsOut) -> list[str]:
    if not f.h1:
        return [say("gaps.no_h1")]
    if len(f.h1) > 1:
        return [say("gaps.many_h1", count=len(f.h1))]
    return []


def gap_headings(f: PageFactsOut) -> list[str]:
    if f.headings >= 3:
        return []
    return [say("gaps.few_headings", headings=count(f.headings, "heading"))]


def gap_alt(f: PageFactsOut) -> list[str]:
    if not f.images_without_alt:
        return []
    key = "gaps.missing_alt_one" if f.images_without_alt == 1 else "gaps.missing_alt_many"
    return [say(key, missing=f.images_without_alt, images=count(f.images, "image"))]


def gap_viewport(f: PageFactsOut) -> list[str]:
    return [] if f.viewport else [say("gaps.no_viewport")]


def gap_fields(f: PageFactsOut) -> list[str]:
    if f.forms == 0 or f.form_fields <= FIELDS_MANY:
        return []
    return [say("gaps.many_fields", forms=count(f.forms, "form"), fields=f.form_fields)]


def gaps_content(f: PageFactsOut) -> list[str]:
    return gap_h1(f) + gap_headings(f) + gap_alt(f) + gap_viewport(f)


def gaps_action(f: PageFactsOut) -> list[str]:
    if not f.calls_to_action:
        return [say("gaps.no_cta")]
    if len(f.calls_to_action) == 1:
        return [say("gaps.one_cta", cta=quote(f.calls_to_action[0]))]
    if len(f.calls_to_action) > 6:
        return [say("gaps.many_cta", count=len(f.calls_to_action))]
    return []


def gaps_contact(f: PageFactsOut) -> list[str]:
    gaps = []
    if not f.booking_widgets:
        gaps.append(say("gaps.no_booking"))
    if f.forms == 0:
        gaps.append(say("gaps.no_form"))
    gaps += gap_fields(f)
    if not f.phone:
        gaps.append(say("gaps.no_phone"))
    if not f.email:
        gaps.append(say("gaps.no_email"))
    return gaps


def gaps_measure(f: PageFactsOut) -> list[str]:
    gaps = []
    if not f.analytics:
        gaps.append(say("gaps.no_analytics"))
    if not f.chat_widgets:
        gaps.append(say("gaps.no_chat"))
    return gaps


def script_gaps(f: PageFactsOut) -> list[str]:
    gaps = []
    if f.scripts >= SCRIPTS_MANY:
        gaps.append(say("gaps.many_scripts", count=f.scripts))
    if f.script_kb >= SCRIPT_KB_HEAVY:
        gaps.append(say("gaps.heavy_inline", kb=f.script_kb))
    return gaps
