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
