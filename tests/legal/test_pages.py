"""The seller on the site, through the whole app (static layer, HTML filters, Quart): the legal
notice at /imprint (and /impressum) filled from the configuration, the privacy policy's
controller, the terms and the contact page naming the seller, the sitemap listing the notice,
and the demo notice on every page only while a demo detail is left."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from agency.app import create_app
from agency.core.paths import web_dir
from agency.modules.legal.service import DEMO_NOTICE, DISPUTE_STATEMENT
from tests.conftest import make_settings, web_client
from tests.legal.seller import SELLER, SELLER_ADDRESS, SELLER_FULL_NAME, SELLER_VAT_ID

PAGE = (
    '<!doctype html><html><head><title>x</title></head><body><div id="root">'
    '<article data-content-page="{name}"><!--agency-page:{name}--></article></div></body></html>'
)


def small_build(tmp_path: Path) -> Path:
    """A build with the legal notice and the footer pages, as the web UI's prerender writes
    them (the server fills the page marker)."""
    web = tmp_path / "web"
    names = ["imprint", "privacy", "terms", "contact"]
    for name in names:
        (web / name).mkdir(parents=True)
        (web / name / "index.html").write_text(PAGE.format(name=name))
    (web / "index.html").write_text(PAGE.format(name="faq"))
    (web / "spa.html").write_text(PAGE.format(name="faq"))
    paths = ["/", *(f"/{name}" for name in names)]
    (web / "routes.json").write_text(
        json.dumps({"prerendered": paths, "spa": ["/start"], "sitemap": paths})
    )
    return web


async def pages(app: Any, *paths: str) -> dict[str, httpx.Response]:
    async with app.test_app(), web_client(app) as http:
        return {path: await http.get(path) for path in paths}


def text_of(response: httpx.Response) -> str:
    return html.unescape(response.text)


async def test_the_legal_notice_shows_the_configured_seller(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, "sqlite://:memory:", web_dir=small_build(tmp_path), **SELLER)
    got = await pages(create_app(settings), "/imprint", "/api/pages/imprint")
    page = got["/imprint"]
    assert page.status_code == 200
    text = text_of(page)
    for shown in [
        "Legal notice",
        "§ 5 DDG",
        SELLER_FULL_NAME,
        "Hafenstraße 7",
        "20457 Hamburg",
        "Represented by the managing director(s): Jana Kowalski, Tom Berger",
        "Pixelwerk is a brand of " + SELLER_FULL_NAME,
        "Register court: Amtsgericht Hamburg",
        "Register number: HRB 171717",
        f"(UStG): {SELLER_VAT_ID}",
        "§ 18(2) MStV",
        "Jana Kowalski, Elbchaussee 1, 22763 Hamburg, Germany",
        DISPUTE_STATEMENT,
    ]:
        assert shown in text, shown
    assert '<a href="mailto:kontakt@nordlicht.example">' in page.text
    assert '<a href="tel:+49405550123">+49 40 555 0123</a>' in page.text
    for absent in ["ec.europa.eu/consumers/odr", "ODR", "Demo Agentur", "Musterstraße"]:
        assert absent not in text, absent
    assert DEMO_NOTICE not in text  # real details: no demo notice
    over_api = got["/api/pages/imprint"].json()
    assert over_api["title"] == "Legal notice"
    assert SELLER_FULL_NAME in html.unescape(over_api["html"])


async def test_impressum_leads_to_the_legal_notice(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, "sqlite://:memory:", web_dir=small_build(tmp_path))
    got = await pages(create_app(settings), "/impressum")
    assert got["/impressum"].status_code == 301
    assert got["/impressum"].headers["location"] == "/imprint"


async def test_an_unregistered_sole_trader_without_vat_id_shows_only_what_applies(
    tmp_path: Path,
) -> None:
    sole = {
        **SELLER,
        "seller_legal_form": "",
        "seller_managing_directors": "",
        "seller_register_court": "",
        "seller_register_number": "",
        "seller_vat_id": "",
        "seller_editorial_name": "",
    }
    settings = make_settings(tmp_path, "sqlite://:memory:", web_dir=small_build(tmp_path), **sole)
    text = text_of((await pages(create_app(settings), "/imprint"))["/imprint"])
    assert "Nordlicht Webdesign" in text and "UG" not in text
    for absent in ["Register", "VAT", "managing director", "MStV"]:
        assert absent not in text, absent
    assert DISPUTE_STATEMENT in text


async def test_privacy_terms_and_contact_name_the_seller(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, "sqlite://:memory:", web_dir=small_build(tmp_path), **SELLER)
    got = await pages(create_app(settings), "/privacy", "/terms", "/contact")
    privacy = text_of(got["/privacy"])
    assert f"The controller of your data is {SELLER_FULL_NAME}, {SELLER_ADDRESS}" in privacy
    assert "The agency operating this website" not in privacy
    terms = text_of(got["/terms"])
    assert f'{SELLER_FULL_NAME}, {SELLER_ADDRESS} ("we"), trading as Pixelwerk' in terms
    contact = text_of(got["/contact"])
    assert f"{SELLER_FULL_NAME}, {SELLER_ADDRESS}." in contact
    # The pages' {email} is the seller's while contact_email is not set apart.
    assert 'href="mailto:kontakt@nordlicht.example"' in got["/contact"].text
    for page in got.values():
        assert 'href="/imprint"' in page.text
        assert "{seller_" not in page.text


async def test_seller_values_are_text_not_markdown_or_html(tmp_path: Path) -> None:
    tricky = {**SELLER, "seller_name": "*Nord* [Licht](https://evil.example) & _Co_"}
    settings = make_settings(tmp_path, "sqlite://:memory:", web_dir=small_build(tmp_path), **tricky)
    got = await pages(create_app(settings), "/privacy", "/imprint")
    for page in got.values():
        assert "*Nord* [Licht](https://evil.example) &amp; _Co_" in page.text
        assert 'evil.example"' not in page.text and "<em>" not in page.text


async def test_every_page_says_the_seller_details_are_demo_ones_until_configured(
    tmp_path: Path,
) -> None:
    build = small_build(tmp_path)
    demo = make_settings(tmp_path, "sqlite://:memory:", web_dir=build)
    paths = ("/", "/imprint", "/privacy", "/start", "/no-such-page")
    got = await pages(create_app(demo), *paths)
    for path in ("/", "/imprint", "/privacy", "/start"):
        body = got[path].text
        # Right after <body>, outside the app's root: no hydration mismatch, no shift.
        assert '<body><aside class="demo-notice" aria-label="Demo notice"><p>' in body, path
        assert body.index("demo-notice") < body.index('id="root"')
    assert "Demo Agentur GmbH" in text_of(got["/imprint"])
    real = make_settings(tmp_path, "sqlite://:memory:", web_dir=build, **SELLER)
    for path, response in (await pages(create_app(real), *paths)).items():
        assert "demo-notice" not in response.text, path


@pytest.mark.skipif(not (web_dir() / "routes.json").is_file(), reason="web UI not built")
async def test_the_built_site_has_the_legal_notice_in_its_sitemap_and_footer(
    tmp_path: Path, database_url: str
) -> None:
    settings = make_settings(tmp_path, database_url, web_dir=web_dir(), **SELLER)
    got = await pages(create_app(settings), "/sitemap.xml", "/imprint", "/")
    assert "/imprint</loc>" in got["/sitemap.xml"].text
    assert SELLER_FULL_NAME in text_of(got["/imprint"])
    assert '<a class="site-footer__link" href="/imprint">Legal notice</a>' in got["/"].text
    # The brand in the footer's copyright (a token the build renders, filled at start-up).
    assert "<!-- -->Pixelwerk<!-- -->. All rights reserved." in got["/imprint"].text
    assert '"brandName":"Pixelwerk"' in html.unescape(got["/imprint"].text)
