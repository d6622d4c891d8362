"""The legal module's settings keys: the seller's details (§5 DDG, §18(2) MStV) and the brand.
The defaults are demo details: outside production (`AGENCY_ENV`) every page says so, and a
production server refuses to start while one is left (`service.demo_keys`)."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from agency.core.settings import Settings
from agency.core.text import is_line, valid_email

# The shipped demo details: each one still in place is named by the production guard.
DEMO_SELLER: dict[str, str] = {
    "seller_name": "Demo Agentur",
    "seller_legal_form": "GmbH",
    "seller_street": "Musterstraße 1",
    "seller_postcode": "10115",
    "seller_city": "Berlin",
    "seller_country": "Germany",
    "seller_managing_directors": "Erika Musterfrau",
    "seller_email": "hello@agency.local",
    "seller_phone": "+49 30 1234 5678",
    "seller_register_court": "Amtsgericht Berlin-Charlottenburg",
    "seller_register_number": "HRB 000000 B",
    "seller_vat_id": "DE000000000",
    "seller_editorial_name": "Erika Musterfrau",
}
# The demo values no real seller has (a real company may well be a GmbH in 10115 Berlin): the
# production guard and the demo notice look at these.
DEMO_MARKERS = (
    "seller_name",
    "seller_street",
    "seller_managing_directors",
    "seller_email",
    "seller_phone",
    "seller_register_number",
    "seller_vat_id",
    "seller_editorial_name",
)
# Keys that may not be empty (the rest are left empty where they do not apply: no register
# entry, no VAT ID, no editorial content, a sole trader without legal form or directors).
REQUIRED_SELLER_KEYS = (
    "seller_name",
    "seller_street",
    "seller_postcode",
    "seller_city",
    "seller_country",
    "seller_email",
    "seller_phone",
)
LINE_MAX = 200
PHONE = re.compile(r"^\+?[0-9][0-9 ()./-]{4,30}[0-9]$")
# An EU VAT identification number: the country prefix (EL for Greece, XI for Northern Ireland)
# and 2 to 13 letters or digits (§27a UStG: DE and nine digits).
VAT_ID = re.compile(r"^[A-Z]{2}[0-9A-Z+*]{2,13}$")
POSTCODE = re.compile(r"^[0-9A-Za-z][0-9A-Za-z -]{1,9}$")


class LegalSettings(Settings):
    """The kernel's keys and the legal module's."""

    brand_name: str = Field(
        default="agency",
        description="The name the site trades under: the logo, every page title, the "
        "footer's copyright, the legal notice and the e-mails (their texts and, for a bare "
        "`mail_from` address, the sender's name).",
    )
    seller_name: str = Field(
        default=DEMO_SELLER["seller_name"],
        description="The seller's legal name without its legal form (`Muster Webdesign`), or "
        "a sole trader's full name.",
    )
    seller_legal_form: str = Field(
        default=DEMO_SELLER["seller_legal_form"],
        description="Legal form written after the name (`GmbH`, `UG (haftungsbeschränkt)`, "
        "`e.K.`). Empty: none (a sole trader).",
    )
    seller_street: str = Field(
        default=DEMO_SELLER["seller_street"],
        description="Street and number of the address for service (no PO box).",
    )
    seller_postcode: str = Field(default=DEMO_SELLER["seller_postcode"], description="Postcode.")
    seller_city: str = Field(default=DEMO_SELLER["seller_city"], description="City.")
    seller_country: str = Field(default=DEMO_SELLER["seller_country"], description="Country.")
    seller_managing_directors: str = Field(
        default=DEMO_SELLER["seller_managing_directors"],
        description="Who represents the company (managing directors, comma-separated). Empty: "
        "none (a sole trader).",
    )
    seller_email: str = Field(
        default=DEMO_SELLER["seller_email"],
        description="The seller's e-mail for the legal notice, the privacy policy and e-mails "
        "(and the pages' `{email}` unless `contact_email` is set).",
    )
    seller_phone: str = Field(
        default=DEMO_SELLER["seller_phone"],
        description="The seller's phone number (and the pages' `{phone}` unless "
        "`contact_phone` is set).",
    )
    seller_register_court: str = Field(
        default=DEMO_SELLER["seller_register_court"],
        description="Register court (`Amtsgericht Berlin-Charlottenburg`). Empty with "
        "`seller_register_number`: not registered.",
    )
    seller_register_number: str = Field(
        default=DEMO_SELLER["seller_register_number"],
        description="Register number (`HRB 123456 B`). Empty with `seller_register_court`: "
        "not registered.",
    )
    seller_vat_id: str = Field(
        default=DEMO_SELLER["seller_vat_id"],
        description="VAT identification number (§27a UStG, `DE123456789`; not the tax number). "
        "Empty: none issued.",
    )
    seller_editorial_name: str = Field(
        default=DEMO_SELLER["seller_editorial_name"],
        description="Who is responsible for the editorial content (§18(2) MStV: the blog). "
        "Empty: not named.",
    )
    seller_editorial_address: str = Field(
        default="",
        description="That person's address, on one line. Empty: the seller's address.",
    )

    @field_validator(
        "brand_name",
        "seller_name",
        "seller_legal_form",
        "seller_street",
        "seller_city",
        "seller_country",
        "seller_managing_directors",
        "seller_register_court",
        "seller_register_number",
        "seller_editorial_name",
        "seller_editorial_address",
    )
    @classmethod
    def _check_seller_line(cls, value: str) -> str:
        value = " ".join(value.split())
        if not is_line(value, LINE_MAX):
            raise ValueError(f"must be one line of at most {LINE_MAX} characters")
        if any(c in value for c in "<>"):
            raise ValueError("must not contain angle brackets")
        return value

    @field_validator("brand_name")
    @classmethod
    def _check_brand_name(cls, value: str) -> str:
        if not value:  # already one line (above): every footer's copyright names it
            raise ValueError("must not be empty: every footer names the brand")
        return value

    @field_validator("seller_postcode")
    @classmethod
    def _check_seller_postcode(cls, value: str) -> str:
        value = " ".join(value.split())
        if value and not POSTCODE.match(value):
            raise ValueError("must be a postcode such as 10115")
        return value

    @field_validator("seller_email")
    @classmethod
    def _check_seller_email(cls, value: str) -> str:
        value = value.strip()
        if value and not valid_email(value):
            raise ValueError("must be an e-mail address such as hello@example.com")
        return value

    @field_validator("seller_phone")
    @classmethod
    def _check_seller_phone(cls, value: str) -> str:
        value = " ".join(value.split())
        if value and (not PHONE.match(value) or sum(c.isdigit() for c in value) < 6):
            raise ValueError("must be a phone number such as +49 30 1234 5678")
        return value

    @field_validator("seller_vat_id")
    @classmethod
    def _check_seller_vat_id(cls, value: str) -> str:
        value = "".join(value.split()).upper()
        if value and not VAT_ID.match(value):
            raise ValueError("must be a VAT identification number such as DE123456789")
        return value
