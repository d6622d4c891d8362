"""Site content: the site details' settings and their checks, Markdown rendering and
sanitising, and the filling of the prerender's tokens (pure functions; the served result is
tested in test_routes.py and tests/core/test_site.py)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.paths import config_dir
from agency.core.settings import SettingsError, check_settings
from agency.modules.content.service.pages import (
    CONTENT_ENGINE_PLAN_KEYS,
    CONTENT_ENGINE_ROUTES,
    CONTENT_PAGE_NAMES,
    DEFAULT_CONTENT_ENGINE_PLANS,
    ContentPages,
    SiteDetails,
    content_engine_plans,
    frame_origins,
    html_filter,
    render_markdown,
    route_of,
    tel_href,
)
from agency.modules.content.service.pages import check_settings as check_content_settings
from agency.registry import MODULES
from agency.settings import Settings, load_settings

DETAILS = SiteDetails(
    phone="+44 20 7946 0958",
    contact_email="team@shop.example",
    scheduling_url="https://cal.example/team/30min",
    content_engine_plans={**DEFAULT_CONTENT_ENGINE_PLANS, "/ai-scale-startup": "ai-scale-growth"},
    base_url="https://shop.example",
)


def load_checked_settings() -> Settings:
    """Settings as `create_app` and the CLI accept them: loaded, then checked by the modules."""
    settings = load_settings()
    check_settings(settings, [m.check_settings for m in MODULES if m.check_settings])
    return settings


def pages_in(tmp_path: Path, **texts: str) -> ContentPages:
    for name, text in texts.items():
        (tmp_path / f"{name}.md").write_text(text)
    return ContentPages(tmp_path, DETAILS)


# --- settings ------------------------------------------------------------------------------


def test_defaults_are_the_decisions_content_engine_variants() -> None:
    assert content_engine_plans(Settings()) == {
        "/ai-scale-startup": "ai-scale-builder",
        "/ai-scale-startup2": "ai-scale-plan",
        "/ai-scale-startup3": "ai-scale-growth",
        "/ai-scale-startup4": "ai-scale-builder",
    }


def test_a_partial_plan_mapping_from_the_environment_overrides_only_its_routes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AGENCY_CONTENT_ENGINE_PLANS", '{"/ai-scale-startup3": "ai-scale-plan"}')
    plans = SiteDetails.from_settings(load_checked_settings()).content_engine_plans
    assert plans["/ai-scale-startup3"] == "ai-scale-plan"
    assert plans["/ai-scale-startup"] == "ai-scale-builder"


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("CONTENT_ENGINE_PLANS", '{"/ai-scale-startup9": "ai-scale-plan"}', "unknown route"),
        ("CONTENT_ENGINE_PLANS", '{"/ai-scale-startup": "premium"}', "unknown plan"),
        ("CONTACT_PHONE", "call us", "phone number"),
        ("CONTACT_EMAIL", "not-an-address", "e-mail address"),
        ("SCHEDULING_URL", "javascript:alert(1)", "http(s) address"),
        ("SCHEDULING_URL", 'https://cal.example/"onload=x', "quotes"),
    ],
)
def test_bad_site_details_stop_with_a_readable_message(
    monkeypatch: pytest.MonkeyPatch, key: str, value: str, message: str
) -> None:
    monkeypatch.setenv(f"AGENCY_{key}", value)
    with pytest.raises(SettingsError) as excinfo:
        load_checked_settings()
    assert f"AGENCY_{key}" in str(excinfo.value) and message in str(excinfo.value)


def test_the_plan_mapping_is_reported_like_any_other_bad_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AGENCY_CONTENT_ENGINE_PLANS", '{"/ai-scale-startup": "premium"}')
    with pytest.raises(SettingsError) as excinfo:
        load_checked_settings()
    assert str(excinfo.value) == (
        "Invalid configuration:\n"
        "  AGENCY_CONTENT_ENGINE_PLANS: Value error, unknown plan(s) premium; "
        "plans are ai-scale-builder, ai-scale-plan, ai-scale-growth"
    )


def test_unknown_routes_are_reported_before_unknown_plans() -> None:
    settings = Settings(content_engine_plans={"/nope": "premium", "/ai-scale-startup": "x"})
    assert check_content_settings(settings) == [
        (
            "content_engine_plans",
            "unknown route(s) /nope; routes are /ai-scale-startup, /ai-scale-startup2, "
            "/ai-scale-startup3, /ai-scale-startup4",
        )
    ]


phones = st.builds(
    lambda country, groups: f"+{country} " + " ".join(groups),
    st.integers(1, 999),
    st.lists(st.from_regex(r"[0-9]{3,4}", fullmatch=True), min_size=2, max_size=4),
)


@given(phones)
def test_any_international_phone_number_is_accepted_and_dials_its_digits(phone: str) -> None:
    settings = Settings(contact_phone=phone)
    assert settings.contact_phone == phone
    assert tel_href(phone) == "tel:+" + re.sub(r"\D", "", phone)


@given(st.text(max_size=40))
def test_a_phone_is_never_accepted_without_enough_digits_or_with_markup(value: str) -> None:
    digits = sum(c.isdigit() for c in value)
    try:
        accepted = Settings(contact_phone=value).contact_phone
    except ValueError:
        return
    if accepted == "":
        return  # blank: the pages show the seller's phone (seller_phone)
    assert digits >= 6
    assert not set(accepted) & set("<>\"'&")


@given(st.sampled_from(CONTENT_ENGINE_ROUTES), st.sampled_from(CONTENT_ENGINE_PLAN_KEYS))
def test_every_route_can_sell_every_content_engine_plan(route: str, plan: str) -> None:
    settings = Settings(content_engine_plans={route: plan})
    check_settings(settings, [check_content_settings])
    assert content_engine_plans(settings)[route] == plan


@given(st.text(max_size=80))
def test_a_scheduling_url_is_empty_or_a_plain_http_address(value: str) -> None:
    try:
        accepted = Settings(scheduling_url=value).scheduling_url
    except ValueError:
        return
    assert accepted == "" or accepted.startswith(("http://", "https://"))
    assert not set(accepted) & set("\"'<> \\")


def test_scheduling_origin_is_what_the_csp_allows_to_be_framed() -> None:
    settings = Settings(scheduling_url="https://cal.example:8443/team/30min?x=1")
    assert frame_origins(settings) == ("https://cal.example:8443",)
    assert frame_origins(Settings()) == ()


# --- Markdown --------------------------------------------------------------------------------


def test_markdown_renders_headings_lists_tables_and_links() -> None:
    rendered = render_markdown(
        "# Title\n\n- one\n- two\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n[Terms](/terms)\n"
    )
    assert "<h1>Title</h1>" in rendered
    assert "<li>one</li>" in rendered
    assert "<td>1</td>" in rendered
    assert '<a href="/terms" rel="noopener noreferrer">Terms</a>' in rendered


def test_markdown_loses_scripts_styles_handlers_and_javascript_links() -> None:
    rendered = render_markdown(
        '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n'
        '<p style="color:red" onclick="x()">hi</p>\n\n[click](javascript:alert(1))\n'
    )
    assert "<script" not in rendered and "onerror" not in rendered and "onclick" not in rendered
    assert "style=" not in rendered and "<img" not in rendered
    assert 'href="javascript:' not in rendered  # left as inert text, never a link


@given(st.text(max_size=300))
def test_rendered_markdown_never_carries_active_content(text: str) -> None:
    rendered = render_markdown(text).lower()
    assert "<script" not in rendered
    assert not re.search(r"href\s*=\s*\"?\s*javascript:", rendered)
    assert not re.search(r"<[^>]+\son\w+\s*=", rendered)
    assert not re.search(r"<[^>]+\sstyle\s*=", rendered)


def test_email_and_phone_placeholders_become_links(tmp_path: Path) -> None:
    pages = pages_in(tmp_path, contact="# Contact\n\nWrite to {email} or call {phone}.\n")
    page = pages.get("contact")
    assert page is not None and page.title == "Contact"
    assert 'href="mailto:team@shop.example"' in page.html
    assert 'href="tel:+442079460958"' in page.html and "+44 20 7946 0958" in page.html


def test_a_missing_page_is_reported_and_served_as_a_short_note(tmp_path: Path) -> None:
    pages = pages_in(tmp_path, faq="# FAQ\n")
    assert pages.get("privacy") is None
    assert "being written" in pages.html_for("privacy")


def test_the_shipped_pages_exist_have_a_headline_and_render() -> None:
    pages = ContentPages(config_dir() / "pages", DETAILS)
    assert sorted(pages.pages) == sorted(CONTENT_PAGE_NAMES)
    for page in pages.pages.values():
        assert page.html.startswith("<h1>"), page.name
    assert "mailto:team@shop.example" in pages.html_for("contact")
    # The privacy policy names what the program stores.
    privacy = pages.html_for("privacy")
    for stored in ("argon2id", "last four digits", "IP address", "agency_session"):
        assert stored in privacy or stored in pages.html_for("cookies"), stored


# --- filling the prerendered HTML ---------------------------------------------------------------


PAGE = (
    '<html><head><meta name="agency-site" content="__AGENCY_SITE__" />'
    '<link rel="canonical" href="__AGENCY_BASE_URL__/terms"/></head><body>'
    '<a href="__AGENCY_PHONE_HREF__">__AGENCY_PHONE__</a>'
    '<a href="mailto:__AGENCY_CONTACT_EMAIL__">__AGENCY_CONTACT_EMAIL__</a>'
    '<a href="/start?type=ai-scale&amp;plan=__AGENCY_CONTENT_ENGINE_PLAN__">Buy</a>'
    '<article data-content-page="terms"><!--agency-page:terms--></article></body></html>'
)


@pytest.mark.parametrize(
    ("relative", "route"),
    [
        ("index.html", "/"),
        ("faq/index.html", "/faq"),
        ("ai-scale-startup2/index.html", "/ai-scale-startup2"),
    ],
)
def test_route_of_a_built_file(relative: str, route: str) -> None:
    assert route_of(relative) == route


def test_every_token_is_filled_and_the_meta_tag_carries_the_same_values(tmp_path: Path) -> None:
    pages = pages_in(tmp_path, terms="# Terms\n\nBe nice.\n")
    filled = html_filter(DETAILS, pages)("ai-scale-startup/index.html", PAGE)
    assert "__AGENCY_" not in filled and "agency-page:" not in filled
    assert '<a href="tel:+442079460958">+44 20 7946 0958</a>' in filled
    assert "plan=ai-scale-growth" in filled
    assert '<link rel="canonical" href="https://shop.example/terms"/>' in filled
    assert "<h1>Terms</h1>" in filled
    meta = re.search(r'<meta name="agency-site" content="([^"]*)"', filled)
    assert meta is not None
    config = json.loads(html.unescape(meta.group(1)))
    assert config == {
        "baseUrl": "https://shop.example",
        "phone": "+44 20 7946 0958",
        "phoneHref": "tel:+442079460958",
        "contactEmail": "team@shop.example",
        "schedulingUrl": "https://cal.example/team/30min",
        "contentEnginePlans": DETAILS.content_engine_plans,
        "claims": {},
        "brandName": "agency",
        "ugcSampleVideo": None,
    }


@pytest.mark.parametrize(("route", "plan"), sorted(DEFAULT_CONTENT_ENGINE_PLANS.items()))
def test_each_content_engine_page_gets_its_own_plan(route: str, plan: str, tmp_path: Path) -> None:
    details = SiteDetails("+49 30 1234 5678", "a@b.example", "", dict(DEFAULT_CONTENT_ENGINE_PLANS))
    filled = html_filter(details, pages_in(tmp_path))(f"{route[1:]}/index.html", PAGE)
    assert f'plan={plan}">Buy<' in filled
