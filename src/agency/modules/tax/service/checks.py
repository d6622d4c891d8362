"""The tax settings' own checks (`Module.check_settings`) and what `agency doctor` reports."""

from __future__ import annotations

from agency.core.modules import Readiness
from agency.modules.tax.service.arithmetic import rate_text
from agency.modules.tax.settings import COUNTRY_NAMES, STANDARD_RATES, TaxSettings

MSG_SMALL_BUSINESS_OSS = (
    "the small-business rule (vat_mode = small_business) charges no VAT, so there is no VAT "
    "to pay through the One-Stop-Shop: turn vat_oss off, or use vat_mode = standard"
)
MSG_SMALL_BUSINESS_STRIPE_TAX = (
    "the small-business rule (vat_mode = small_business) charges no VAT: turn stripe_tax off, "
    "or Stripe Tax would add VAT at checkout"
)


def check_settings(settings: TaxSettings) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if settings.vat_mode == "small_business" and settings.vat_oss:
        problems.append(("vat_oss", MSG_SMALL_BUSINESS_OSS))
    if settings.vat_mode == "small_business" and settings.stripe_tax:
        problems.append(("stripe_tax", MSG_SMALL_BUSINESS_STRIPE_TAX))
    return problems


def describe(settings: TaxSettings) -> str:
    """The set-up in one sentence."""
    if settings.vat_mode == "small_business":
        return "small business (§ 19 UStG): no VAT charged"
    country = settings.vat_country
    parts = [
        f"VAT charged, {COUNTRY_NAMES[country]} {rate_text(STANDARD_RATES[country])}",
        "prices entered gross" if settings.prices_include_vat else "prices entered net",
        "Stripe Tax on" if settings.stripe_tax else "Stripe Tax off",
        "One-Stop-Shop" if settings.vat_oss else "no One-Stop-Shop",
    ]
    return ", ".join(parts)


def readiness(settings: TaxSettings) -> tuple[Readiness, ...]:
    setup = Readiness("VAT", True, False, describe(settings))
    if settings.vat_mode != "standard":
        return (setup,)
    topic = "VAT ID checks (VIES)"
    if settings.vies_requester_vat_id:
        return (setup, Readiness(topic, True, False, "qualified checks with consultation numbers"))
    return (
        setup,
        Readiness(
            topic,
            False,
            False,
            "optional: VAT IDs are checked without a consultation number (the evidence a tax "
            "audit asks for)",
            "set AGENCY_VIES_REQUESTER_VAT_ID (the agency's own VAT ID)",
        ),
    )
