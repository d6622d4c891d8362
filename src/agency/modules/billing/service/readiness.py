"""Whether payments are configured (`agency doctor`), and the production guard's second trigger:
a live Stripe key counts as production, so the seller's demo details refuse it too."""

from __future__ import annotations

from agency.core.modules import Readiness
from agency.core.settings import as_settings
from agency.modules.billing.settings import BillingSettings
from agency.modules.legal import api as legal_api
from agency.modules.tax import api as tax_api

LIVE_PREFIXES = ("sk_live_", "rk_live_")


def is_live(key: str) -> bool:
    return key.startswith(LIVE_PREFIXES)


def check_settings(settings: BillingSettings) -> list[tuple[str, str]]:
    """A live Stripe key takes real money: refuse it while a seller detail is a demo one."""
    if not is_live(settings.stripe_secret_key):
        return []
    return legal_api.demo_problems(settings, "AGENCY_STRIPE_SECRET_KEY is a live key")


def readiness(settings: BillingSettings) -> tuple[Readiness, ...]:
    return (*_payments(settings), _vat_at_checkout(settings))


def _vat_at_checkout(settings: BillingSettings) -> Readiness:
    """How checkout charges VAT (the tax module's keys), as far as billing can tell without
    asking Stripe: the registrations and the invoice numbering live in Stripe's dashboard."""
    tax = as_settings(tax_api.TaxSettings, settings)
    topic = "VAT at checkout (Stripe Tax)"
    gross = "gross (inclusive)" if tax.prices_include_vat else "net (exclusive)"
    if tax.vat_mode == "small_business":  # with stripe_tax on, the tax module refuses to start
        return Readiness(
            topic,
            True,
            False,
            "small-business rule (§19 UStG): no VAT is charged; invoices say "
            "'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.'",
        )
    if not tax.stripe_tax:
        return Readiness(
            topic,
            False,
            False,
            f"VAT is charged within the catalogue's {gross} prices, but Stripe does not "
            "calculate it: invoices show no VAT per rate and EU businesses are not "
            "reverse-charged",
            "add the agency's tax registrations in Stripe (Tax > Registrations), then set "
            "AGENCY_STRIPE_TAX=true",
        )
    if not settings.stripe_secret_key:
        return Readiness(
            topic,
            False,
            True,
            "AGENCY_STRIPE_TAX is on, but there is no Stripe key: nothing is sold",
            "set AGENCY_STRIPE_SECRET_KEY (see Payments)",
        )
    return Readiness(
        topic,
        True,
        True,
        f"Stripe Tax calculates VAT at checkout; catalogue prices are {gross}; Stripe Tax "
        "needs the agency's registrations (Tax > Registrations) and invoices need "
        "account-wide sequential numbering (Settings > Invoices)",
    )


def _payments(settings: BillingSettings) -> tuple[Readiness, ...]:
    key, secret = settings.stripe_secret_key, settings.stripe_webhook_secret
    topic = "Payments (Stripe)"
    if not key:
        return (
            Readiness(
                topic,
                False,
                True,
                "no secret key: checkout answers 'Payments are not set up yet.'",
                "set AGENCY_STRIPE_SECRET_KEY (sk_live_... or rk_live_...) and "
                "AGENCY_STRIPE_WEBHOOK_SECRET (whsec_... of the endpoint /api/billing/webhook)",
            ),
        )
    if not secret:
        return (
            Readiness(
                topic,
                False,
                True,
                "no webhook secret: payments are never confirmed, orders stay open",
                "set AGENCY_STRIPE_WEBHOOK_SECRET (whsec_... of the endpoint /api/billing/webhook)",
            ),
        )
    if not is_live(key) and settings.env == "production":
        return (
            Readiness(
                topic,
                False,
                True,
                "a test key in production: no real money is taken",
                "set AGENCY_STRIPE_SECRET_KEY to the live key (sk_live_... or rk_live_...)",
            ),
        )
    mode = "live" if is_live(key) else "test"
    return (Readiness(topic, True, True, f"{mode} key and webhook secret set"),)
