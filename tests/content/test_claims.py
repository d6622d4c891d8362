"""Claims the operator controls: the claims file (the specs' wording by default, an operator's
file over it), the one switch that removes every urgency claim, and how prerendered pages show
exactly the configured claims (texts filled, elements of claims that are off cut, no box left)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.app import create_app
from agency.core.errors import ValidationFailed
from agency.core.settings import SettingsError
from agency.modules.content.service import claims
from tests.conftest import make_settings, web_client

ROOT = Path(__file__).resolve().parents[2]
URGENCY = {
    "ai_scale_slots": "8 slots left this week",
    "lead_engine_badge": "Launch offer: only 5 spots",
    "lead_engine_spots": "Only 5 spots at the launch price",
    "lead_engine_spots_short": "Only 5 spots",
    "analysis_rebuild_spots": "2 rebuild spots left today \u2013 don't miss out",
    "analysis_agency_spots": "2 agency spots left today \u2013 don't miss out",
}

# What the prerender writes for a claim (webui/src/lib/claims.tsx): the element holding it
# marked `data-claim`, its stand-in `data-claim-off`, its text a token.
PAGE = (
    '<html><head><meta name="agency-site" content="__AGENCY_SITE__" /></head><body>'
    '<div class="offer-card"><p class="offer-card__ribbon" data-claim="ai_scale_slots">'
    '<svg><path d="M0"></path></svg>__AGENCY_CLAIM_AI_SCALE_SLOTS__</p><h2>Offer</h2></div>'
    '<span class="badge"><span data-claim="lead_engine_badge">__AGENCY_CLAIM_LEAD_ENGINE_BADGE__'
    '</span><span data-claim-off="lead_engine_badge">Launch offer</span></span>'
    '<ul><li>72h delivery</li><li data-claim="lead_engine_spots">'
    "__AGENCY_CLAIM_LEAD_ENGINE_SPOTS__</li></ul>"
    '<section class="section" data-claim="testimonials"><div><section>quote</section></div>'
    "</section><footer>end</footer></body></html>"
)


def site(tmp_path: Path, **overrides: Any) -> Any:
    web = tmp_path / "web"
    (web / "ai-lead-engine").mkdir(parents=True)
    (web / "index.html").write_text("<html><h1>Home</h1></html>")
    (web / "ai-lead-engine" / "index.html").write_text(PAGE)
    (web / "routes.json").write_text(
        json.dumps({"prerendered": ["/", "/ai-lead-engine"], "spa": [], "sitemap": ["/"]})
    )
    return create_app(make_settings(tmp_path, "sqlite://:memory:", web_dir=web, **overrides))


async def page(app: Any) -> str:
    async with app.test_app(), web_client(app) as http:
        response: httpx.Response = await http.get("/ai-lead-engine")
        assert response.status_code == 200
        return response.text


def site_json(text: str) -> dict[str, Any]:
    start = text.index('content="', text.index('name="agency-site"')) + len('content="')
    import html

    return dict(json.loads(html.unescape(text[start : text.index('"', start)])))


async def test_by_default_the_page_shows_the_specs_claims(tmp_path: Path) -> None:
    text = await page(site(tmp_path))
    assert "8 slots left this week" in text and "Launch offer: only 5 spots" in text
    assert "Only 5 spots at the launch price" in text and "quote" in text
    assert ">Launch offer<" not in text  # the stand-in goes while the claim shows
    assert "__AGENCY_CLAIM" not in text
    shown = site_json(text)["claims"]
    assert {k: shown[k] for k in URGENCY} == URGENCY
    assert shown["testimonials"] == "on"


async def test_the_switch_removes_every_urgency_claim_and_leaves_no_box(tmp_path: Path) -> None:
    text = await page(site(tmp_path, urgency_claims=False))
    for claim in ("slots left", "only 5 spots", "Only 5 spots", "spots left today"):
        assert claim not in text
    assert "offer-card__ribbon" not in text  # the ribbon's element went with its text
    assert '<span data-claim-off="lead_engine_badge">Launch offer</span>' in text
    assert "<ul><li>72h delivery</li></ul>" in text
    assert "<h2>Offer</h2>" in text and "quote" in text and "<footer>end</footer>" in text
    shown = site_json(text)["claims"]
    assert not set(URGENCY) & set(shown)  # the client renders the same
    assert "launch_pricing" not in shown


async def test_an_operators_file_replaces_texts_and_switches_sections_off(tmp_path: Path) -> None:
    mine = tmp_path / "claims.toml"
    mine.write_text(
        '[urgency]\nai_scale_slots = "3 places left in May"\nlead_engine_spots = ""\n'
        "[sections]\ntestimonials = false\n"
    )
    text = await page(site(tmp_path, claims_file=mine))
    assert "3 places left in May" in text and "8 slots" not in text
    assert "Only 5 spots at the launch price" not in text
    assert "Launch offer: only 5 spots" in text  # left out of the file: the default
    assert "quote" not in text and 'data-claim="testimonials"' not in text
    shown = site_json(text)["claims"]
    assert "testimonials" not in shown and "lead_engine_spots" not in shown


def test_a_bad_claims_file_stops_the_start_with_its_key(tmp_path: Path) -> None:
    mine = tmp_path / "claims.toml"
    mine.write_text('[urgency]\nseats_left = "2 seats"\n')
    with pytest.raises(SettingsError, match=r"AGENCY_CLAIMS_FILE.*unknown claim.*seats_left"):
        site(tmp_path, claims_file=mine)


def _slot(slot: str) -> str:
    """A testimonial slot as the prerender writes it (features/content/Testimonials.tsx)."""
    token = f"__AGENCY_CLAIM_{slot.upper()}"
    return (
        f'<li data-claim="{slot}"><figure><p class="stars" data-claim="{slot}_rating">'
        f'<span>{token}_RATING__</span><span aria-hidden="true">{token}_STARS__</span></p>'
        f'<p class="result" data-claim="{slot}_result">{token}_RESULT__</p>'
        f"<blockquote><p>\u201c{token}_QUOTE__\u201d</p></blockquote><figcaption>"
        f"<span>{token}_INITIALS__</span><span>{token}_NAME__</span>"
        f"<span>{token}_POSITION__</span></figcaption></figure></li>"
    )


# /sales-funnel's testimonials and client logo strip as the prerender writes them.
FUNNEL = (
    '<html><head><meta name="agency-site" content="__AGENCY_SITE__" /></head><body>'
    '<section data-claim="testimonials_sales_funnel"><h2>Testimonials</h2><ul>'
    + "".join(_slot(f"t_sales_funnel_{n}") for n in (1, 2, 3))
    + '</ul></section><section data-claim="client_logos"><ul>'
    + "".join(
        f'<li data-claim="logo_{n}"><img src="__AGENCY_CLAIM_LOGO_{n}_IMAGE__" '
        f'alt="__AGENCY_CLAIM_LOGO_{n}__" width="160" height="48"/></li>'
        for n in range(1, 7)
    )
    + "</ul></section><footer>end</footer></body></html>"
)


async def funnel(tmp_path: Path, mine: str | None = None) -> str:
    web = tmp_path / "web"
    (web / "sales-funnel").mkdir(parents=True)
    (web / "index.html").write_text("<html><h1>Home</h1></html>")
    (web / "sales-funnel" / "index.html").write_text(FUNNEL)
    (web / "routes.json").write_text(
        json.dumps({"prerendered": ["/", "/sales-funnel"], "spa": [], "sitemap": ["/"]})
    )
    overrides: dict[str, Any] = {}
    if mine is not None:
        (tmp_path / "claims.toml").write_text(mine)
        overrides["claims_file"] = tmp_path / "claims.toml"
    app = create_app(make_settings(tmp_path, "sqlite://:memory:", web_dir=web, **overrides))
    async with app.test_app(), web_client(app) as http:
        response: httpx.Response = await http.get("/sales-funnel")
        assert response.status_code == 200
        return response.text


async def test_by_default_the_testimonials_and_logos_are_the_specs(tmp_path: Path) -> None:
    text = await funnel(tmp_path)
    assert "__AGENCY_CLAIM" not in text
    assert "\u201cWe had a webinar, a sales page and no system." in text
    assert "<span>HK</span><span>Hannah Koch</span><span>Founder, Kestrel Coaching</span>" in text
    assert ">Live in 7 days<" in text and text.count("<span>Rated 5 out of 5</span>") == 3
    assert 'src="/logos/alder-and-co.svg" alt="Alder &amp; Co"' in text
    assert text.count("<img") == 6
    shown = site_json(text)["claims"]
    assert shown["t_sales_funnel_count"] == "3" and shown["logo_6"] == "Alder & Co"


async def test_an_operators_file_replaces_a_testimonial_and_a_logo(tmp_path: Path) -> None:
    text = await funnel(
        tmp_path,
        "[testimonials.sales_funnel.hannah_koch]\n"
        'quote = "Our funnel sold <more> & faster."\nname = "Maria Weber"\n'
        'position = "Owner, Weber Yoga"\nresult = ""\nrating = 4\n'
        '[logos.vela_studio]\nname = "Weber Yoga"\nimage = "/media/weber-yoga.svg"\n',
    )
    assert "Hannah Koch" not in text and "We had a webinar" not in text
    assert "\u201cOur funnel sold &lt;more&gt; &amp; faster.\u201d" in text
    assert "<span>MW</span><span>Maria Weber</span><span>Owner, Weber Yoga</span>" in text
    assert ">Live in 7 days<" not in text  # an empty result goes with its element
    assert 'data-claim="t_sales_funnel_1_result"' not in text
    assert "<span>Rated 4 out of 5</span>" in text and ">\u2605\u2605\u2605\u2605<" in text
    assert "Luca Bianchi" in text and "Higher order value" in text  # left out: the defaults
    assert 'src="/media/weber-yoga.svg" alt="Weber Yoga"' in text and "Vela Studio" not in text
    shown = site_json(text)["claims"]
    assert shown["t_sales_funnel_1_name"] == "Maria Weber" and shown["logo_5"] == "Weber Yoga"
    assert "t_sales_funnel_1_result" not in shown


async def test_single_testimonials_and_logos_can_be_switched_off(tmp_path: Path) -> None:
    text = await funnel(
        tmp_path,
        "[testimonials.sales_funnel.hannah_koch]\non = false\n"
        '[testimonials.sales_funnel.ingrid_solberg]\nquote = ""\n'
        "[logos.kestrel_coaching]\non = false\n",
    )
    # One testimonial is left: it fills the first slot, the others are cut with no gap.
    assert "Hannah Koch" not in text and "Ingrid Solberg" not in text
    assert '<li data-claim="t_sales_funnel_1">' in text and "Luca Bianchi" in text
    assert 'data-claim="t_sales_funnel_2"' not in text and text.count("<blockquote>") == 1
    assert 'alt="Kestrel Coaching"' not in text and text.count("<img") == 5
    assert 'alt="Brightpath Academy"' in text
    shown = site_json(text)["claims"]
    assert shown["t_sales_funnel_count"] == "1" and "t_sales_funnel_2" not in shown
    assert shown["logo_1"] == "Brightpath Academy" and "logo_6" not in shown


async def test_with_none_left_the_section_goes(tmp_path: Path) -> None:
    text = await funnel(
        tmp_path,
        "".join(
            f"[testimonials.sales_funnel.{who}]\non = false\n"
            for who in ("hannah_koch", "luca_bianchi", "ingrid_solberg")
        )
        + "[sections]\nclient_logos = false\n",
    )
    assert "<section" not in text and "<footer>end</footer>" in text
    shown = site_json(text)["claims"]
    assert "testimonials_sales_funnel" not in shown and "client_logos" not in shown
    assert shown["testimonials_home"] == "on"  # other pages keep theirs


@pytest.mark.parametrize(
    ("mine", "named"),
    [
        ('[testimonials.sales_funnel.jane_doe]\nquote = "x"\n', "jane_doe"),
        ('[testimonials.pricing_page.hannah_koch]\nquote = "x"\n', "pricing_page"),
        ('[testimonials.sales_funnel.hannah_koch]\ncompany = "x"\n', "company"),
        ('[logos.acme]\nname = "Acme"\n', "acme"),
        ('[logos.vela_studio]\nimage = "javascript:alert(1)"\n', "image"),
        ("[testimonials.home.sophie_laurent]\nrating = 6\n", "rating"),
    ],
)
def test_an_unknown_testimonial_or_logo_stops_the_start(
    tmp_path: Path, mine: str, named: str
) -> None:
    (tmp_path / "claims.toml").write_text(mine)
    with pytest.raises(SettingsError, match=rf"AGENCY_CLAIMS_FILE(.|\n)*{named}"):
        site(tmp_path, claims_file=tmp_path / "claims.toml")


lines = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")),
    max_size=80,
)


@given(
    quote=lines,
    name=lines,
    rating=st.integers(0, 5),
    off=st.sets(st.sampled_from(["hannah_koch", "luca_bianchi", "ingrid_solberg"])),
)
def test_testimonial_slots_hold_exactly_what_shows(
    tmp_path_factory: pytest.TempPathFactory, quote: str, name: str, rating: int, off: set[str]
) -> None:
    """Whatever an operator writes: the shown testimonials fill slots 1..n in the bundled order
    with the given texts (a quote that is only spaces removes its testimonial)."""
    mine = tmp_path_factory.mktemp("claims") / "claims.toml"
    body = ""
    for who in ("hannah_koch", "luca_bianchi", "ingrid_solberg"):
        fields: dict[str, Any] = {"quote": quote, "name": name, "rating": rating}
        if who != "luca_bianchi":
            fields = {}
        if who in off:
            fields["on"] = False
        if fields:
            values = "".join(
                f"{k} = {json.dumps(v, ensure_ascii=False)}\n" for k, v in fields.items()
            )
            body += f"[testimonials.sales_funnel.{who}]\n{values}"
    mine.write_text(body, encoding="utf-8")
    data = claims.merged(claims.read_file(mine), claims.read_file(claims.default_file()))
    shown = claims.enabled(data, urgency=True, today=date(2026, 11, 26))
    expected = [
        who
        for who in ("hannah_koch", "luca_bianchi", "ingrid_solberg")
        if who not in off and (who != "luca_bianchi" or quote.strip())
    ]
    assert shown.get("t_sales_funnel_count") == (str(len(expected)) if expected else None)
    assert ("testimonials_sales_funnel" in shown) == bool(expected)
    for number in range(1, 4):
        assert (f"t_sales_funnel_{number}" in shown) == (number <= len(expected))
    if "luca_bianchi" in expected:
        slot = f"t_sales_funnel_{expected.index('luca_bianchi') + 1}"
        assert shown[f"{slot}_quote"] == quote
        assert shown.get(f"{slot}_name", "") == (name if name.strip() else "")
        assert shown.get(f"{slot}_stars", "") == "\u2605" * rating


def test_the_web_uis_default_claims_are_the_servers() -> None:
    """webui/src/lib/claims-defaults.json is what the client shows without the meta tag
    (development, unit tests): the bundled file's claims."""
    defaults = json.loads((ROOT / "webui/src/lib/claims-defaults.json").read_text())
    assert defaults == claims.load(None, urgency=True)
    assert {k: defaults[k] for k in URGENCY} == URGENCY  # the specs' wording


def test_launch_pricing_claims_a_time_limit_only_with_a_real_end() -> None:
    data = claims.read_file(claims.default_file())
    today = date(2026, 11, 26)
    assert claims.enabled(data, urgency=True, today=today)["launch_pricing"] == "Launch pricing"
    data.urgency["launch_pricing_until"] = "2026-12-31"
    shown = claims.enabled(data, urgency=True, today=today)
    assert shown["launch_pricing"] == "Limited time launch pricing until 31 December 2026"
    assert "launch_pricing" not in claims.enabled(data, urgency=True, today=date(2027, 1, 1))
    assert "launch_pricing" not in claims.enabled(data, urgency=False, today=today)
    data.urgency["launch_pricing_until"] = "soon"
    with pytest.raises(ValidationFailed, match="YYYY-MM-DD"):
        claims.enabled(data, urgency=True, today=today)


keys = st.sampled_from(["a_claim", "b_claim", "c"])
tags = st.sampled_from(["p", "span", "li", "div", "section"])


@st.composite
def documents(draw: Any) -> tuple[str, set[str]]:
    """Nested markup where some elements hold claims (`data-claim`) or stand-ins."""
    inside: set[str] = set()

    def element(depth: int) -> str:
        tag = draw(tags)
        kind = draw(st.sampled_from(["plain", "claim", "off"]))
        key = draw(keys)
        attr = {"plain": "", "claim": f' data-claim="{key}"', "off": f' data-claim-off="{key}"'}
        children = (
            "".join(element(depth + 1) for _ in range(draw(st.integers(0, 2)))) if depth < 3 else ""
        )
        if kind != "plain":
            inside.add(key)
        return f"<{tag}{attr[kind]}>x{children}<img src=a>y</{tag}>"

    body = "".join(element(0) for _ in range(draw(st.integers(1, 3))))
    return f"<body>{body}<footer>end</footer></body>", inside


@given(doc=documents(), shown_keys=st.sets(keys))
def test_cutting_claims_leaves_well_formed_markup_without_the_cut_ones(
    doc: tuple[str, set[str]], shown_keys: set[str]
) -> None:
    text, _keys = doc
    shown = dict.fromkeys(shown_keys, "t")
    result = claims.cut_elements(text, shown)
    for key in {"a_claim", "b_claim", "c"}:
        if key in shown:
            assert f'data-claim-off="{key}"' not in result
        else:
            assert f'data-claim="{key}"' not in result
    assert result.endswith("<footer>end</footer></body>")
    for tag in ("p", "span", "li", "div", "section"):
        assert result.count(f"<{tag}") == result.count(f"</{tag}>")


@given(st.text(max_size=40))
def test_claim_texts_are_escaped_into_the_page(text: str) -> None:
    filled = claims.fill("<p>__AGENCY_CLAIM_X__</p>", {"x": text})
    assert "<script" not in filled.lower().replace("&lt;script", "")
    assert filled.count("<") == 2
