"""The general page (and the lead page's, with its own opening): overview = strategy overview;
sales_funnel = the funnel's stages (awareness, interest, decision, action, measurement) and
their gaps; customer_journey = the touchpoints the page offers (search result and first visit
always, then social share, phone, e-mail, form, booking, chat when present);
ai_opportunities = AI customer support, AI SEO, AI personalisation."""

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
    booking_text,
    chat_text,
    contact_text,
    count,
    cta_text,
    h1_text,
    names,
    overview,
    point,
    quote,
    search_text,
    stage,
    structured_data_text,
    trim,
)
from agency.modules.analysis.service.rules_gaps import (
    gap_fields,
    gaps_action,
    gaps_contact,
    gaps_content,
    gaps_measure,
    gaps_search,
)
from agency.modules.analysis.service.rules_wording import say


def _joined(*parts: str | None) -> str:
    return " ".join(part for part in parts if part)


def _funnel(f: PageFactsOut) -> list[FunnelStageOut]:
    images = count(f.images, "image")
    return [
        stage(
            say("general.stage_awareness"),
            _joined(
                search_text(f),
                say("general.open_graph") if f.open_graph else None,
                structured_data_text(f) if f.structured_data else None,
            ),
            gaps_search(f),
        ),
        stage(
            say("general.stage_interest"),
            _joined(
                h1_text(f),
                say("general.images_viewport" if f.viewport else "general.images", images=images),
            ),
            gaps_content(f),
        ),
        stage(say("general.stage_decision"), cta_text(f), gaps_action(f)),
        stage(
            say("general.stage_action"),
            _joined(contact_text(f), booking_text(f) if f.booking_widgets else None),
            gaps_contact(f),
        ),
        stage(
            say("general.stage_measurement"),
            _joined(analytics_text(f), chat_text(f) if f.chat_widgets else None),
            gaps_measure(f)
            + ([say("general.track_conversions", tools=names(f.analytics))] if f.analytics else []),
        ),
    ]


def _first_points(f: PageFactsOut) -> list[TouchpointOut]:
    check_title = say("general.check_title", title=quote(f.title or ""))
    first_screen = (
        [say("general.cta_first_screen", cta=quote(f.calls_to_action[0], 40))]
        if f.calls_to_action
        else []
    )
    return [
        point(say("general.point_search"), search_text(f), gaps_search(f)[:2] or [check_title]),
        point(
            say("general.point_first_visit"),
            h1_text(f) + " " + cta_text(f),
            first_screen + gaps_content(f)[:1] + gaps_action(f)[:1],
        ),
    ]


def _contact_points(f: PageFactsOut) -> list[TouchpointOut]:
    points = []
    if f.open_graph:
        points.append(_simple_point("shared"))
    if f.phone:
        points.append(_simple_point("phone"))
    if f.email:
        points.append(_simple_point("email"))
    if f.forms:
        forms, fields = count(f.forms, "form"), count(f.form_fields, "field")
        points.append(
            point(
                say("general.point_enquiry"),
                say("general.enquiry_description", forms=forms, fields=fields),
                [say("general.enquiry_tip"), *gap_fields(f)],
            )
        )
    if f.booking_widgets:
        tip = say("general.booking_tip", tool=f.booking_widgets[0])
        points.append(point(say("general.point_booking"), booking_text(f), [tip]))
    if f.chat_widgets:
        points.append(point(say("general.point_chat"), chat_text(f), [say("general.chat_tip")]))
    return points


def _simple_point(name: str) -> TouchpointOut:
    return point(
        say(f"general.point_{name}"),
        say(f"general.{name}_description"),
        [say(f"general.{name}_tip")],
    )


def _support(f: PageFactsOut) -> list[str]:
    support = []
    if f.chat_widgets:
        support.append(say("general.support_chat", tool=f.chat_widgets[0]))
    else:
        support.append(say("general.support_no_chat"))
    if f.forms:
        support.append(say("general.support_forms"))
    if f.phone:
        support.append(say("general.support_phone"))
    if f.booking_widgets:
        support.append(say("general.support_booking", tool=f.booking_widgets[0]))
    else:
        support.append(say("general.support_no_booking"))
    return support


def _seo(f: PageFactsOut) -> list[str]:
    seo = []
    if f.meta_description is None:
        seo.append(say("general.seo_no_meta"))
    if f.structured_data:
        seo.append(say("general.seo_structured_data", types=names(f.structured_data[:3])))
    else:
        seo.append(say("general.seo_no_structured_data"))
    if f.images_without_alt:
        seo.append(say("general.seo_alt", images=count(f.images_without_alt, "image")))
    if f.h1:
        seo.append(say("general.seo_h1", h1=quote(f.h1[0])))
    if f.title:
        seo.append(say("general.seo_title", title=quote(f.title)))
    return seo


def _personal(f: PageFactsOut) -> list[str]:
    personal = []
    if f.analytics:
        personal.append(say("general.personal_analytics", tool=f.analytics[0]))
    else:
        personal.append(say("general.personal_no_analytics"))
    if f.calls_to_action:
        personal.append(say("general.personal_cta", cta=quote(f.calls_to_action[0], 40)))
    if f.forms:
        personal.append(say("general.personal_forms"))
    if f.language:
        personal.append(say("general.personal_language", language=quote(f.language, 35)))
    return personal


def report(f: PageFactsOut, domain: str, lead: str | None = None) -> AnalysisReportOut:
    """The general page's report; `lead` opens the overview (the general one by default)."""
    return AnalysisReportOut(
        overview=overview(f, domain, lead or say("general.lead")),
        sales_funnel=SalesFunnelOut(stages=_funnel(f)),
        customer_journey=CustomerJourneyOut(touchpoints=_first_points(f) + _contact_points(f)),
        ai_opportunities=AiOpportunitiesOut(
            customer_support=trim(_support(f)),
            seo=trim(_seo(f)),
            personalization=trim(_personal(f)),
        ),
    )
