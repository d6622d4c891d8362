"""Every e-mail carries the seller's footer: name with legal form, address, register, VAT ID and
contact e-mail, in its text and its HTML part, on a real message through SMTP; the e-mail
templates also see the seller as `seller`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agency.core import mail
from agency.settings import Settings
from tests.core.mail_headers import delivered, mailing_settings
from tests.fakes.smtp import SmtpServer
from tests.helpers.http import call, sign_up
from tests.legal.seller import SELLER, SELLER_ADDRESS, SELLER_FULL_NAME, SELLER_VAT_ID

FOOTER_LINES = [
    SELLER_FULL_NAME,
    SELLER_ADDRESS,
    "Managing director(s): Jana Kowalski, Tom Berger",
    "Register: Amtsgericht Hamburg, HRB 171717",
    f"VAT ID: {SELLER_VAT_ID}",
    "E-mail: kontakt@nordlicht.example",
]


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, smtp: SmtpServer) -> Settings:
    return mailing_settings(tmp_path, database_url, smtp, **SELLER)


async def test_a_sent_e_mail_ends_with_the_seller_s_footer_in_both_parts(
    app: Any, smtp: SmtpServer
) -> None:
    client = app.test_client()
    await sign_up(client)
    status, _ = await call(
        client, "post", "/api/auth/forgot-password", {"email": "ada@example.com"}
    )
    assert status == 202
    [row] = await delivered(app)
    [message] = smtp.inbox.messages
    text = smtp.inbox.text_of(message).replace("\r\n", "\n")
    assert text.rstrip().endswith("\n".join(FOOTER_LINES))
    assert "\n-- \n" in text  # the signature separator: readers fold the footer
    assert text.index("/reset-password?token=") < text.index(SELLER_FULL_NAME)
    html_part = message.get_body(preferencelist=("html",))
    assert html_part is not None
    html = str(html_part.get_content())
    body_end = html.index("</body>")
    for line in [SELLER_FULL_NAME, SELLER_ADDRESS, "HRB 171717", SELLER_VAT_ID]:
        assert html.index(line) < body_end, line
    assert '<a href="mailto:kontakt@nordlicht.example">' in html
    assert html.index("Choose a new password") < html.index(SELLER_FULL_NAME)
    assert row.text.rstrip() == text.rstrip()  # the stored copy is what was sent


async def test_the_footer_is_escaped_in_html(tmp_path: Path, orm: str) -> None:
    from agency.modules.legal.service import mail_footer

    settings = Settings(**{**SELLER, "seller_name": "Nord & Licht", "brand_name": 'A"B'})
    footer = mail_footer(settings)
    assert "Nord &amp; Licht" in footer.html and "Nord & Licht" in footer.text
    assert footer.context["seller"]["legal_name"] == "Nord & Licht UG (haftungsbeschränkt)"


async def test_templates_see_the_seller_and_their_own_context_wins(orm: str) -> None:
    from agency.modules.legal.service import mail_footer

    mail.set_footer(mail_footer(Settings(**SELLER)))
    try:
        context = {"first_name": "Ada", "reset_url": "http://x/r", "valid_minutes": 60}
        _, text, html = mail.render("password_reset", context)
        assert SELLER_FULL_NAME in text and SELLER_FULL_NAME in html
        rendered = mail._templates.from_string("{{ seller.legal_name }}|{{ seller.vat_id }}")
        assert rendered.render(mail_footer(Settings(**SELLER)).context) == (
            f"{SELLER_FULL_NAME}|{SELLER_VAT_ID}"
        )
    finally:
        mail.set_footer(None)
    _, bare, _ = mail.render("password_reset", context)
    assert SELLER_FULL_NAME not in bare  # without a footer configured, none is added
