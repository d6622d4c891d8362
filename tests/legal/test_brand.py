"""The configured brand (brand_name) wherever the product names itself to visitors and
e-mail recipients: the logo, every page's <title> and og:site_name, the blog's titles and
structured data, and the e-mails' texts and subject. The default brand ("agency") keeps a
fresh install as it was."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from agency.app import create_app
from agency.core import mail
from agency.core.paths import PACKAGE_DIR, web_dir
from agency.modules.blog.service import pages as blog_pages
from agency.modules.catalogue import service as catalogue_service
from agency.modules.legal.service import mail_footer
from agency.settings import Settings
from tests.conftest import make_settings, web_client
from tests.core.mail_headers import delivered, mailing_settings
from tests.fakes.smtp import SmtpServer
from tests.helpers.http import call, sign_up
from tests.legal.seller import SELLER

BUILT = pytest.mark.skipif(not (web_dir() / "routes.json").is_file(), reason="web UI not built")
# Prerendered pages, a server page (/start), a client-only page (the SPA shell), the blog.
PATHS = ("/", "/login", "/imprint", "/start", "/dashboard", "/blog")


async def pages(app: Any, *paths: str) -> dict[str, httpx.Response]:
    async with app.test_app(), web_client(app) as http:
        # As `agency serve` does on a fresh install: /start then shows the prerendered page
        # (with an empty catalogue it would be the client shell).
        await catalogue_service.seed_if_empty()
        return {path: await http.get(path) for path in paths}


def title_of(page: str) -> str:
    match = re.search(r"<title>([^<]*)</title>", page)
    assert match, "no <title>"
    return html.unescape(match.group(1))


@BUILT
async def test_the_built_pages_name_the_configured_brand(tmp_path: Path, database_url: str) -> None:
    settings = make_settings(tmp_path, database_url, web_dir=web_dir(), **SELLER)
    for path, response in (await pages(create_app(settings), *PATHS)).items():
        page = response.text
        assert response.status_code == 200, path
        assert "__AGENCY_BRAND__" not in page, path
        title = title_of(page)
        assert title == "Pixelwerk" or title.endswith(" | Pixelwerk"), (path, title)
        if path == "/dashboard":
            continue  # the SPA shell: the client renders the page and its head
        assert '<meta property="og:site_name" content="Pixelwerk"' in page, path
        assert 'aria-label="Pixelwerk home"' in page, path
        assert '<span class="logo__word">Pixelwerk</span>' in page, path
        assert ">agency<" not in page and "| agency" not in page, path
        assert '"brandName":"Pixelwerk"' in html.unescape(page), path  # what hydration reads


@BUILT
async def test_a_brand_with_special_characters_is_escaped(
    tmp_path: Path, database_url: str
) -> None:
    brand = 'Pixel & "Werk"'
    settings = make_settings(
        tmp_path, database_url, web_dir=web_dir(), **{**SELLER, "brand_name": brand}
    )
    got = await pages(create_app(settings), "/login", "/about")
    login = got["/login"].text
    assert title_of(login) == f"Log in | {brand}"
    assert '<span class="logo__word">Pixel &amp; &quot;Werk&quot;</span>' in login
    assert 'content="Log in to your Pixel &amp; &quot;Werk&quot; dashboard' in login
    about = got["/about"].text
    assert f"{brand} is a small European digital agency" in html.unescape(about)


@BUILT
async def test_a_fresh_install_still_says_agency(tmp_path: Path, database_url: str) -> None:
    settings = make_settings(tmp_path, database_url, web_dir=web_dir())
    page = (await pages(create_app(settings), "/login"))["/login"].text
    assert title_of(page) == "Log in | agency"
    assert '<span class="logo__word">agency</span>' in page
    assert 'content="Log in to your agency dashboard' in page


def test_the_blog_titles_name_the_brand_of_the_built_page() -> None:
    template = (
        "<html><head><title>Blog | Pixel &amp; Werk</title>"
        '<meta property="og:site_name" content="Pixel &amp; Werk"/></head>'
        "<body><!--agency-blog--></body></html>"
    )
    assert blog_pages.site_name(template) == "Pixel & Werk"
    assert blog_pages.site_name("<html></html>") == "agency"


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, smtp: SmtpServer) -> Settings:
    # A bare sender address: the brand becomes its display name.
    return mailing_settings(
        tmp_path, database_url, smtp, mail_from="kontakt@nordlicht.example", **SELLER
    )


async def test_the_password_reset_mail_names_the_brand(app: Any, smtp: SmtpServer) -> None:
    client = app.test_client()
    await sign_up(client)
    status, _ = await call(
        client, "post", "/api/auth/forgot-password", {"email": "ada@example.com"}
    )
    assert status == 202
    await delivered(app)
    [message] = smtp.inbox.messages
    assert message["Subject"] == "Reset your Pixelwerk password"
    assert message["From"] == "Pixelwerk <kontakt@nordlicht.example>"
    text = smtp.inbox.text_of(message)
    assert "your Pixelwerk account" in text and "The Pixelwerk team" in text
    html_part = message.get_body(preferencelist=("html",))
    assert html_part is not None
    body = str(html_part.get_content())
    assert "your Pixelwerk account" in body and "The Pixelwerk team" in body
    assert "agency" not in text.split("\n-- \n")[0]


SIGNED = ("password_reset", "speed_report", "site_score_drop", "analysis_report", "site_live")


def test_the_e_mails_sign_with_the_brand() -> None:
    folder = PACKAGE_DIR / "templates" / "email"
    for template in (*SIGNED, "order_confirmation"):
        for ext in ("txt", "html"):
            text = (folder / f"{template}.{ext}").read_text()
            assert "The {{ brand }} team" in text, (template, ext)
    assert not [p.name for p in folder.iterdir() if "The agency team" in p.read_text()]


def test_the_brand_is_escaped_in_html_and_the_default_without_a_seller(orm: str) -> None:
    context = {"first_name": "Ada", "reset_url": "http://x/r", "valid_minutes": 60}
    mail.set_footer(mail_footer(Settings(**{**SELLER, "brand_name": "Nord & Licht"})))
    try:
        subject, text, body = mail.render("password_reset", context)
    finally:
        mail.set_footer(None)
    assert subject == "Reset your Nord & Licht password"
    assert "The Nord & Licht team" in text
    assert "The Nord &amp; Licht team" in body and "your Nord &amp; Licht account" in body
    subject, text, _ = mail.render("password_reset", context)  # no seller configured
    assert subject == "Reset your agency password" and "The agency team" in text


def test_a_sender_with_its_own_display_name_keeps_it(orm: str) -> None:
    mail.set_footer(mail_footer(Settings(**{**SELLER, "brand_name": 'Nord "Licht"'})))
    try:
        assert mail.sender("Team Nord <a@nord.example>") == "Team Nord <a@nord.example>"
        assert mail.sender("a@nord.example") == '"Nord \\"Licht\\"" <a@nord.example>'
    finally:
        mail.set_footer(None)
    assert mail.sender("a@nord.example") == "a@nord.example"  # no seller: as configured
