"""Who pays which VAT on a sale (`treatment`) and the gross/net/VAT split of an amount in cents.

Money is integer cents, rates integer basis points (1900 = 19 %). A split rounds half up (away
from zero) once per line; a total is the sum of its lines, never recomputed from a summed amount.

- `inclusive` (a gross amount given): vat = round(gross * rate / (10000 + rate)), net = gross - vat.
- `exclusive` (a net amount given): vat = round(net * rate / 10000), gross = net + vat.

`quote_line` applies a treatment to a catalogue price. With gross catalogue prices
(`prices_include_vat`) the gross stays what the page shows whatever the rate: a reverse-charge
or non-EU buyer (rate 0) pays the full price as net, and a consumer taxed at another country's
rate (One-Stop-Shop) pays the same gross with a different VAT share. That is Stripe's rule for
`tax_behavior=inclusive` Prices; the agency absorbs the difference. With net prices the buyer
pays the net price plus their VAT, and a rate-0 buyer pays the net price only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final, Literal

from agency.modules.tax.settings import (
    COUNTRY_NAMES,
    EU_COUNTRIES,
    STANDARD_RATES,
    TaxSettings,
)

Kind = Literal["standard", "reverse_charge", "small_business", "outside_eu"]
BASIS: Final = 10000

MSG_SMALL_BUSINESS: Final = "No VAT is charged (small business, § 19 UStG)."
MSG_REVERSE_CHARGE: Final = (
    "Reverse charge: no VAT is charged; the customer accounts for the VAT "
    "(Steuerschuldnerschaft des Leistungsempfängers)."
)
MSG_OUTSIDE_EU: Final = "No VAT is charged: the buyer is outside the EU."
MSG_ID_PENDING: Final = " VAT is charged until your VAT ID is confirmed."
MSG_ID_INVALID: Final = " VAT is charged: the VAT ID could not be confirmed."


@dataclass(frozen=True)
class Amounts:
    """One line's or a total's money in cents: net + vat == gross."""

    net: int
    vat: int
    gross: int

    def __add__(self, other: Amounts) -> Amounts:
        return Amounts(self.net + other.net, self.vat + other.vat, self.gross + other.gross)


@dataclass(frozen=True)
class Treatment:
    """The VAT of a sale: the rate (basis points), why (`kind`), a sentence for the buyer, and
    the country whose VAT is charged (standard) or the buyer's country (the others)."""

    rate_bp: int
    kind: Kind
    note: str
    country: str


def _div_half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded half away from zero (denominator > 0)."""
    sign = -1 if numerator < 0 else 1
    return sign * ((2 * abs(numerator) + denominator) // (2 * denominator))


def split(amount_cents: int, rate_bp: int, *, inclusive: bool) -> Amounts:
    """Split one amount: a gross one (`inclusive`) into net and VAT, or a net one into VAT and
    gross; VAT rounded half up to the cent."""
    if rate_bp < 0:
        raise ValueError("a VAT rate cannot be negative")
    if inclusive:
        vat = _div_half_up(amount_cents * rate_bp, BASIS + rate_bp)
        return Amounts(net=amount_cents - vat, vat=vat, gross=amount_cents)
    vat = _div_half_up(amount_cents * rate_bp, BASIS)
    return Amounts(net=amount_cents, vat=vat, gross=amount_cents + vat)


def total(lines: list[Amounts]) -> Amounts:
    """The sum of lines (each rounded on its own)."""
    result = Amounts(0, 0, 0)
    for line in lines:
        result = result + line
    return result


def quote_line(price_cents: int, treatment: Treatment, *, prices_include_vat: bool) -> Amounts:
    """What a buyer pays for a catalogue price under `treatment` (see the module docstring)."""
    return split(price_cents, treatment.rate_bp, inclusive=prices_include_vat)


def rate_text(rate_bp: int) -> str:
    """A rate as the English texts write it: "19 %", "5.5 %", "25.5 %"."""
    whole, rest = divmod(rate_bp, 100)
    if not rest:
        return f"{whole} %"
    return f"{whole}.{rest:02d}".rstrip("0") + " %"


def _country(code: str | None, home: str) -> str:
    text = (code or "").strip().upper()
    if text == "EL":
        return "GR"
    if text not in _territories():
        return home  # unknown: the agency's own country (VAT is charged)
    return text


@functools.cache
def _territories() -> frozenset[str]:
    """The two-letter country codes CLDR knows (Babel), without its groupings (EU, UN...)."""
    from babel import Locale

    names = [str(code) for code in Locale.parse("en").territories]
    return frozenset(
        code for code in names if len(code) == 2 and code.isalpha() and code not in _GROUPS
    )


_GROUPS: Final = frozenset({"EU", "EZ", "UN", "QO", "ZZ"})


def _standard(country: str, extra: str = "") -> Treatment:
    rate = STANDARD_RATES[country]
    note = f"{rate_text(rate)} VAT ({COUNTRY_NAMES[country]})." + extra
    return Treatment(rate_bp=rate, kind="standard", note=note, country=country)


def treatment(
    settings: TaxSettings,
    *,
    buyer_type: str,
    country: str | None,
    vat_id_status: str | None,
) -> Treatment:
    """The VAT of a sale to a `buyer_type` ("consumer" or "business") in `country` (ISO code;
    empty or unknown: the agency's own) whose VAT ID VIES found `vat_id_status` ("valid",
    "invalid", "pending", None: none given). Never 0 % on a VAT ID VIES has not confirmed."""
    home = settings.vat_country
    buyer_country = _country(country, home)
    if settings.vat_mode == "small_business":
        return Treatment(0, "small_business", MSG_SMALL_BUSINESS, buyer_country)
    if buyer_country not in EU_COUNTRIES:
        return Treatment(0, "outside_eu", MSG_OUTSIDE_EU, buyer_country)
    if buyer_type == "business" and buyer_country == home:
        return _standard(home)
    if buyer_type == "business" and vat_id_status == "valid":
        return Treatment(0, "reverse_charge", MSG_REVERSE_CHARGE, buyer_country)
    extra = ""
    if buyer_type == "business":
        extra = {"pending": MSG_ID_PENDING, "invalid": MSG_ID_INVALID}.get(vat_id_status or "", "")
    return _standard(buyer_country if settings.vat_oss else home, extra)
