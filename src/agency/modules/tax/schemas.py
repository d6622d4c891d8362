"""The tax module's shapes: the public API's request and answers, and the data handed to other
modules (`VatIdResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from agency.core.text import Line

VatIdStatus = Literal["valid", "invalid", "pending"]


@dataclass(frozen=True)
class VatIdResult:
    """What is known of a VAT ID: `status` is VIES's answer (`valid`, `invalid`) or `pending`
    while VIES has not answered; `checked_at` is when VIES answered (when it was asked, for a
    pending one); `message` is the sentence for the buyer."""

    vat_id: str
    country: str
    status: VatIdStatus
    name: str | None
    address: str | None
    checked_at: datetime
    message: str
    request_identifier: str | None = None


class VatIdIn(BaseModel):
    vat_id: Line = Field(max_length=64, description='The VAT ID as typed ("DE 136 695 976").')


class VatIdOut(BaseModel):
    vat_id: str = Field(description='Compact, with its country prefix: "DE136695976".')
    country: str = Field(description='ISO country code of the VAT ID ("GR" for "EL...").')
    status: VatIdStatus = Field(
        description="VIES's answer, or `pending` while VIES does not answer (VAT is charged "
        "until it confirms the ID)."
    )
    name: str | None
    address: str | None
    checked_at: datetime
    message: str


class TaxDisplay(BaseModel):
    """How prices are shown: the public block of `GET /api/catalogue` and `GET /api/tax`."""

    vat_mode: Literal["standard", "small_business"]
    prices_include_vat: bool = Field(description="Catalogue prices are gross (incl. VAT).")
    vat_country: str = Field(description="The agency's country (ISO code).")
    vat_country_rate: int = Field(description="Its standard rate in basis points (1900 = 19 %).")
    vat_oss: bool = Field(description="EU consumers pay their own country's VAT.")
    default_buyer_type: Literal["consumer", "business"]
    locale: str = Field(description="The locale prices are formatted in (`en-IE`).")
    rates: dict[str, int] = Field(
        description="The EU member states' standard rates in basis points, by ISO code."
    )
