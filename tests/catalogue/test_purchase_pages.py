"""The purchase pages (/start, /ai-start) as server pages: the variant the query asks for (the
same rules as the web UI's resolveStart), the cancelled-checkout note only when asked for, and
the current catalogue embedded for the page to hydrate with, through the whole stack."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.app import create_app
from agency.core.settings import Settings
from agency.modules.catalogue import service
from agency.modules.catalogue.schemas import CatalogueOut
from tests.conftest import make_settings, web_client

ROOT = Path(__file__).resolve().parents[2]
# What GET /api/catalogue answers for config/catalogue.toml: the web UI prerenders the
# purchase pages with it (webui/scripts/prerender.mjs).
FIXTURE = CatalogueOut.model_validate_json(
    (ROOT / "webui" / "test" / "fixtures" / "catalogue.json").read_text()
)


def rendered_variants(data: CatalogueOut) -> set[str]:
    """The variants webui/scripts/prerender.mjs renders (purchaseVariants), written again."""
    by_key = {p.key: p for p in data.plans}

    def plans_of(key: str) -> list[str]:
        family = next(f for f in data.families if f.key == key)
        return [p for p in family.plans if p in by_key]

    sold = [f.key for f in data.families if any(by_key[p].checkout for p in plans_of(f.key))]
    start = {f"/start?type={f}" for f in sold} | {
        f"/start?plan={p}" for f in sold for p in plans_of(f) if by_key[p].checkout
    }
    website = next(f for f in data.families if f.key == "website")
    ai = {f"/ai-start?plan={p}" for p in plans_of("website") if by_key[p].checkout}
    return start | ai | {f"/ai-start?plan={website.default_plan}"}


VARIANTS = rendered_variants(FIXTURE)
KEYS = [p.key for p in FIXTURE.plans] + [f.key for f in FIXTURE.families]


@given(
    type_=st.one_of(st.none(), st.sampled_from(KEYS), st.text(max_size=12)),
    plan=st.one_of(st.none(), st.sampled_from(KEYS), st.text(max_size=20)),
)
def test_every_query_has_a_prerendered_variant(type_: str | None, plan: str | None) -> None:
    assert service.start_variant(FIXTURE, type_, plan) in VARIANTS
    assert service.ai_start_variant(FIXTURE, plan) in VARIANTS


@pytest.mark.parametrize(
    ("type_", "plan", "variant"),
    [
        (None, None, "/start?type=website"),
        ("nonsense", None, "/start?type=website"),
        ("ai-booking", None, "/start?type=ai-booking"),
        ("website", "premium", "/start?plan=premium"),  # a plan named: narrowed to it
        (None, "professional", "/start?plan=professional"),
        ("website", "pro-ai", "/start?type=website"),  # another family's plan: the family
        ("ugc", "custom-campaign", "/start?plan=custom-campaign"),
        ("funnel", None, "/start?type=website"),  # not sold through /start
    ],
)
def test_start_variants(type_: str | None, plan: str | None, variant: str) -> None:
    assert service.start_variant(FIXTURE, type_, plan) == variant


def test_ai_start_variants() -> None:
    assert service.ai_start_variant(FIXTURE, None) == "/ai-start?plan=professional"
    assert service.ai_start_variant(FIXTURE, "premium") == "/ai-start?plan=premium"
    assert service.ai_start_variant(FIXTURE, "pro-ai") == "/ai-start?plan=professional"


@given(st.text(max_size=40))
def test_the_embedded_catalogue_cannot_close_its_element(text: str) -> None:
    plans = [FIXTURE.plans[0].model_copy(update={"description": text + "</script><!--"})]
    data = FIXTURE.model_copy(update={"plans": plans})
    embeddable = service.embeddable_json(data.model_dump_json())
    page = service.purchase_page("<body>x</body>", embeddable, canceled=False)
    start = page.index(">", page.index("<script")) + 1
    payload = page[start : page.index("</script>", start)]
    assert "<" not in payload
    assert CatalogueOut.model_validate_json(payload) == data


NOTE = service.CANCELED_NOTE


def page(title: str) -> str:
    return f"<!doctype html><html><body><div id=root><h1>{title}</h1>{NOTE}</div></body></html>"


def write_build(root: Path) -> None:
    (root / "_templates" / "start").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Home</title><div id=root>Home</div>")
    (root / "spa.html").write_text(
        "<!doctype html><html><title>App</title><body><div id=root></div></body></html>"
    )
    templates = {"/start": "_templates/start.html", "/ai-start": "_templates/ai-start.html"}
    (root / "_templates" / "start.html").write_text(page("Start (pattern)"))
    (root / "_templates" / "ai-start.html").write_text(page("AI start (pattern)"))
    for variant in ("/start?type=ai-booking", "/start?plan=premium", "/ai-start?plan=premium"):
        name, query = variant.split("?")
        relative = f"_templates{name}/{query.replace('=', '-')}.html"
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(page(variant))
        templates[variant] = relative
    fixture = json.loads((ROOT / "webui" / "test" / "fixtures" / "catalogue.json").read_text())
    (root / "routes.json").write_text(
        json.dumps(
            {
                "prerendered": ["/"],
                "spa": ["/start", "/ai-start"],
                "templates": templates,
                "template_catalogue": fixture,  # as webui/scripts/prerender.mjs writes it
            }
        )
    )


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str) -> Settings:
    """This module's `app` (tests/conftest.py) serves a build with the purchase templates."""
    web = tmp_path / "web"
    write_build(web)
    return make_settings(tmp_path, database_url, web_dir=web)


@pytest.fixture
async def web(web: httpx.AsyncClient) -> httpx.AsyncClient:
    """tests/conftest.py's `web`, with the catalogue seeded."""
    await service.seed(service.load_file())
    return web


def embedded(html: str) -> object:
    marker = f'<script type="application/json" id="{service.EMBEDDED_CATALOGUE_ID}">'
    start = html.index(marker) + len(marker)
    return json.loads(html[start : html.index("</script>", start)])


async def test_start_serves_the_variant_with_the_catalogue(
    web: httpx.AsyncClient,
) -> None:
    response = await web.get("/start?type=ai-booking")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-cache"
    assert "<h1>/start?type=ai-booking</h1>" in response.text
    assert "Your checkout was cancelled" not in response.text
    api = (await web.get("/api/catalogue")).json()
    assert embedded(response.text) == api

    narrowed = await web.get("/start?type=website&plan=premium&canceled=true")
    assert "<h1>/start?plan=premium</h1>" in narrowed.text
    assert NOTE in narrowed.text
    # A variant the build lacks (the catalogue changed since): the page's own template.
    other = await web.get("/start/?type=ugc")
    assert other.status_code == 200 and "<h1>Start (pattern)</h1>" in other.text


async def test_the_purchase_pages_follow_a_catalogue_change_at_once(
    web: httpx.AsyncClient,
) -> None:
    """The pages embed the catalogue cached per change of it (as /api/catalogue sends it): a new
    price shows on the very next request."""
    before = embedded((await web.get("/start?type=ai-booking")).text)
    data = service.load_file()
    plans = [p.model_copy(update={"price": p.price + 100}) for p in data.plans]
    await service.seed(data.model_copy(update={"plans": plans}))
    for path in ("/start?type=ai-booking", "/ai-start"):
        after = embedded((await web.get(path)).text)
        assert after != before and after == (await web.get("/api/catalogue")).json()
        assert isinstance(after, dict) and isinstance(before, dict)
        prices = {p["key"]: p["price"] for p in after["plans"]}
        assert all(prices[p["key"]] == p["price"] + 100 for p in before["plans"])


async def test_a_catalogue_changed_since_the_build_gets_the_client_shell(
    web: httpx.AsyncClient,
) -> None:
    """The templates show the prices they were built with: once an admin changes one, the
    pages come as the client shell with the current catalogue, never with a stale price; a
    Stripe price id (shown nowhere) does not count as a change."""
    assert "<h1>/start?plan=premium</h1>" in (await web.get("/start?plan=premium")).text
    await service.set_stripe_ids("premium", product_id="prod_live", price_id="price_live_1")
    assert "<h1>/start?plan=premium</h1>" in (await web.get("/start?plan=premium")).text

    await service.set_price("premium", 55_500)
    for path in ("/start?plan=premium", "/ai-start?plan=premium&canceled=true", "/start"):
        response = await web.get(path)
        assert response.status_code == 200
        assert "<title>App</title>" in response.text and "<h1>" not in response.text, path
        shown = embedded(response.text)
        assert shown == (await web.get("/api/catalogue")).json()
        assert isinstance(shown, dict)
        assert {p["key"]: p["price"] for p in shown["plans"]}["premium"] == 55_500


async def test_ai_start_serves_the_variant(web: httpx.AsyncClient) -> None:
    response = await web.get("/ai-start?plan=premium&canceled=true")
    assert "<h1>/ai-start?plan=premium</h1>" in response.text and NOTE in response.text
    assert "<h1>AI start (pattern)</h1>" in (await web.get("/ai-start")).text


async def test_a_build_without_purchase_templates_serves_the_shell(
    tmp_path: Path, database_url: str
) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><div id=root>Home</div>")
    (web / "spa.html").write_text("<!doctype html><html><body><div id=root></div></body></html>")
    (web / "routes.json").write_text(json.dumps({"prerendered": ["/"], "spa": ["/start"]}))
    app = create_app(make_settings(tmp_path, database_url, web_dir=web))
    async with app.test_app(), web_client(app) as client:
        response = await client.get("/start")
    assert response.status_code == 200
    assert "<div id=root></div>" in response.text  # the client renders it
