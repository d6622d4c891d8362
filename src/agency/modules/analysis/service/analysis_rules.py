"""The analysis built from the page's facts alone (the report with no AI key, or when the
provider fails), the critical issues, and the contradiction filter the AI's report goes through.

Every sentence here comes from a fact of the audit (`PageFactsOut`) or the speed result: a gap
is only named when the facts show it ("Your page has no meta description"), a strength only
when they show it ("Visitors can book through Calendly"). `contradicts` is the rule both
directions share: a finding that claims something is missing, or tells the visitor to add it,
while the facts show it is there (booking, chat, analytics, HTTPS, meta description, title,
viewport, structured data, Open Graph, calls to action, phone, e-mail, forms, H1, language, alt
texts) is dropped from an AI report by `ground_report`, and the rules never write one.

What each part of the §3 shape holds per variant (the pages label them):
- general and lead: overview = strategy overview; sales_funnel = the funnel's stages
  (awareness, interest, decision, action, measurement) and their gaps; customer_journey = the
  touchpoints the page offers (search result and first visit always, then social share, phone,
  e-mail, form, booking, chat when present); ai_opportunities = AI customer support, AI SEO,
  AI personalisation.
- technical: overview = architecture overview; customer_journey = the stack's layers;
  sales_funnel = performance areas; ai_opportunities = security findings (transport / third-party
  scripts / forms and data), so the security score falls with each finding.
- agency: overview = growth strategy; sales_funnel = revenue opportunities (one per group of
  gaps); customer_journey = growth roadmap; ai_opportunities = premium / growth / client
  services.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

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
from agency.modules.analysis.service.analysis_scores import (
    load_time_seconds,
    visitors_lost_percent,
)
from agency.modules.speedtest.api import SpeedResultOut

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


# The contradiction rule


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


# Wording helpers


def _quote(text: str, limit: int = 80) -> str:
    """Text from the page, in curly quotes (which `contradicts` reads past: a title such as
    'No booking fees' is the page's words, not a finding)."""
    text = text.replace("\u201c", '"').replace("\u201d", '"').strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return f"\u201c{text}\u201d"


def _names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _third_party(f: PageFactsOut) -> list[str]:
    return [*f.analytics, *f.chat_widgets, *f.booking_widgets]


def _trim(items: list[str]) -> list[str]:
    return [item if len(item) <= ITEM_MAX else item[: ITEM_MAX - 1] + "…" for item in items]


def _stage(name: str, description: str, improvements: list[str]) -> FunnelStageOut:
    return FunnelStageOut(name=name, description=description, improvements=_trim(improvements))


def _point(stage: str, description: str, opportunities: list[str]) -> TouchpointOut:
    return TouchpointOut(stage=stage, description=description, opportunities=_trim(opportunities))


# The gaps the facts show, each one sentence


def _gaps_search(f: PageFactsOut) -> list[str]:
    gaps = []
    if f.title is None:
        gaps.append(
            "Your page has no title: write one that names your service and your place "
            "(search results show it as the headline)."
        )
    elif len(f.title) > TITLE_LONG:
        gaps.append(
            f"Your title is {len(f.title)} characters long: search results cut it after "
            f"about {TITLE_LONG}."
        )
    if f.meta_description is None:
        gaps.append(
            "Your page has no meta description: write one of about 150 characters that says "
            "what you offer and to whom."
        )
    elif len(f.meta_description) > META_LONG:
        gaps.append(
            f"Your meta description is {len(f.meta_description)} characters long: search "
            f"results cut it after about {META_LONG}."
        )
    if not f.structured_data:
        gaps.append(
            "Your page has no structured data (JSON-LD): mark up your business, for example as "
            "LocalBusiness or Organization, so search engines can show rich results."
        )
    if not f.open_graph:
        gaps.append(
            "Your page has no Open Graph tags: links to it shared on LinkedIn, Facebook or "
            "WhatsApp show no proper preview."
        )
    if f.language is None:
        gaps.append(
            "Your page does not declare its language (<html lang>): search engines and screen "
            "readers have to guess it."
        )
    return gaps


def _gap_h1(f: PageFactsOut) -> list[str]:
    if not f.h1:
        return ["Your page has no H1 heading: say in one headline what you do and for whom."]
    if len(f.h1) > 1:
        return [f"Your page has {len(f.h1)} H1 headings: keep one main headline."]
    return []


def _gap_headings(f: PageFactsOut) -> list[str]:
    if f.headings >= 3:
        return []
    return [
        f"Only {_count(f.headings, 'heading')} structure the page: break the content into "
        "sections with headings."
    ]


def _gap_alt(f: PageFactsOut) -> list[str]:
    if not f.images_without_alt:
        return []
    verb = "has" if f.images_without_alt == 1 else "have"
    return [
        f"{f.images_without_alt} of {_count(f.images, 'image')} {verb} no alt text: describe "
        "them for screen readers and image search."
    ]


def _gap_viewport(f: PageFactsOut) -> list[str]:
    if f.viewport:
        return []
    return ["Your page has no viewport meta tag: phones show it zoomed out like a desktop page."]


def _gap_fields(f: PageFactsOut) -> list[str]:
    if f.forms == 0 or f.form_fields <= FIELDS_MANY:
        return []
    return [
        f"Your {_count(f.forms, 'form')} ask for {f.form_fields} fields in all: every extra "
        "field loses enquiries, keep to what you need."
    ]


def _gaps_content(f: PageFactsOut) -> list[str]:
    return _gap_h1(f) + _gap_headings(f) + _gap_alt(f) + _gap_viewport(f)


def _gaps_action(f: PageFactsOut) -> list[str]:
    gaps = []
    if not f.calls_to_action:
        gaps.append(
            "No call to action found: put one clear button, such as “Book a call” or “Get a "
            "quote”, in the first screen and after each section."
        )
    elif len(f.calls_to_action) == 1:
        gaps.append(
            f"Only one call to action ({_quote(f.calls_to_action[0])}) was found: repeat it "
            "after each section of the page."
        )
    elif len(f.calls_to_action) > 6:
        gaps.append(
            f"{len(f.calls_to_action)} different calls to action compete for attention: lead "
            "with one main action."
        )
    return gaps


def _gaps_contact(f: PageFactsOut) -> list[str]:
    gaps = []
    if not f.booking_widgets:
        gaps.append(
            "No online booking tool found: let visitors pick a time themselves, for example "
            "with Calendly or Cal.com."
        )
    if f.forms == 0:
        gaps.append(
            "No form found on the page: a short enquiry form (name, e-mail, message) "
            "catches visitors who will not call."
        )
    gaps += _gap_fields(f)
    if not f.phone:
        gaps.append(
            "No phone number found: show one, linked with tel: so phones call it in one tap."
        )
    if not f.email:
        gaps.append("No e-mail address found on the page.")
    return gaps


def _gaps_measure(f: PageFactsOut) -> list[str]:
    gaps = []
    if not f.analytics:
        gaps.append(
            "No analytics or tag manager found: without one you cannot see where visitors "
            "leave the page."
        )
    if not f.chat_widgets:
        gaps.append("No chat widget found: visitors with a quick question leave instead of asking.")
    return gaps


# Descriptions of what the page has


def _https_text(f: PageFactsOut) -> str:
    return "over HTTPS" if f.https else "without HTTPS"


def _search_text(f: PageFactsOut) -> str:
    title = f"Its title is {_quote(f.title)}" if f.title else "It has no title"
    if f.meta_description:
        meta = _quote(f.meta_description, 160)
        return f"{title}; its meta description reads {meta}" + ("" if meta[-2] in ".!?" else ".")
    return f"{title}, and it has no meta description."


def _cta_text(f: PageFactsOut) -> str:
    if not f.calls_to_action:
        return "We found no call to action."
    shown = ", ".join(_quote(c, 40) for c in f.calls_to_action[:4])
    return f"We found {_count(len(f.calls_to_action), 'call')} to action: {shown}."


def _contact_text(f: PageFactsOut) -> str:
    ways = []
    if f.phone:
        ways.append("a phone number")
    if f.email:
        ways.append("an e-mail address")
    if f.forms:
        ways.append(f"{_count(f.forms, 'form')} with {_count(f.form_fields, 'field')}")
    if not ways:
        return "We found no phone number, e-mail address or form."
    return f"Visitors can get in touch through {_names(ways)}."


def _services_text(f: PageFactsOut) -> str:
    parts = []
    parts.append(
        f"Visitors can book through {_names(f.booking_widgets)}."
        if f.booking_widgets
        else "We found no online booking tool."
    )
    if f.chat_widgets:
        parts.append(f"Visitors can chat through {_names(f.chat_widgets)}.")
    parts.append(
        f"Visits are measured with {_names(f.analytics)}."
        if f.analytics
        else "We found no analytics or tag manager."
    )
    return " ".join(parts)


def _h1_text(f: PageFactsOut) -> str:
    if not f.h1:
        return f"The page has no H1 heading and {_count(f.headings, 'heading')} in all."
    return f"Its main heading reads {_quote(f.h1[0])} ({_count(f.headings, 'heading')} in all)."


def _overview(f: PageFactsOut, domain: str, lead: str) -> str:
    text = " ".join(
        [
            f"{lead} We fetched {domain} ({f.final_url}, HTTP {f.http_status}, {_https_text(f)}) "
            "and read its HTML.",
            _search_text(f),
            _h1_text(f),
            _cta_text(f),
            _contact_text(f),
            _services_text(f),
            "Every finding below comes from what is on this page.",
        ]
    )
    return text[:OVERVIEW_MAX]


# General and lead


def _general(f: PageFactsOut, domain: str, variant: AnalysisVariant) -> AnalysisReportOut:
    lead = (
        "Here is what your website tells a visitor who is ready to buy."
        if variant == "lead"
        else "Here is the strategy your website follows today."
    )
    stages = [
        _stage(
            "Awareness: search and social",
            _search_text(f)
            + (" Open Graph tags give shared links a preview." if f.open_graph else "")
            + (f" Structured data: {_names(f.structured_data[:5])}." if f.structured_data else ""),
            _gaps_search(f),
        ),
        _stage(
            "Interest: the first screen and the content",
            _h1_text(f)
            + f" The page shows {_count(f.images, 'image')}"
            + (", with a viewport set for phones." if f.viewport else "."),
            _gaps_content(f),
        ),
        _stage("Decision: calls to action", _cta_text(f), _gaps_action(f)),
        _stage(
            "Action: contact and booking",
            _contact_text(f)
            + (
                f" Visitors can book through {_names(f.booking_widgets)}."
                if f.booking_widgets
                else ""
            ),
            _gaps_contact(f),
        ),
        _stage(
            "Measurement and follow-up",
            (
                f"Visits are measured with {_names(f.analytics)}."
                if f.analytics
                else "We found no analytics or tag manager."
            )
            + (f" Visitors can chat through {_names(f.chat_widgets)}." if f.chat_widgets else ""),
            _gaps_measure(f)
            + (
                [
                    f"Track clicks on your calls to action and form sends as conversions in "
                    f"{_names(f.analytics)}."
                ]
                if f.analytics
                else []
            ),
        ),
    ]

    points = [
        _point(
            "Search result",
            _search_text(f),
            _gaps_search(f)[:2]
            or [
                f"Check that the title {_quote(f.title or '')} uses the words your customers "
                "search for."
            ],
        ),
        _point(
            "First visit",
            _h1_text(f) + " " + _cta_text(f),
            (
                [f"Show {_quote(f.calls_to_action[0], 40)} in the first screen on phones."]
                if f.calls_to_action
                else []
            )
            + _gaps_content(f)[:1]
            + _gaps_action(f)[:1],
        ),
    ]
    if f.open_graph:
        points.append(
            _point(
                "Shared link",
                "Open Graph tags give links to the page a title and preview when shared.",
                ["Check the preview on LinkedIn and WhatsApp: a 1200 by 630 image shows best."],
            )
        )
    if f.phone:
        points.append(
            _point(
                "Phone call",
                "The page shows a phone number.",
                ["Put the number in the first screen on phones, where one tap calls it."],
            )
        )
    if f.email:
        points.append(
            _point(
                "E-mail",
                "The page shows an e-mail address.",
                ["Answer e-mail enquiries within the hour: the first reply often wins the job."],
            )
        )
    if f.forms:
        points.append(
            _point(
                "Enquiry",
                f"The page has {_count(f.forms, 'form')} with {_count(f.form_fields, 'field')}.",
                [
                    "Confirm each enquiry at once by e-mail and say when you will answer.",
                    *_gap_fields(f),
                ],
            )
        )
    if f.booking_widgets:
        points.append(
            _point(
                "Booking",
                f"Visitors can book through {_names(f.booking_widgets)}.",
                [
                    f"Link every call to action to {f.booking_widgets[0]} so visitors reach "
                    "the calendar in one click."
                ],
            )
        )
    if f.chat_widgets:
        points.append(
            _point(
                "Chat",
                f"Visitors can chat through {_names(f.chat_widgets)}.",
                ["Greet first-time visitors with one question about what they need."],
            )
        )

    support = []
    if f.chat_widgets:
        support.append(
            f"Connect an AI assistant to your {f.chat_widgets[0]} conversations so common "
            "questions are answered at any hour."
        )
    else:
        support.append(
            "No chat widget found: an AI assistant on the page could answer visitors' "
            "questions at any hour."
        )
    if f.forms:
        support.append("Answer form enquiries within a minute with an AI-written first reply.")
    if f.phone:
        support.append("An AI phone assistant could take calls to your number after hours.")
    if f.booking_widgets:
        support.append(
            f"Let an AI assistant send reminders for appointments made through "
            f"{f.booking_widgets[0]} and answer questions about them."
        )
    else:
        support.append(
            "The page has no booking tool: an AI assistant could take booking requests and "
            "suggest times."
        )

    seo = []
    if f.meta_description is None:
        seo.append("AI can draft a meta description from your page's content; the page has none.")
    if f.structured_data:
        seo.append(
            f"Extend your structured data ({_names(f.structured_data[:3])}) with FAQ and service "
            "markup written from your content."
        )
    else:
        seo.append("AI can generate structured data (JSON-LD) for your business from the page.")
    if f.images_without_alt:
        seo.append(
            f"AI can write alt text for the {_count(f.images_without_alt, 'image')} without one."
        )
    if f.h1:
        seo.append(f"Plan articles around the topic of your headline {_quote(f.h1[0])}.")
    if f.title:
        seo.append(f"Test variants of your title {_quote(f.title)} against real search queries.")

    personal = []
    if f.analytics:
        personal.append(
            f"Use the visitor segments in {f.analytics[0]} to show returning visitors a "
            "different call to action."
        )
    else:
        personal.append(
            "Measure visits first: we found no analytics or tag manager, so there is nothing to "
            "personalise on yet."
        )
    if f.calls_to_action:
        personal.append(
            f"Adapt the wording of {_quote(f.calls_to_action[0], 40)} to the ad or page a "
            "visitor came from."
        )
    if f.forms:
        personal.append("Pre-fill your forms with what returning visitors told you before.")
    if f.language:
        personal.append(
            f"The page is in {_quote(f.language, 35)}: serve visitors in their own language."
        )

    return AnalysisReportOut(
        overview=_overview(f, domain, lead),
        sales_funnel=SalesFunnelOut(stages=stages),
        customer_journey=CustomerJourneyOut(touchpoints=points),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=_trim(support), seo=_trim(seo), personalization=_trim(personal)
        ),
    )


# Technical


def _technical(f: PageFactsOut, domain: str) -> AnalysisReportOut:
    third = _third_party(f)
    overview = (
        f"Technical view of {domain}: {f.final_url} answered HTTP {f.http_status} "
        f"{_https_text(f)}. The page runs {_count(f.scripts, 'script')} with {f.script_kb} KB "
        "of inline code; third-party services: "
        + (_names(third) if third else "none found")
        + f". Its markup has {_count(f.headings, 'heading')}; "
        + ("a viewport meta tag is set." if f.viewport else "it has no viewport meta tag.")
        + " "
        + (f"Language: {_quote(f.language, 35)}." if f.language else "It declares no language.")
        + " "
        + (
            f"Structured data: {_names(f.structured_data[:5])}."
            if f.structured_data
            else "It has no structured data."
        )
    )

    transport_gaps = []
    if not f.https:
        transport_gaps.append("Serve the page over HTTPS and redirect every http:// address to it.")
    if f.http_status >= 400:
        transport_gaps.append(
            f"The page answered HTTP {f.http_status}: visitors and search engines get an error."
        )
    if f.https and f.http_status < 400:
        transport_gaps.append(
            "Send Strict-Transport-Security so browsers never try plain HTTP again."
        )
    layers = [
        _point(
            "Transport",
            f"{f.final_url} answered HTTP {f.http_status} {_https_text(f)}.",
            transport_gaps,
        ),
        _point(
            "Markup",
            _search_text(f) + " " + _h1_text(f),
            [*_gaps_content(f), *_gaps_search(f)[:2]],
        ),
        _point(
            "Scripts",
            f"{_count(f.scripts, 'script')} with {f.script_kb} KB of inline code.",
            _script_gaps(f)
            or ["Load every script with defer or async so none holds up the first paint."],
        ),
    ]
    if third:
        layers.append(
            _point(
                "Third-party services",
                f"The page loads {_names(third)}.",
                [f"Load {_names(third)} after the first interaction, not with the page."],
            )
        )
    if f.structured_data or f.open_graph:
        layers.append(
            _point(
                "Metadata",
                (
                    f"Structured data: {_names(f.structured_data[:5])}."
                    if f.structured_data
                    else "Open Graph tags for shared links."
                ),
                ["Validate the markup with Google's Rich Results Test after each release."],
            )
        )

    areas = [
        _stage(
            "Scripts",
            f"{_count(f.scripts, 'script')} with {f.script_kb} KB of inline code.",
            _script_gaps(f),
        ),
        _stage(
            "Third-party tags",
            f"{_count(len(third), 'third-party service')}"
            + (f": {_names(third)}." if third else "."),
            (
                [
                    f"{len(third)} third-party services ({_names(third)}) each add requests and "
                    "main-thread work: load them after the first interaction or consolidate "
                    "them in one tag manager."
                ]
                if len(third) >= 3
                else []
            )
            + (
                [f"Load the {f.chat_widgets[0]} widget when the visitor first scrolls or clicks."]
                if f.chat_widgets
                else []
            ),
        ),
        _stage(
            "Images",
            f"{_count(f.images, 'image')} on the page.",
            (
                [
                    f"{f.images} images: lazy-load those below the first screen and serve them "
                    "as WebP or AVIF."
                ]
                if f.images >= IMAGES_MANY
                else []
            ),
        ),
        _stage(
            "Mobile rendering",
            "A viewport meta tag is set." if f.viewport else "No viewport meta tag is set.",
            []
            if f.viewport
            else ["Set a viewport meta tag (width=device-width, initial-scale=1)."],
        ),
    ]

    transport = []
    if not f.https:
        transport.append(
            "The page is served without HTTPS: what visitors send travels unencrypted and "
            "browsers mark the page 'Not secure'."
        )
    if f.http_status >= 400:
        transport.append(f"The page answered HTTP {f.http_status} to a plain request.")
    scripts_findings = []
    if third:
        scripts_findings.append(
            f"{_count(len(third), 'third-party script')} ({_names(third)}) run with full access "
            "to the page: keep the list short and use Subresource Integrity where the provider "
            "allows it."
        )
    if f.script_kb >= SCRIPT_KB_HEAVY:
        scripts_findings.append(
            f"{f.script_kb} KB of inline script stops a strict Content-Security-Policy: move it "
            "into files."
        )
    data = []
    if f.forms and not f.https:
        data.append(
            f"Your {_count(f.forms, 'form')} {'sends' if f.forms == 1 else 'send'} what "
            "visitors type unencrypted."
        )
    elif f.forms:
        data.append(
            f"Your {_count(f.forms, 'form')} {'takes' if f.forms == 1 else 'take'} visitors' "
            "data: check what is sent on the server and keep spam bots out."
        )
    if f.email:
        data.append(
            "Your e-mail address is published on the page, where harvesters collect it for spam."
        )
    return AnalysisReportOut(
        overview=overview[:OVERVIEW_MAX],
        sales_funnel=SalesFunnelOut(stages=areas),
        customer_journey=CustomerJourneyOut(touchpoints=layers),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=_trim(transport),
            seo=_trim(scripts_findings),
            personalization=_trim(data),
        ),
    )


def _script_gaps(f: PageFactsOut) -> list[str]:
    gaps = []
    if f.scripts >= SCRIPTS_MANY:
        gaps.append(
            f"{f.scripts} scripts load with the page: bundle them and defer what the first "
            "screen does not need."
        )
    if f.script_kb >= SCRIPT_KB_HEAVY:
        gaps.append(
            f"{f.script_kb} KB of inline script is sent with every page view and never cached: "
            "move it into files."
        )
    return gaps


# Agency


def _agency(f: PageFactsOut, domain: str) -> AnalysisReportOut:
    groups = [
        ("Search visibility package", _gaps_search(f) + _gap_h1(f) + _gap_alt(f)),
        ("Conversion rebuild", _gaps_action(f) + _gap_headings(f) + _gap_viewport(f)),
        ("Contact and booking automation", _gaps_contact(f)),
        ("Measurement and chat", _gaps_measure(f)),
        (
            "Security and speed care",
            ([] if f.https else ["The page is served without HTTPS."]) + _script_gaps(f),
        ),
    ]
    stages = [_stage(name, f"{_count(len(g), 'gap')} on {domain}.", g) for name, g in groups if g]
    gaps = sum(len(g) for _, g in groups)
    if not stages:
        stages = [
            _stage(
                "Care and growth retainer",
                f"{domain} has the basics in place: the work is keeping it that way.",
                [f"Monthly checks of speed, links and forms on {domain}."],
            )
        ]
    overview = _overview(
        f,
        domain,
        (
            f"Growth view of a client site: {_count(gaps, 'gap')} on {domain} that your agency "
            "can turn into paid work."
            if gaps
            else f"Growth view of a client site: {domain} has the basics in place, so the "
            "growth is in retainers and AI services."
        ),
    )

    roadmap = []
    foundations = [
        *([] if f.https else ["Serve the site over HTTPS."]),
        *([] if f.viewport else ["Set a viewport meta tag for phones."]),
        *_gaps_search(f)[:2],
    ]
    if foundations:
        roadmap.append(
            _point("Week 1: fix the foundations", "Quick fixes the facts call for.", foundations)
        )
    convert = _gaps_action(f) + _gaps_contact(f)[:2]
    if convert:
        roadmap.append(
            _point("Weeks 2-3: convert more visitors", "Turn visits into enquiries.", convert)
        )
    roadmap.append(
        _point(
            "Month 2: measure and automate",
            (
                f"Visits are measured with {_names(f.analytics)}."
                if f.analytics
                else "We found no analytics or tag manager."
            ),
            (
                [f"Monthly conversion report from the client's {f.analytics[0]} data."]
                if f.analytics
                else _gaps_measure(f)[:1]
            ),
        )
    )
    roadmap.append(
        _point(
            "Ongoing: retainer",
            "Recurring work that keeps the client.",
            [f"Monthly speed, uptime and form checks for {domain}."],
        )
    )

    premium = []
    if f.booking_widgets:
        premium.append(
            f"AI reminders and follow-ups for appointments made through {f.booking_widgets[0]}."
        )
    else:
        premium.append("AI booking assistant: the client's page has no online booking tool.")
    if f.chat_widgets:
        premium.append(f"AI answers inside the client's {f.chat_widgets[0]} conversations.")
    else:
        premium.append("AI chat assistant: the client's page has no chat widget.")
    if f.phone:
        premium.append("AI phone assistant for calls to the client's number after hours.")

    growth = []
    if f.title is None:
        growth.append("Search snippet rewrite: the page has no title.")
    if f.meta_description is None:
        growth.append("Meta description writing: the page has none.")
    if not f.structured_data:
        growth.append("Structured data set-up: the page has none.")
    if f.images_without_alt:
        growth.append(f"Alt texts for the {_count(f.images_without_alt, 'image')} without one.")
    if f.h1:
        growth.append(f"Monthly articles around the client's headline {_quote(f.h1[0])}.")
    if not f.calls_to_action:
        growth.append("Landing-page rebuild with one clear call to action; the page has none.")

    client = []
    if f.analytics:
        client.append(f"Monthly report from the client's {f.analytics[0]} data.")
    else:
        client.append("Analytics set-up and a monthly report: the client's page has no analytics.")
    client.append(f"Speed and uptime monitoring for {domain}.")
    if f.forms:
        client.append("Follow-up e-mails for the client's form enquiries.")

    return AnalysisReportOut(
        overview=overview,
        sales_funnel=SalesFunnelOut(stages=stages),
        customer_journey=CustomerJourneyOut(touchpoints=roadmap),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=_trim(premium), seo=_trim(growth), personalization=_trim(client)
        ),
    )


def rules_report(facts: PageFactsOut, variant: AnalysisVariant, domain: str) -> AnalysisReportOut:
    """The §3 report from the facts alone, for the variant's page."""
    if variant == "technical":
        report = _technical(facts, domain)
    elif variant == "agency":
        report = _agency(facts, domain)
    else:
        report = _general(facts, domain, variant)
    return report


# Critical issues


def critical_issues(
    facts: PageFactsOut | None, speed: SpeedResultOut | None, variant: AnalysisVariant
) -> list[str]:
    """The 'Critical ... Found' box: the worst findings first, each from a fact or a figure of
    the speed result, at most `CRITICAL_MAX`."""
    found: list[tuple[int, str]] = []
    if speed is not None:
        seconds = load_time_seconds(speed.speed_index_ms)
        if speed.score < SPEED_FIX_BELOW:
            if variant == "lead":
                text = (
                    f"Speed score {speed.score}/100: the page needs {seconds:.1f} s to show its "
                    f"content, and about {visitors_lost_percent(speed.score)}% of visitors "
                    "leave before it loads."
                )
            else:
                text = (
                    f"Speed score {speed.score}/100: the page needs {seconds:.1f} s to show its "
                    "content (speed index)."
                )
            found.append((90 if speed.score < 50 else 60, text))
        if seconds >= LOAD_STANDARD_S and variant in {"technical", "lead"}:
            found.append(
                (
                    55,
                    f"Load time {seconds:.1f} s: the industry standard is under "
                    f"{LOAD_STANDARD_S:.0f} s.",
                )
            )
        if variant == "technical" and speed.total_blocking_time_ms >= BLOCKING_CRITICAL_MS:
            found.append(
                (
                    85,
                    f"Total blocking time {speed.total_blocking_time_ms} ms: at or above the "
                    f"{BLOCKING_CRITICAL_MS} ms critical mark, the page ignores taps and clicks "
                    "while scripts run.",
                )
            )
    if facts is not None:
        f = facts
        if f.http_status >= 400:
            found.append((100, f"The page answered HTTP {f.http_status}."))
        if not f.https:
            found.append((95, "The page is served without HTTPS: browsers mark it 'Not secure'."))
        if not f.viewport:
            found.append(
                (80, "No viewport meta tag: phones show the page zoomed out like a desktop page.")
            )
        if not f.calls_to_action:
            found.append(
                (
                    75,
                    "No call to action found on the page: visitors ready to buy have nothing to "
                    "click."
                    if variant == "lead"
                    else "No call to action found on the page.",
                )
            )
        if not (f.phone or f.email or f.forms):
            found.append(
                (
                    70,
                    "No phone number, e-mail address or form found: visitors have no way to get "
                    "in touch.",
                )
            )
        if f.title is None:
            found.append((65, "The page has no title."))
        if f.meta_description is None:
            found.append((50, "The page has no meta description."))
        if not f.h1:
            found.append((45, "The page has no H1 heading."))
        if f.scripts >= SCRIPTS_MANY or f.script_kb >= SCRIPT_KB_HEAVY:
            found.append(
                (
                    40 if variant != "technical" else 70,
                    f"Heavy scripts: {_count(f.scripts, 'script')} with {f.script_kb} KB of "
                    "inline code.",
                )
            )
        if f.images_without_alt:
            found.append(
                (
                    35,
                    f"{f.images_without_alt} of {_count(f.images, 'image')} "
                    f"{'has' if f.images_without_alt == 1 else 'have'} no alt text.",
                )
            )
    found.sort(key=lambda item: -item[0])
    return [text for _, text in found[:CRITICAL_MAX]]
