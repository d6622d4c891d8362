"""The buyer's country and VAT ID, at checkout and in a quote: checked, normalised and verified
(the tax module: python-stdnum, then VIES), and the VAT that applies to them (`tax.api.treatment`).

The country is any ISO 3166-1 alpha-2 code (an empty one: the agency's `vat_country`). A VAT ID
counts only for a business buyer in an EU country: its syntax and check digits are checked at
once (400 on the field `vat_id`), then VIES answers valid, invalid or pending (VIES not
answering). Invalid at checkout is refused; pending goes ahead with VAT charged, never 0 % on
an unverified ID. A VAT ID of another country than the one chosen is refused; without a chosen
country the VAT ID's country is the buyer's.
"""

from __future__ import annotations

from dataclasses import dataclass

from agency.core.errors import ValidationFailed
from agency.modules.tax import api as tax_api

# ISO 3166-1 alpha-2, as current in tzdata's iso3166.tab (ISO/TC 46 N1108, 2023-04-05), and
# XK (Kosovo, user-assigned, used by Stripe and the EU).
COUNTRIES = frozenset(
    """AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ
    BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO
    DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU
    GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW
    KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU
    MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW
    PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF
    TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT
    ZA ZM ZW""".split()  # noqa: SIM905 - a list of 250 quoted codes reads worse
)

MSG_COUNTRY = "Please choose a valid country."
MSG_VAT_ID_NOT_VALID = "This VAT ID is not valid according to the EU's VIES service."
MSG_VAT_ID_OTHER_COUNTRY = "This VAT ID is of another country than the one you chose."

BUSINESS = "business"


@dataclass(frozen=True)
class BuyerTax:
    """Who buys, where, with which VAT ID, and the VAT that applies."""

    buyer_type: str
    country: str
    vat_id: str | None  # normalised ("DE136695976"); None: none given, or not a business
    vat_id_status: str | None  # "valid" | "invalid" | "pending"; None: no VAT ID
    treatment: tax_api.Treatment


def clean_country(raw: str, settings: tax_api.TaxSettings) -> str:
    """The ISO code of `raw` ("fr" -> "FR"; empty: the agency's country); ValidationFailed
    (field `country`) for anything else."""
    code = raw.strip().upper()
    if not code:
        return settings.vat_country
    if code == "EL":  # Greece's VAT prefix, not its country code
        code = "GR"
    if code not in COUNTRIES:
        raise ValidationFailed(MSG_COUNTRY, fields={"country": MSG_COUNTRY})
    return code


def clean_vat_id(raw: str, *, buyer_type: str, country: str) -> str | None:
    """A business buyer's VAT ID in its compact form (syntax and check digits checked,
    ValidationFailed on the field `vat_id` otherwise); None when none is given, for a consumer
    (they have none to give), or for a buyer outside the EU (Stripe's checkout collects their
    tax ID; it changes nothing: no VAT either way). `country` may be empty (not chosen)."""
    if buyer_type != BUSINESS or not raw.strip():
        return None
    if country and country not in tax_api.EU_COUNTRIES:
        return None
    vat_id = tax_api.normalise_vat_id(raw)
    if country and tax_api.vat_id_country(vat_id) != country:
        raise ValidationFailed(
            MSG_VAT_ID_OTHER_COUNTRY, fields={"vat_id": MSG_VAT_ID_OTHER_COUNTRY}
        )
    return vat_id


async def resolve(
    settings: tax_api.TaxSettings,
    *,
    buyer_type: str,
    country: str,
    vat_id: str,
    refuse_invalid: bool,
) -> BuyerTax:
    """The buyer's country, VAT ID (checked with VIES) and treatment. `refuse_invalid`: a VAT
    ID that VIES says is not valid is refused (checkout) rather than reported (a quote)."""
    chosen = clean_country(country, settings) if country.strip() else ""
    number = clean_vat_id(vat_id, buyer_type=buyer_type, country=chosen)
    if not chosen:
        chosen = tax_api.vat_id_country(number) if number else settings.vat_country
    status: str | None = None
    if number is not None:
        result = await tax_api.check_vat_id(settings, number)
        status = result.status
        if status == "invalid" and refuse_invalid:
            raise ValidationFailed(
                MSG_VAT_ID_NOT_VALID, code="vat_id_invalid", fields={"vat_id": MSG_VAT_ID_NOT_VALID}
            )
    treatment = tax_api.treatment(
        settings, buyer_type=buyer_type, country=chosen, vat_id_status=status
    )
    return BuyerTax(
        buyer_type=buyer_type,
        country=chosen,
        vat_id=number,
        vat_id_status=status,
        treatment=treatment,
    )
