"""Prices and rates formatted with Babel: the strings of tests/tax/money_formats.json, which the
web UI's `Intl.NumberFormat` must produce too (its vitest reads the same file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agency.modules.tax import api as tax

FIXTURE = Path(__file__).parent / "money_formats.json"
CASES: dict[str, list[dict[str, Any]]] = json.loads(FIXTURE.read_text())
LOCALES = ["en-IE", "en-GB", "de-DE", "de-AT", "fr-FR", "nl-NL", "it-IT", "es-ES", "pl-PL"]


def test_the_fixture_covers_the_locales_and_amounts() -> None:
    assert {c["locale"] for c in CASES["money"]} == set(LOCALES)
    assert {0, 1, 99, 100, 123456, 99999999} <= {c["cents"] for c in CASES["money"]}
    assert {c["locale"] for c in CASES["rates"]} == set(LOCALES)


@pytest.mark.parametrize("case", CASES["money"], ids=lambda c: f"{c['locale']}-{c['cents']}")
def test_babel_still_formats_money_as_the_fixture_says(case: dict[str, Any]) -> None:
    assert tax.format_money(case["cents"], case["currency"], case["locale"]) == case["expected"]
    assert (
        tax.format_money(case["cents"], case["currency"].lower(), case["locale"])
        == (case["expected"])
    )


@pytest.mark.parametrize("case", CASES["rates"], ids=lambda c: f"{c['locale']}-{c['rate']}")
def test_babel_still_formats_rates_as_the_fixture_says(case: dict[str, Any]) -> None:
    assert tax.format_rate(case["rate"], case["locale"]) == case["expected"]


def test_examples_people_read() -> None:
    assert tax.format_money(123456, "EUR", "en-IE") == "€1,234.56"
    assert tax.format_money(123456, "eur", "de-DE") == "1.234,56\xa0€"
    assert tax.format_money(123456, "EUR", "de-AT") == "€\xa01.234,56"
    assert tax.format_money(2900, "EUR", "es-ES") == "29,00\xa0€"
    assert tax.format_money(123456, "EUR", "es-ES") == "1234,56\xa0€"  # minimum grouping 2
    assert tax.format_money(1234567, "EUR", "es-ES") == "12.345,67\xa0€"
    assert tax.format_rate(1900, "de-DE") == "19\xa0%"
    assert tax.format_rate(550, "en-IE") == "5.5%"


def test_an_unknown_locale_formats_as_the_default() -> None:
    assert tax.format_money(123456, "EUR", "xx-YY") == "€1,234.56"
    assert tax.format_money(123456, "EUR", "") == "€1,234.56"
    assert tax.format_rate(1900, "nonsense") == "19%"
