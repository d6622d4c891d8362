"""Prices and rates formatted for a locale with Babel (CLDR), the server's half of "the same
output in the browser": the web UI formats with `Intl.NumberFormat`, and both read CLDR
(tests/tax/money_formats.json pins the strings both must produce, NBSP included)."""

from __future__ import annotations

import functools
from decimal import Decimal

from agency.modules.tax.settings import DEFAULT_LOCALE, known_locale

# Locales that group a four-digit number's thousands only from five digits on ("1234,56 €",
# but "12.345,67 €"): CLDR's `minimumGroupingDigits` = 2. Babel 2.18 does not implement that
# CLDR field (it groups every number), while ICU (`Intl.NumberFormat`, Node 20.20 with ICU 78.2
# / CLDR 48) does; this list, taken from ICU for the EU's languages, makes the two agree.
MIN_GROUPING_2 = frozenset({"bg", "es", "et", "hu", "it", "lv", "pl", "sl", "pt_PT"})


@functools.lru_cache(maxsize=64)
def _locale(tag: str) -> str:
    """Babel's name of a locale tag ("de-DE" -> "de_DE"); an unknown one: the default's."""
    tag = tag.strip().replace("_", "-")
    if not known_locale(tag):
        tag = DEFAULT_LOCALE
    return tag.replace("-", "_")


def format_money(cents: int, currency: str, locale: str) -> str:
    """`cents` of `currency` ("eur"/"EUR") as the locale writes a price: "€1,234.56" (en-IE),
    "1.234,56 €" (de-DE, with a no-break space), "€ 1.234,56" (de-AT, nl-NL...). Always two
    decimals for the euro (the currency's own number of digits otherwise)."""
    from babel.numbers import format_currency

    name = _locale(locale)
    amount = Decimal(cents).scaleb(-2)
    grouped = abs(amount) >= 10000 or not _min_grouping_2(name)
    return str(format_currency(amount, currency.upper(), locale=name, group_separator=grouped))


def _min_grouping_2(name: str) -> bool:
    return name in MIN_GROUPING_2 or name.split("_")[0] in MIN_GROUPING_2


def format_rate(rate_bp: int, locale: str) -> str:
    """A rate in basis points as the locale writes a percentage: "19%" (en), "19 %" (de, fr,
    with a no-break space), "5,5 %" (de), "25.5%" (en); never more than two decimals (the
    rates have none beyond basis points)."""
    from babel.numbers import format_percent

    value = Decimal(rate_bp).scaleb(-4)
    # The locale's own pattern (its spacing), without rounding away 5.5 % or 25.5 %.
    return str(format_percent(value, locale=_locale(locale), decimal_quantization=False))
