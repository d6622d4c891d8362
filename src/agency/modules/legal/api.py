"""What other modules may use of the seller: the settings class to extend, the details as text
for their pages, and the production guard's check for a module that knows of another reason to
count as production (billing: a live Stripe key)."""

from __future__ import annotations

from agency.core.settings import Settings, as_settings
from agency.modules.legal import service
from agency.modules.legal.settings import LegalSettings

__all__ = ["LegalSettings", "demo_problems", "imprint_html", "invoice_footer", "placeholders"]


def imprint_html(settings: Settings) -> str:
    """The legal notice (`/imprint`) as HTML."""
    return service.imprint_html(as_settings(LegalSettings, settings))


def invoice_footer(settings: Settings) -> str:
    """The seller's details for the foot of an invoice, as plain lines (the e-mails' footer
    text: name with legal form, address, managing directors, register, VAT ID, e-mail)."""
    return service.mail_footer(as_settings(LegalSettings, settings)).text


def placeholders(settings: Settings) -> dict[str, str]:
    """The seller placeholders of the Markdown pages (`seller_name`, `seller_address`, ...) and
    their plain-text values."""
    return service.placeholders(as_settings(LegalSettings, settings))


def demo_problems(settings: Settings, reason: str) -> list[tuple[str, str]]:
    """(key, message) for each demo seller detail left, for a `check_settings` hook that has
    found the configuration to be production for `reason`; empty outside
    `AGENCY_ENV=production`'s own check (which the legal module reports itself)."""
    legal = as_settings(LegalSettings, settings)
    if legal.env == "production":
        return []  # already reported by the legal module's own check
    return service.demo_problems(legal, reason)
