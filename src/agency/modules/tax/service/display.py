"""The tax block the web UI reads (in `GET /api/catalogue` and `GET /api/tax`): how prices are
shown, and every EU rate so that the page can show a buyer's country's VAT at once."""

from __future__ import annotations

from typing import Any

from agency.modules.tax.schemas import TaxDisplay
from agency.modules.tax.settings import STANDARD_RATES, TaxSettings


def tax_display(settings: TaxSettings) -> TaxDisplay:
    return TaxDisplay(
        vat_mode=settings.vat_mode,
        prices_include_vat=settings.prices_include_vat,
        vat_country=settings.vat_country,
        vat_country_rate=STANDARD_RATES[settings.vat_country],
        vat_oss=settings.vat_oss,
        default_buyer_type=settings.default_buyer_type,
        locale=settings.price_locale,
        rates=dict(sorted(STANDARD_RATES.items())),
    )


def tax_display_dict(settings: TaxSettings) -> dict[str, Any]:
    return tax_display(settings).model_dump()
