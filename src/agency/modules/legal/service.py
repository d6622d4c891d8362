"""The seller's details put to use: the legal notice (`imprint_html`), the values of the
Markdown pages' seller placeholders, the e-mail footer, the demo notice every page carries while
a demo detail is left, the start-up checks (`check_settings`: required details, and no demo
detail in production) and what `agency doctor` reports."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from agency.core.mail import MailFooter
from agency.core.modules import Readiness
from agency.modules.legal.settings import (
    DEMO_MARKERS,
    DEMO_SELLER,
    REQUIRED_SELLER_KEYS,
    LegalSettings,
)

# §36 VSBG: the statement on consumer dispute resolution (no link to the EU's ODR platform: it
# was shut down on 20 July 2025).
DISPUTE_STATEMENT = (
    "We are neither willing nor obliged to take part in dispute resolution proceedings before "
    "a consumer arbitration board."
)
# One line even at 390 px, so that nothing a visitor needs moves below the fold.
DEMO_NOTICE = "Demo seller details: this is not a real company."
# The class the web UI's stylesheet gives the notice (webui/src/styles/base.css).
DEMO_NOTICE_HTML = (
    '<aside class="demo-notice" aria-label="Demo notice"><p>' + DEMO_NOTICE + "</p></aside>"
)
_BODY = re.compile(r"<body[^>]*>", re.IGNORECASE)


def env_key(key: str) -> str:
    return f"AGENCY_{key.upper()}"


def full_name(settings: LegalSettings) -> str:
    """The legal name with its form: "Demo Agentur GmbH"."""
    return f"{settings.seller_name} {settings.seller_legal_form}".strip()


def address_lines(settings: LegalSettings) -> list[str]:
    return [
        settings.seller_street,
        f"{settings.seller_postcode} {settings.seller_city}".strip(),
        settings.seller_country,
    ]


def address_line(settings: LegalSettings) -> str:
    """The address on one line: "Musterstraße 1, 10115 Berlin, Germany"."""
    return ", ".join(line for line in address_lines(settings) if line)


def register_line(settings: LegalSettings) -> str:
    """ "Amtsgericht Berlin-Charlottenburg, HRB 000000 B", or "" when not registered."""
    parts = [settings.seller_register_court, settings.seller_register_number]
    return ", ".join(part for part in parts if part)


def demo_keys(settings: LegalSettings) -> list[str]:
    """The seller keys still holding a shipped demo value no real seller has (`DEMO_MARKERS`:
    not the city or the legal form, which a real seller may share with the demo)."""
    return [key for key in DEMO_MARKERS if getattr(settings, key) == DEMO_SELLER[key]]


def demo_problems(settings: LegalSettings, reason: str) -> list[tuple[str, str]]:
    """(key, message) for every demo detail left, for a server that must not start with them
    (`reason`: why it counts as production, e.g. "AGENCY_ENV is production")."""
    problems = []
    for key in demo_keys(settings):
        what = "set the seller's real value"
        if key not in REQUIRED_SELLER_KEYS:
            what += ", or an empty one where it does not apply"
        problems.append((key, f"still the demo value {DEMO_SELLER[key]!r} while {reason}: {what}"))
    return problems


def check_settings(settings: LegalSettings) -> list[tuple[str, str]]:
    """What is wrong with the seller's details, as (settings key, message) pairs: a required
    one empty, a register court without number (or the other way round) and, in production
    (`AGENCY_ENV=production`), any demo detail left."""
    problems = [
        (key, "must not be empty: the legal notice and every e-mail name it")
        for key in REQUIRED_SELLER_KEYS
        if not getattr(settings, key)
    ]
    court, number = settings.seller_register_court, settings.seller_register_number
    if bool(court) != bool(number):
        key = "seller_register_number" if court else "seller_register_court"
        problems.append((key, "set both the register court and the number, or neither"))
    if settings.env == "production":
        problems += demo_problems(settings, "AGENCY_ENV is production")
    return problems


def _e(value: str) -> str:
    return html.escape(value, quote=True)


def _mail_link(address: str) -> str:
    return f'<a href="mailto:{_e(address)}">{_e(address)}</a>'


def _tel_link(phone: str) -> str:
    return f'<a href="tel:{_e(re.sub(r"[^+0-9]", "", phone))}">{_e(phone)}</a>'


def imprint_html(settings: LegalSettings) -> str:
    """The legal notice (§5 DDG, §18(2) MStV, §36 VSBG) as HTML, every value escaped."""
    name = full_name(settings)
    address = "<br>".join(_e(line) for line in address_lines(settings) if line)
    parts = [
        "<h1>Legal notice</h1>",
        "<p>Information according to § 5 DDG (German Digital Services Act).</p>",
        f"<p><strong>{_e(name)}</strong><br>{address}</p>",
    ]
    if settings.brand_name and settings.brand_name != name:
        parts.append(f"<p>{_e(settings.brand_name)} is a brand of {_e(name)}.</p>")
    if settings.seller_managing_directors:
        parts.append(
            f"<p>Represented by the managing director(s): "
            f"{_e(settings.seller_managing_directors)}</p>"
        )
    parts += [
        "<h2>Contact</h2>",
        f"<p>E-mail: {_mail_link(settings.seller_email)}<br>"
        f"Phone: {_tel_link(settings.seller_phone)}</p>",
    ]
    if settings.seller_register_number:
        parts += [
            "<h2>Register entry</h2>",
            f"<p>Register court: {_e(settings.seller_register_court)}<br>"
            f"Register number: {_e(settings.seller_register_number)}</p>",
        ]
    if settings.seller_vat_id:
        parts += [
            "<h2>VAT ID</h2>",
            "<p>VAT identification number according to § 27a of the German VAT Act (UStG): "
            f"{_e(settings.seller_vat_id)}</p>",
        ]
    if settings.seller_editorial_name:
        where = settings.seller_editorial_address or address_line(settings)
        parts += [
            "<h2>Responsible for the editorial content</h2>",
            "<p>Responsible according to § 18(2) MStV (German Interstate Media Treaty): "
            f"{_e(settings.seller_editorial_name)}, {_e(where)}</p>",
        ]
    parts += ["<h2>Consumer dispute resolution</h2>", f"<p>{_e(DISPUTE_STATEMENT)}</p>"]
    return "\n".join(parts)


def placeholders(settings: LegalSettings) -> dict[str, str]:
    """What the Markdown pages' seller placeholders stand for, as plain text."""
    return {
        "seller_name": full_name(settings),
        "seller_address": address_line(settings),
        "seller_email": settings.seller_email,
        "seller_phone": settings.seller_phone,
        "seller_directors": settings.seller_managing_directors,
        "seller_register": register_line(settings),
        "seller_vat_id": settings.seller_vat_id,
        "brand_name": settings.brand_name,
    }


def mail_footer(settings: LegalSettings) -> MailFooter:
    """The seller's details closing every e-mail: name with legal form, address, register,
    VAT ID and contact e-mail."""
    lines = [full_name(settings), address_line(settings)]
    if settings.seller_managing_directors:
        lines.append(f"Managing director(s): {settings.seller_managing_directors}")
    if register_line(settings):
        lines.append(f"Register: {register_line(settings)}")
    if settings.seller_vat_id:
        lines.append(f"VAT ID: {settings.seller_vat_id}")
    lines.append(f"E-mail: {settings.seller_email}")
    html_lines = [_e(line) for line in lines[:-1]]
    html_lines.append(f"E-mail: {_mail_link(settings.seller_email)}")
    fragment = (
        '<p style="margin-top: 32px; padding-top: 12px; border-top: 1px solid #e5e7eb; '
        'color: #6b7280; font-size: 12px; line-height: 1.5;">' + "<br>".join(html_lines) + "</p>"
    )
    return MailFooter(
        text="\n".join(lines),
        html=fragment,
        context={"seller": seller(settings)},
        sender_name=settings.brand_name,
    )


def seller(settings: LegalSettings) -> dict[str, str]:
    """The seller as every e-mail template sees it (`seller.legal_name`, `seller.address`, ...)."""
    return {
        "legal_name": full_name(settings),
        "name": settings.seller_name,
        "brand": settings.brand_name,
        "address": address_line(settings),
        "email": settings.seller_email,
        "phone": settings.seller_phone,
        "managing_directors": settings.seller_managing_directors,
        "register": register_line(settings),
        "vat_id": settings.seller_vat_id,
    }


def shows_demo_notice(settings: LegalSettings) -> bool:
    return settings.env != "production" and bool(demo_keys(settings))


def html_filter(settings: LegalSettings, _extensions: dict[str, Any]) -> Callable[[str, str], str]:
    """Every built page with the demo notice right after `<body>` while a demo detail is left
    (outside React's root: it is in the HTML from the first byte, so nothing shifts, and
    hydration does not see it); pages unchanged once the real details are configured."""
    if not shows_demo_notice(settings):
        return lambda _relative, text: text

    def fill(_relative: str, text: str) -> str:
        return _BODY.sub(lambda m: m.group(0) + DEMO_NOTICE_HTML, text, count=1)

    return fill


def readiness(settings: LegalSettings) -> tuple[Readiness, ...]:
    left = demo_keys(settings)
    if not left:
        return (
            Readiness(
                "Seller details",
                True,
                True,
                f"{full_name(settings)}, {address_line(settings)}",
            ),
        )
    return (
        Readiness(
            "Seller details",
            False,
            True,
            f"{len(left)} demo value(s) left: pages show a demo notice, production refuses "
            "to start",
            "set " + ", ".join(env_key(key) for key in left),
        ),
    )
