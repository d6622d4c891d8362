"""The tax module's settings keys: how the agency charges VAT. The defaults suit a German agency
that charges VAT (gross catalogue prices, Germany's rate, no One-Stop-Shop yet); an agency under
the small-business rule (§19 UStG) sets `vat_mode = "small_business"`. Not legal advice: the
keys make the set-ups possible, the tax adviser decides which applies."""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field, field_validator

from agency.core.settings import Settings, http_base

# ---- The EU member states and their standard VAT rates ------------------------------------
# The EU member states' standard VAT rates, in basis points (1900 = 19 %).
#
# Source: the package eu-vat-rates-data 2026.9.29 (data version 2026-09-29), which carries the
# European Commission's Taxes in Europe Database (TEDB). The table is kept here rather than read
# from the package at run time (no data file in the binary, integer rates): the test suite compares
# it with the installed package (tests/tax/test_rates.py), so a new release of the package that
# changes a rate fails the tests until this table follows. Checked against pyvat's stale values:
# FI 25.5 %, EE 24 %, RO 21 %, SK 23 % are the current ones.
#
# Country codes are ISO 3166-1 alpha-2: Greece is "GR" here (its VAT IDs start with "EL").

RATES_SOURCE: Final = "European Commission TEDB, via eu-vat-rates-data 2026.9.29"
RATES_DATE: Final = "2026-09-29"

STANDARD_RATES: Final[dict[str, int]] = {
    "AT": 2000,
    "BE": 2100,
    "BG": 2000,
    "CY": 1900,
    "CZ": 2100,
    "DE": 1900,
    "DK": 2500,
    "EE": 2400,
    "ES": 2100,
    "FI": 2550,
    "FR": 2000,
    "GR": 2400,
    "HR": 2500,
    "HU": 2700,
    "IE": 2300,
    "IT": 2200,
    "LT": 2100,
    "LU": 1700,
    "LV": 2100,
    "MT": 1800,
    "NL": 2100,
    "PL": 2300,
    "PT": 2300,
    "RO": 2100,
    "SE": 2500,
    "SI": 2200,
    "SK": 2300,
}

EU_COUNTRIES: Final[frozenset[str]] = frozenset(STANDARD_RATES)

# English names, for messages and the command line.
COUNTRY_NAMES: Final[dict[str, str]] = {
    "AT": "Austria",
    "BE": "Belgium",
    "BG": "Bulgaria",
    "CY": "Cyprus",
    "CZ": "Czechia",
    "DE": "Germany",
    "DK": "Denmark",
    "EE": "Estonia",
    "ES": "Spain",
    "FI": "Finland",
    "FR": "France",
    "GR": "Greece",
    "HR": "Croatia",
    "HU": "Hungary",
    "IE": "Ireland",
    "IT": "Italy",
    "LT": "Lithuania",
    "LU": "Luxembourg",
    "LV": "Latvia",
    "MT": "Malta",
    "NL": "Netherlands",
    "PL": "Poland",
    "PT": "Portugal",
    "RO": "Romania",
    "SE": "Sweden",
    "SI": "Slovenia",
    "SK": "Slovakia",
}


def standard_rate(country: str) -> int | None:
    """The standard VAT rate of an EU member state in basis points; None outside the EU (or for
    anything that is not a country code). "EL" (Greece's VAT prefix) is read as "GR"."""
    code = country.strip().upper()
    if code == "EL":
        code = "GR"
    return STANDARD_RATES.get(code)


def eu_rates() -> dict[str, int]:
    """Every member state's standard rate, by country code in alphabetical order."""
    return dict(sorted(STANDARD_RATES.items()))


# VAT ID prefixes: the member states' codes, with Greece's "EL" for "GR".
VAT_PREFIX_COUNTRY: Final[dict[str, str]] = {
    **{code: code for code in STANDARD_RATES if code != "GR"},
    "EL": "GR",
}


def valid_vat_id(raw: str) -> str | None:
    """An EU VAT ID in its compact form ("DE 136 695 976" -> "DE136695976"; Greece's "GR..." ->
    "EL...") when its country prefix is a member state's and its syntax and check digits are
    right (python-stdnum's `stdnum.eu.vat`); None otherwise. Says nothing about whether the
    number is issued: that is VIES's answer."""
    from stdnum.eu import vat
    from stdnum.exceptions import ValidationError

    text = raw.strip()
    if not text or len(text) > 40:
        return None
    if text[:2].upper() == "GR":  # Greece's ISO code for its VAT prefix EL, as people type it
        text = "EL" + text[2:]
    try:
        number = str(vat.validate(text))
    except (ValidationError, ValueError, TypeError, IndexError):
        return None
    if number[:2] not in VAT_PREFIX_COUNTRY:
        return None  # stdnum also knows XI (Northern Ireland), not a member state for services
    return number


def known_locale(tag: str) -> bool:
    """Whether Babel has the formats of the locale `tag` ("de-DE", "en_IE")."""
    from babel import Locale, UnknownLocaleError

    if not tag or len(tag) > 20:
        return False
    try:
        Locale.parse(tag.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return False
    return True


VatMode = Literal["standard", "small_business"]
BuyerType = Literal["consumer", "business"]
OFFICIAL_VIES_BASE = "https://ec.europa.eu/taxation_customs/vies/rest-api"
# The locales whose price formats the test suite pins (tests/tax/money_formats.json); any
# other locale Babel knows is accepted too.
DEFAULT_LOCALE = "en-IE"


def _country_list() -> str:
    return ", ".join(sorted(EU_COUNTRIES))


class TaxSettings(Settings):
    """The kernel's keys and the tax module's."""

    vat_mode: VatMode = Field(
        default="standard",
        description="`standard`: VAT is charged (through Stripe Tax when `stripe_tax` is on). "
        "`small_business`: the small-business rule (§19 UStG): no VAT is charged, and pages "
        "and invoices say so.",
    )
    stripe_tax: bool = Field(
        default=False,
        description="Checkout asks Stripe Tax to calculate the VAT (`automatic_tax`); the "
        "agency's registrations live in Stripe. `false`: no automatic tax (checkout still "
        "collects the billing address and the VAT ID).",
    )
    prices_include_vat: bool = Field(
        default=True,
        description="The catalogue's prices are gross, as consumers see them (Stripe Prices "
        "`tax_behavior=inclusive`); `false`: net prices (`exclusive`).",
    )
    vat_country: str = Field(
        default="DE",
        description="The agency's country (ISO code of an EU member state): its rate is shown "
        "until the buyer's country is known, and it is charged to consumers without the "
        "One-Stop-Shop.",
    )
    vat_oss: bool = Field(
        default=False,
        description="The agency uses the One-Stop-Shop: EU consumers pay their own country's "
        "VAT. `false`: they pay the agency's country's VAT (below the EU-wide €10,000 "
        "threshold of cross-border sales to consumers).",
    )
    default_buyer_type: BuyerType = Field(
        default="consumer",
        description="The price view a first visit sees: `consumer` (gross, incl. VAT) or "
        "`business` (net, excl. VAT); visitors switch and the choice is remembered.",
    )
    price_locale: str = Field(
        default=DEFAULT_LOCALE,
        description="The locale prices are formatted in on the server and, until the browser "
        "knows better, in the web UI (`en-IE`: €1,234.00; `de-DE`: 1.234,00 €).",
    )
    vies_api_base: str = Field(
        default=OFFICIAL_VIES_BASE,
        description="The EU's VIES REST API, which confirms VAT IDs (another address: a fake "
        "for tests).",
    )
    vies_timeout_seconds: float = Field(
        default=10.0,
        gt=0,
        le=60,
        description="How long one VIES request may take before the VAT ID is left pending.",
    )
    vies_cache_hours: int = Field(
        default=24,
        ge=0,
        le=24 * 365,
        description="How long a VIES answer (valid or invalid) is reused before VIES is asked "
        "again. 0: ask every time.",
    )
    vies_requester_vat_id: str = Field(
        default="",
        description="The agency's own VAT ID, sent with each VIES check so that VIES returns a "
        "consultation number (evidence for the tax office). Empty: simple checks.",
    )

    @field_validator("vat_country")
    @classmethod
    def _check_vat_country(cls, value: str) -> str:
        code = value.strip().upper()
        if code == "EL":
            code = "GR"
        if code not in EU_COUNTRIES:
            raise ValueError(
                f"{value.strip()[:20]!r} is not an EU member state's country code; use one "
                f"of {_country_list()}"
            )
        return code

    @field_validator("vies_api_base")
    @classmethod
    def _check_vies_base(cls, value: str) -> str:
        return http_base(value)

    @field_validator("vies_requester_vat_id")
    @classmethod
    def _check_requester(cls, value: str) -> str:
        value = "".join(value.split()).upper()
        if not value:
            return value
        number = valid_vat_id(value)
        if number is None:
            raise ValueError("must be a valid EU VAT ID such as DE123456789")
        return number

    @field_validator("price_locale")
    @classmethod
    def _check_locale(cls, value: str) -> str:
        tag = value.strip().replace("_", "-")
        if not known_locale(tag):
            raise ValueError(
                f"{value.strip()[:20]!r} is not a locale with price formats; use a tag such "
                "as en-IE, de-DE or fr-FR"
            )
        return tag
