"""The agency page: overview = growth strategy; sales_funnel = revenue opportunities (one per
group of gaps); customer_journey = growth roadmap; ai_opportunities = premium / growth / client
services."""

from __future__ import annotations

from agency.modules.analysis.schemas import (
    AiOpportunitiesOut,
    AnalysisReportOut,
    CustomerJourneyOut,
    FunnelStageOut,
    PageFactsOut,
    SalesFunnelOut,
    TouchpointOut,
)
from agency.modules.analysis.service.rules_common import (
    analytics_text,
    count,
    overview,
    point,
    quote,
    stage,
    trim,
)
from agency.modules.analysis.service.rules_gaps import (
    gap_alt,
    gap_h1,
    gap_headings,
    gap_viewport,
    gaps_action,
    gaps_contact,
    gaps_measure,
    gaps_search,
    script_gaps,
)
from agency.modules.analysis.service.rules_wording import say


def _groups(f: PageFactsOut) -> list[tuple[str, list[str]]]:
    security = ([] if f.https else [say("agency.no_https")]) + script_gaps(f)
    return [
        (say("agency.group_search"), gaps_search(f) + gap_h1(f) + gap_alt(f)),
        (say("agency.group_conversion"), gaps_action(f) + gap_headings(f) + gap_viewport(f)),
        (say("agency.group_contact"), gaps_contact(f)),
        (say("agency.group_measure"), gaps_measure(f)),
        (say("agency.group_security"), security),
    ]


def _opportunities(groups: list[tuple[str, list[str]]], domain: str) -> list[FunnelStageOut]:
    stages = [
        stage(name, say("agency.gaps_on", gaps=count(len(g), "gap"), domain=domain), g)
        for name, g in groups
        if g
    ]
    return stages or [
        stage(
            say("agency.retainer"),
            say("agency.retainer_description", domain=domain),
            [say("agency.retainer_tip", domain=domain)],
        )
    ]


def _roadmap(f: PageFactsOut, domain: str) -> list[TouchpointOut]:
    roadmap = []
    foundations = [
        *([] if f.https else [say("agency.serve_https")]),
        *([] if f.viewport else [say("agency.set_viewport")]),
        *gaps_search(f)[:2],
    ]
    if foundations:
        roadmap.append(point(say("agency.week_1"), say("agency.week_1_description"), foundations))
    convert = gaps_action(f) + gaps_contact(f)[:2]
    if convert:
        roadmap.append(point(say("agency.weeks_2_3"), say("agency.weeks_2_3_description"), convert))
    measure = (
        [say("agency.conversion_report", tool=f.analytics[0])]
        if f.analytics
        else gaps_measure(f)[:1]
    )
    roadmap.append(point(say("agency.month_2"), analytics_text(f), measure))
    roadmap.append(
        point(
            say("agency.ongoing"),
            say("agency.ongoing_description"),
            [say("agency.ongoing_checks", domain=domain)],
        )
    )
    return roadmap


def _premium(f: PageFactsOut) -> list[str]:
    premium = [
        say("agency.premium_booking", tool=f.booking_widgets[0])
        if f.booking_widgets
        else say("agency.premium_no_booking"),
        say("agency.premium_chat", tool=f.chat_widgets[0])
        if f.chat_widgets
        else say("agency.premium_no_chat"),
    ]
    if f.phone:
        premium.append(say("agency.premium_phone"))
    return premium


def _growth(f: PageFactsOut) -> list[str]:
    growth = []
    if f.title is None:
        growth.append(say("agency.growth_no_title"))
    if f.meta_description is None:
        growth.append(say("agency.growth_no_meta"))
    if not f.structured_data:
        growth.append(say("agency.growth_no_structured_data"))
    if f.images_without_alt:
        growth.append(say("agency.growth_alt", images=count(f.images_without_alt, "image")))
    if f.h1:
        growth.append(say("agency.growth_h1", h1=quote(f.h1[0])))
    if not f.calls_to_action:
        growth.append(say("agency.growth_no_cta"))
    return growth


def _client(f: PageFactsOut, domain: str) -> list[str]:
    client = [
        say("agency.client_report", tool=f.analytics[0])
        if f.analytics
        else say("agency.client_no_analytics"),
        say("agency.client_monitoring", domain=domain),
    ]
    if f.forms:
        client.append(say("agency.client_forms"))
    return client


def report(f: PageFactsOut, domain: str) -> AnalysisReportOut:
    groups = _groups(f)
    gaps = sum(len(g) for _, g in groups)
    lead = (
        say("agency.overview_gaps", gaps=count(gaps, "gap"), domain=domain)
        if gaps
        else say("agency.overview_basics", domain=domain)
    )
    return AnalysisReportOut(
        overview=overview(f, domain, lead),
        sales_funnel=SalesFunnelOut(stages=_opportunities(groups, domain)),
        customer_journey=CustomerJourneyOut(touchpoints=_roadmap(f, domain)),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=trim(_premium(f)),
            seo=trim(_growth(f)),
            personalization=trim(_client(f, domain)),
        ),
    )
