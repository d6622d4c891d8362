"""A real-looking seller (no demo value left) for the legal module's tests."""

from __future__ import annotations

SELLER = {
    "brand_name": "Pixelwerk",
    "seller_name": "Nordlicht Webdesign",
    "seller_legal_form": "UG (haftungsbeschränkt)",
    "seller_street": "Hafenstraße 7",
    "seller_postcode": "20457",
    "seller_city": "Hamburg",
    "seller_country": "Germany",
    "seller_managing_directors": "Jana Kowalski, Tom Berger",
    "seller_email": "kontakt@nordlicht.example",
    "seller_phone": "+49 40 555 0123",
    "seller_register_court": "Amtsgericht Hamburg",
    "seller_register_number": "HRB 171717",
    "seller_vat_id": "DE 812 345 678",
    "seller_editorial_name": "Jana Kowalski",
    "seller_editorial_address": "Elbchaussee 1, 22763 Hamburg, Germany",
}
SELLER_FULL_NAME = "Nordlicht Webdesign UG (haftungsbeschränkt)"
SELLER_ADDRESS = "Hafenstraße 7, 20457 Hamburg, Germany"
SELLER_VAT_ID = "DE812345678"
