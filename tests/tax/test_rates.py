"""The EU's standard rates: the module's table against the package it was taken from."""

from __future__ import annotations

import eu_vat_rates_data
import pytest

from agency.modules.tax import api as tax


def test_the_table_is_the_27_member_states() -> None:
    assert len(tax.EU_COUNTRIES) == 27
    assert set(tax.eu_rates()) == tax.EU_COUNTRIES
    assert list(tax.eu_rates()) == sorted(tax.EU_COUNTRIES)


def test_the_table_matches_eu_vat_rates_data() -> None:
    """A release of eu-vat-rates-data that changes a rate fails here: update the table in
    agency/modules/tax/settings.py (and its date) to follow it."""
    theirs = {
        code: round(rate["standard"] * 100)
        for code, rate in eu_vat_rates_data.get_all_rates().items()
        if rate["eu_member"]
    }
    assert tax.eu_rates() == dict(sorted(theirs.items()))
    assert eu_vat_rates_data.data_version >= tax.RATES_DATE


@pytest.mark.parametrize(
    ("country", "rate"),
    [("DE", 1900), ("de", 1900), ("FR", 2000), ("AT", 2000), ("NL", 2100), ("IT", 2200),
     ("ES", 2100), ("FI", 2550), ("EE", 2400), ("RO", 2100), ("SK", 2300), ("GR", 2400),
     ("EL", 2400), ("HU", 2700), ("LU", 1700)],
)  # fmt: skip
def test_current_rates(country: str, rate: int) -> None:
    assert tax.standard_rate(country) == rate


@pytest.mark.parametrize("country", ["GB", "CH", "NO", "US", "XI", "", "EU", "DEU", "1"])
def test_no_rate_outside_the_eu(country: str) -> None:
    assert tax.standard_rate(country) is None
