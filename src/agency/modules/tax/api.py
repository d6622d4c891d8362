"""What other modules may use of tax (plain functions and data, no Quart): the settings class,
the EU's standard rates, who pays which VAT (`treatment`), the gross/net split in cents
(`split`, `quote_line`), prices formatted for a locale (`format_money`, `format_rate`), VAT IDs
(`normalise_vat_id`, `check_vat_id` with VIES) and the public tax block (`tax_display`)."""

from __future__ import annotations

from typing import Any

from agency.core.settings import Settings, as_settings
from agency.modules.tax.schemas import TaxDisplay, VatIdResult
from agency.modules.tax.service import display, vatids
from agency.modules.tax.service.arithmetic import (
    MSG_OUTSIDE_EU,
    MSG_REVERSE_CHARGE,
    MSG_SMALL_BUSINESS,
    Amounts,
    Treatment,
    quote_line,
    rate_text,
    split,
    total,
)
from agency.modules.tax.service.arithmetic import treatment as _treatment
from agency.modules.tax.service.money import format_money, format_rate
from agency.modules.tax.service.vatids import (
    MSG_VAT_ID_INVALID,
    MSG_VIES_DOWN,
    cached_vat_id,
    normalise_vat_id,
    vat_id_country,
)
from agency.modules.tax.settings import (
    COUNTRY_NAMES,
    EU_COUNTRIES,
    RATES_DATE,
    RATES_SOURCE,
    STANDARD_RATES,
    TaxSettings,
)

__all__ = [
    "COUNTRY_NAMES",
    "EU_COUNTRIES",
    "MSG_OUTSIDE_EU",
    "MSG_REVERSE_CHARGE",
    "MSG_SMALL_BUSINESS",
    "MSG_VAT_ID_INVALID",
    "MSG_VIES_DOWN",
    "RATES_DATE",
    "RATES_SOURCE",
    "Amounts",
    "TaxDisplay",
    "TaxSettings",
    "Treatment",
    "VatIdResult",
    "cached_vat_id",
    "check_vat_id",
    "eu_rates",
    "format_money",
    "format_rate",
    "normalise_vat_id",
    "quote_line",
    "rate_text",
    "split",
    "standard_rate",
    "tax_display",
    "total",
    "treatment",
    "vat_id_country",
]


def standard_rate(country: str) -> int | None:
    """The standard VAT rate of an EU member state in basis points (1900 = 19 %); None outside
    the EU or for anything that is not a country code ("EL" is read as Greece, "GR")."""
    code = country.strip().upper() if isinstance(country, str) else ""
    return STANDARD_RATES.get("GR" if code == "EL" else code)


def eu_rates() -> dict[str, int]:
    """Every member state's standard rate in basis points, by ISO code in alphabetical order."""
    return dict(sorted(STANDARD_RATES.items()))


def treatment(
    settings: Settings, *, buyer_type: str, country: str | None, vat_id_status: str | None
) -> Treatment:
    """The VAT of a sale to a `buyer_type` ("consumer" or "business") in `country` (ISO code;
    empty or unknown: the agency's own) whose VAT ID VIES found `vat_id_status` ("valid",
    "invalid", "pending", or None: none given). Never 0 % on an ID VIES has not confirmed."""
    return _treatment(
        as_settings(TaxSettings, settings),
        buyer_type=buyer_type,
        country=country,
        vat_id_status=vat_id_status,
    )


async def check_vat_id(settings: Settings, raw: str) -> VatIdResult:
    """Check a VAT ID as typed: its syntax and check digits (raises `ValidationFailed`, field
    `vat_id`, `MSG_VAT_ID_INVALID`), then VIES (cached `vies_cache_hours`); VIES down: `pending`
    and re-checked by a job. Never `valid` unless VIES said so."""
    return await vatids.check_vat_id(as_settings(TaxSettings, settings), raw)


def tax_display(settings: Settings) -> dict[str, Any]:
    """The public tax block (`GET /api/catalogue`'s `tax`, `GET /api/tax`) as a JSON-ready dict."""
    return display.tax_display_dict(as_settings(TaxSettings, settings))
