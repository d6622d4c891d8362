"""The technical page: overview = architecture overview; customer_journey = the stack's layers;
sales_funnel = performance areas; ai_opportunities = security findings (transport / third-party
scripts / forms and data), so the security score falls with each finding."""

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
    IMAGES_MANY,
    OVERVIEW_MAX,
    SCRIPT_KB_HEAVY,
    count,
    h1_text,
    https_text,
    names,
    point,
    quote,
    search_text,
    stage,
    structured_data_text,
    third_party,
    trim,
)
from agency.modules.analysis.service.rules_gaps import (
    gaps_content,
    gaps_search,
    script_gaps,
)
from agency.modules.analysis.service.rules_wording import say


def _overview(f: PageFactsOut, domain: str) -> str:
    third = third_party(f)
    text = say(
        "technical.overview",
        domain=domain,
        url=f.final_url,
        status=f.http_status,
        https=https_text(f),
        scripts=count(f.scripts, "script"),
        kb=f.script_kb,
        third=names(third) if third else say("technical.no_third_party"),
        headings=count(f.headings, "heading"),
        viewport=say("technical.viewport" if f.viewport else "technical.no_viewport"),
        language=(
            say("technical.language", language=quote(f.language, 35))
            if f.language
            else say("technical.no_language")
        ),
        structured_data=(
            structured_data_text(f) if f.structured_data else say("technical.no_structured_data")
        ),
    )
    return text[:OVERVIEW_MAX]


def _scripts_description(f: PageFactsOut) -> str:
    return say("technical.scripts_description", scripts=count(f.scripts, "script"), kb=f.script_kb)


def _transport_gaps(f: PageFactsOut) -> list[str]:
    gaps = []
    if not f.https:
        gaps.append(say("technical.serve_https"))
    if f.http_status >= 400:
        gaps.append(say("technical.http_error", status=f.http_status))
    if f.https and f.http_status < 400:
        gaps.append(say("technical.hsts"))
    return gaps


def _layers(f: PageFactsOut) -> list[TouchpointOut]:
    third = third_party(f)
    transport = say(
        "technical.transport_description",
        url=f.final_url,
        status=f.http_status,
        https=https_text(f),
    )
    layers = [
        point(say("technical.layer_transport"), transport, _transport_gaps(f)),
        point(
            say("technical.layer_markup"),
            search_text(f) + " " + h1_text(f),
            [*gaps_content(f), *gaps_search(f)[:2]],
        ),
        point(
            say("technical.scripts"),
            _scripts_description(f),
            script_gaps(f) or [say("technical.scripts_defer")],
        ),
    ]
    if third:
        tools = names(third)
        layers.append(
            point(
                say("technical.layer_third_party"),
                say("technical.third_party_description", tools=tools),
                [say("technical.third_party_later", tools=tools)],
            )
        )
    if f.structured_data or f.open_graph:
        metadata = structured_data_text(f) if f.structured_data else say("technical.open_graph")
        layers.append(point(say("technical.layer_metadata"), metadata, [say("technical.validate")]))
    return layers


def _third_party_area(f: PageFactsOut) -> FunnelStageOut:
    third = third_party(f)
    services = count(len(third), "third-party service")
    description = (
        say("technical.third_party_count", services=services, tools=names(third))
        if third
        else say("technical.no_third_party_count", services=services)
    )
    gaps = []
    if len(third) >= 3:
        gaps.append(say("technical.third_party_many", count=len(third), tools=names(third)))
    if f.chat_widgets:
        gaps.append(say("technical.chat_later", tool=f.chat_widgets[0]))
    return stage(say("technical.area_third_party"), description, gaps)


def _areas(f: PageFactsOut) -> list[FunnelStageOut]:
    images = say("technical.images_description", images=count(f.images, "image"))
    many = [say("technical.images_many", count=f.images)] if f.images >= IMAGES_MANY else []
    mobile = say("technical.mobile_viewport" if f.viewport else "technical.mobile_no_viewport")
    return [
        stage(say("technical.scripts"), _scripts_description(f), script_gaps(f)),
        _third_party_area(f),
        stage(say("technical.area_images"), images, many),
        stage(
            say("technical.area_mobile"),
            mobile,
            [] if f.viewport else [say("technical.set_viewport")],
        ),
    ]


def _security(f: PageFactsOut) -> AiOpportunitiesOut:
    third = third_party(f)
    transport = []
    if not f.https:
        transport.append(say("technical.security_no_https"))
    if f.http_status >= 400:
        transport.append(say("technical.security_http_error", status=f.http_status))
    scripts = []
    if third:
        third_scripts = count(len(third), "third-party script")
        scripts.append(
            say("technical.security_third_party", scripts=third_scripts, tools=names(third))
        )
    if f.script_kb >= SCRIPT_KB_HEAVY:
        scripts.append(say("technical.security_inline", kb=f.script_kb))
    data = []
    forms, one = count(f.forms, "form"), f.forms == 1
    if f.forms and not f.https:
        key = "technical.form_unencrypted_one" if one else "technical.form_unencrypted_many"
        data.append(say(key, forms=forms))
    elif f.forms:
        data.append(
            say("technical.form_data_one" if one else "technical.form_data_many", forms=forms)
        )
    if f.email:
        data.append(say("technical.email_published"))
    return AiOpportunitiesOut(
        customer_support=trim(transport), seo=trim(scripts), personalization=trim(data)
    )


def report(f: PageFactsOut, domain: str) -> AnalysisReportOut:
    return AnalysisReportOut(
        overview=_overview(f, domain),
        sales_funnel=SalesFunnelOut(stages=_areas(f)),
        customer_journey=CustomerJourneyOut(touchpoints=_layers(f)),
        ai_opportunities=_security(f),
    )
