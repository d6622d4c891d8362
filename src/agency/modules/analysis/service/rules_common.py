"""What every variant shares: the thresholds, the wording helpers, and the descriptions of
what the page has (the overview's sentences)."""

from __future__ import annotations

from agency.modules.analysis.schemas import ITEM_MAX, FunnelStageOut, PageFactsOut, TouchpointOut
from agency.modules.analysis.service.rules_wording import say

OVERVIEW_DEFAULT = "Website analysis overview not available"
OVERVIEW_MAX = 3000
CRITICAL_MAX = 8
TITLE_LONG = 60  # characters a search result shows of a title
META_LONG = 160  # and of a meta description
FIELDS_MANY = 8
SCRIPTS_MANY = 15
SCRIPT_KB_HEAVY = 50
IMAGES_MANY = 20
BLOCKING_CRITICAL_MS = 300  # spec §9: blocking time critical at 300 ms (technical page)
LOAD_STANDARD_S = 2.0  # spec §9: industry standard under 2 s
SPEED_FIX_BELOW = 90  # spec §2: 'Fix Now' below 90


# Wording helpers


def quote(text: str, limit: int = 80) -> str:
    """Text from the page, in curly quotes (which `contradicts` reads past: a title such as
    'No booking fees' is the page's words, not a finding)."""
    text = text.replace("\u201c", '"').replace("\u201d", '"').strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return f"\u201c{text}\u201d"


def names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def third_party(f: PageFactsOut) -> list[str]:
    return [*f.analytics, *f.chat_widgets, *f.booking_widgets]


def trim(items: list[str]) -> list[str]:
    return [item if len(item) <= ITEM_MAX else item[: ITEM_MAX - 1] + "…" for item in items]


def stage(name: str, description: str, improvements: list[str]) -> FunnelStageOut:
    return FunnelStageOut(name=name, description=description, improvements=trim(improvements))


def point(stage: str, description: str, opportunities: list[str]) -> TouchpointOut:
    return TouchpointOut(stage=stage, description=description, opportunities=trim(opportunities))


# Descriptions of what the page has


def https_text(f: PageFactsOut) -> str:
    return say("describe.over_https") if f.https else say("describe.without_https")


def search_text(f: PageFactsOut) -> str:
    title = say("describe.title", title=quote(f.title)) if f.title else say("describe.no_title")
    if f.meta_description:
        meta = quote(f.meta_description, 160)
        stop = "" if meta[-2] in ".!?" else "."
        return say("describe.meta", title=title, meta=meta, stop=stop)
    return say("describe.no_meta", title=title)


def cta_text(f: PageFactsOut) -> str:
    if not f.calls_to_action:
        return say("describe.no_cta")
    shown = ", ".join(quote(c, 40) for c in f.calls_to_action[:4])
    return say("describe.ctas", calls=count(len(f.calls_to_action), "call"), shown=shown)


def contact_text(f: PageFactsOut) -> str:
    ways = []
    if f.phone:
        ways.append(say("describe.contact_phone"))
    if f.email:
        ways.append(say("describe.contact_email"))
    if f.forms:
        forms, fields = count(f.forms, "form"), count(f.form_fields, "field")
        ways.append(say("describe.contact_forms", forms=forms, fields=fields))
    if not ways:
        return say("describe.no_contact")
    return say("describe.contact", ways=names(ways))


def booking_text(f: PageFactsOut) -> str:
    return say("describe.booking", tools=names(f.booking_widgets))


def chat_text(f: PageFactsOut) -> str:
    return say("describe.chat", tools=names(f.chat_widgets))


def analytics_text(f: PageFactsOut) -> str:
    if f.analytics:
        return say("describe.analytics", tools=names(f.analytics))
    return say("describe.no_analytics")


def structured_data_text(f: PageFactsOut) -> str:
    return say("describe.structured_data", types=names(f.structured_data[:5]))


def services_text(f: PageFactsOut) -> str:
    parts = [booking_text(f) if f.booking_widgets else say("describe.no_booking")]
    if f.chat_widgets:
        parts.append(chat_text(f))
    parts.append(analytics_text(f))
    return " ".join(parts)


def h1_text(f: PageFactsOut) -> str:
    headings = count(f.headings, "heading")
    if not f.h1:
        return say("describe.no_h1", headings=headings)
    return say("describe.h1", h1=quote(f.h1[0]), headings=headings)


def overview(f: PageFactsOut, domain: str, lead: str) -> str:
    fetched = say(
        "describe.fetched",
        lead=lead,
        domain=domain,
        url=f.final_url,
        status=f.http_status,
        https=https_text(f),
    )
    text = " ".join(
        [
            fetched,
            search_text(f),
            h1_text(f),
            cta_text(f),
            contact_text(f),
            services_text(f),
            say("describe.grounded"),
        ]
    )
    return text[:OVERVIEW_MAX]
