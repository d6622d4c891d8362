"""The contradiction rule both directions share: a finding that claims something is missing,
or tells the visitor to add it, while the facts show it is there (booking, chat, analytics,
HTTPS, meta description, title, viewport, structured data, Open Graph, calls to action, phone,
e-mail, forms, H1, language, alt texts) is dropped from an AI report by `ground_report`, and
the rules never write one."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from agency.modules.analysis.schemas import (
    AiOpportunitiesOut,
    AnalysisReportOut,
    CustomerJourneyOut,
    FunnelStageOut,
    PageFactsOut,
    SalesFunnelOut,
    TouchpointOut,
)
from agency.modules.analysis.service.rules_common import OVERVIEW_DEFAULT


@dataclass(frozen=True)
class _Topic:
    name: str
    present: Callable[[PageFactsOut], bool]
    words: str  # a regular expression for what a finding would call it


_TOPICS: tuple[_Topic, ...] = (
    _Topic(
        "booking",
        lambda f: bool(f.booking_widgets),
        r"(?:online[ -])?(?:booking|bookings|booking (?:tool|widget|system)|appointments?|"
        r"scheduling|scheduler|calendar|reservations?|self-service booking)",
    ),
    _Topic("chat", lambda f: bool(f.chat_widgets), r"(?:live[ -]?chat|chat ?bots?|chat)"),
    _Topic(
        "analytics",
        lambda f: bool(f.analytics),
        r"(?:web[ -])?(?:analytics|tracking|tag manager|tracking pixel|pixel|visitor statistics)",
    ),
    _Topic("meta description", lambda f: f.meta_description is not None, r"meta[ -]descriptions?"),
    _Topic("title", lambda f: f.title is not None, r"(?:page title|title tag|<title>|title)"),
    _Topic(
        "https",
        lambda f: f.https,
        r"(?:https|ssl(?: certificate)?|tls|secure connection|encrypted connection|encryption)",
    ),
    _Topic(
        "viewport",
        lambda f: f.viewport,
        r"(?:viewport(?: meta)?(?: tag)?|mobile viewport)",
    ),
    _Topic(
        "structured data",
        lambda f: bool(f.structured_data),
        r"(?:structured data|schema(?:\.org)? markup|json-ld|rich snippets?)",
    ),
    _Topic("open graph", lambda f: f.open_graph, r"(?:open ?graph(?: tags?)?|og tags?)"),
    _Topic(
        "call to action",
        lambda f: bool(f.calls_to_action),
        r"(?:calls?[ -]to[ -]action|cta|ctas|call-to-action buttons?)",
    ),
    _Topic("phone", lambda f: f.phone, r"(?:phone(?: number)?|telephone(?: number)?)"),
    _Topic("email", lambda f: f.email, r"(?:e-?mail address|contact e-?mail|e-?mail link)"),
    _Topic("form", lambda f: f.forms > 0, r"(?:contact form|enquiry form|inquiry form|forms?)"),
    _Topic("h1", lambda f: bool(f.h1), r"(?:h1(?: heading| tag)?|main heading|main headline)"),
    _Topic(
        "language",
        lambda f: f.language is not None,
        r"(?:lang attribute|language attribute|language declaration)",
    ),
    _Topic(
        "alt text",
        lambda f: f.images_without_alt == 0,
        r"(?:alt[ -]?texts?|alt attributes?|alt tags?|alternative texts?)",
    ),
)

_NEGATION = (
    r"(?:no|not|missing|lacks?|lacking|without|absent|has no|have no|there is no|there are no|"
    r"doesn't have|does not have|don't have|do not have|zero)(?![-'])"
)
_ADD = (
    r"(?:add|adding|install|installing|set up|setting up|implement|implementing|integrate|"
    r"integrating|introduce|introducing|enable|enabling|create|creating|offer|offering|provide|"
    r"providing|get|consider|include|including|deploy|deploying|launch|launching)"
)
# Between the verb and the topic: at most three words, none that starts another phrase
# ("add reminders to your booking" is about the booking the page has).
_FILLER = (
    r"(?:\s+(?!(?:to|your|existing|into|in|on|for|of|with|from|and|through|about|by|at|"
    r"after|before|than|but|while|when|because|the existing)\b)[\w'-]+){0,3}?"
)
# After the topic: the phrase ends there ("add online booking so ..."), or the next word names
# the thing itself; "booking reminders" or "chat transcripts" are about something else.
_TOPIC_END = (
    r"(?=\s*(?:$|[.,;:!?)(\u2014\u2013-])|\s+(?:to|so|for|with|that|which|where|on|in|and|or|"
    r"such|like|via|using|from|as|at|by|can|could|would|will|should|lets?|allows?|enables?|"
    r"helps?|is|are|was|were|yet|here|there|now|today|first|too|also|again|soon|anywhere|"
    r"visible|available|properly|immediately|options?|"
    r"features?|functionality|capabilit(?:y|ies)|solutions?|integrations?|platforms?|"
    r"software|services?|tools?|widgets?|systems?|apps?)\b)"
)
_ABSENT_AFTER = (
    r"(?:(?:is|are)\s+(?:missing|absent|not (?:found|set|present|installed|configured|used)|"
    r"lacking|empty)|(?:lacks?|is missing|are missing|has none|have none|has no|have no|"
    r"doesn't have|does not have|don't have|do not have|needs?)\s+(?:one|it|them|any)|"
    r"(?:has|have) none)"
)


def _patterns(words: str) -> re.Pattern[str]:
    before = rf"\b{_NEGATION}{_FILLER}\s+{words}{_TOPIC_END}"
    add = rf"\b{_ADD}\b{_FILLER}\s+{words}{_TOPIC_END}"
    after = rf"\b{words}\b[^.!?;]{{0,25}}?\b{_ABSENT_AFTER}\b"
    return re.compile(f"{before}|{add}|{after}", re.IGNORECASE)


# Quoted page text, addresses and domain names are the page's words, not claims.
_QUOTED = re.compile(r"\u201c[^\u201d]*\u201d|\b\w+://\S+|\b[\w-]+(?:\.[\w-]+)+\b")


@cache
def _compiled() -> tuple[tuple[_Topic, re.Pattern[str]], ...]:
    # Compiled on first use, not at import: the patterns take a tenth of a second or more to
    # compile, paid by every `agency serve` start otherwise.
    return tuple((topic, _patterns(topic.words)) for topic in _TOPICS)


def contradicts(text: str, facts: PageFactsOut) -> list[str]:
    """The topics a finding gets wrong: it says something is missing, or to add it, while the
    facts show it on the page."""
    text = _QUOTED.sub(" ", text)
    return [
        topic.name
        for topic, pattern in _compiled()
        if topic.present(facts) and pattern.search(text)
    ]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _keep_sentences(text: str, facts: PageFactsOut) -> str:
    return " ".join(s for s in _SENTENCE_END.split(text) if s and not contradicts(s, facts))


def _keep(items: list[str], facts: PageFactsOut) -> list[str]:
    return [item for item in items if not contradicts(item, facts)]


def ground_report(report: AnalysisReportOut, facts: PageFactsOut) -> AnalysisReportOut:
    """The report without the findings the facts contradict (for a report the AI wrote):
    list items are dropped whole, the overview and descriptions lose the sentences."""
    ai = report.ai_opportunities
    return AnalysisReportOut(
        overview=_keep_sentences(report.overview, facts) or OVERVIEW_DEFAULT,
        sales_funnel=SalesFunnelOut(
            stages=[
                FunnelStageOut(
                    name=stage.name,
                    description=_keep_sentences(stage.description, facts),
                    improvements=_keep(stage.improvements, facts),
                )
                for stage in report.sales_funnel.stages
            ]
        ),
        customer_journey=CustomerJourneyOut(
            touchpoints=[
                TouchpointOut(
                    stage=point.stage,
                    description=_keep_sentences(point.description, facts),
                    opportunities=_keep(point.opportunities, facts),
                )
                for point in report.customer_journey.touchpoints
            ]
        ),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=_keep(ai.customer_support, facts),
            seo=_keep(ai.seo, facts),
            personalization=_keep(ai.personalization, facts),
        ),
    )
