"""Gross/net/VAT arithmetic in cents (property tests) and who pays which VAT (`treatment`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.modules.tax import api as tax
from agency.settings import Settings

RATES = st.sampled_from(sorted({0, 550, 700, 1000, *tax.eu_rates().values()}))
CENTS = st.integers(min_value=0, max_value=10**10)


def settings(**overrides: Any) -> Any:
    return Settings(**overrides)


@given(CENTS, RATES, st.booleans())
def test_net_plus_vat_is_gross(amount: int, rate: int, inclusive: bool) -> None:
    line = tax.split(amount, rate, inclusive=inclusive)
    assert line.net + line.vat == line.gross
    assert line.vat >= 0 and line.net >= 0
    assert (line.gross if inclusive else line.net) == amount


@given(CENTS, RATES)
def test_vat_is_the_rate_of_the_net_rounded_half_up_per_line(amount: int, rate: int) -> None:
    exclusive = tax.split(amount, rate, inclusive=False)
    # Exact: |vat - net * rate| <= half a cent, ties up.
    assert 2 * abs(exclusive.vat * 10000 - amount * rate) <= 10000
    inclusive = tax.split(amount, rate, inclusive=True)
    assert 2 * abs(inclusive.vat * (10000 + rate) - amount * rate) <= 10000 + rate


@given(CENTS, RATES)
def test_inclusive_and_exclusive_round_trip_within_a_cent(amount: int, rate: int) -> None:
    net_given = tax.split(amount, rate, inclusive=False)
    back = tax.split(net_given.gross, rate, inclusive=True)
    assert abs(back.net - amount) <= 1
    gross_given = tax.split(amount, rate, inclusive=True)
    again = tax.split(gross_given.net, rate, inclusive=False)
    assert abs(again.gross - amount) <= 1


@given(st.lists(st.tuples(CENTS, RATES), max_size=20), st.booleans())
def test_the_total_is_the_sum_of_the_lines(lines: list[tuple[int, int]], inclusive: bool) -> None:
    amounts = [tax.split(a, r, inclusive=inclusive) for a, r in lines]
    total = tax.total(amounts)
    assert total.net == sum(a.net for a in amounts)
    assert total.vat == sum(a.vat for a in amounts)
    assert total.gross == sum(a.gross for a in amounts)
    assert total.net + total.vat == total.gross


@given(CENTS, st.booleans())
def test_rate_zero_leaves_the_amount_whole(amount: int, inclusive: bool) -> None:
    assert tax.split(amount, 0, inclusive=inclusive) == tax.Amounts(amount, 0, amount)


@given(st.integers(min_value=-(10**9), max_value=10**9), RATES, st.booleans())
def test_a_negative_amount_splits_as_the_mirror_of_its_positive(
    amount: int, rate: int, inclusive: bool
) -> None:
    positive = tax.split(abs(amount), rate, inclusive=inclusive)
    line = tax.split(-abs(amount), rate, inclusive=inclusive)
    assert line == tax.Amounts(-positive.net, -positive.vat, -positive.gross)


def test_known_splits() -> None:
    assert tax.split(2900, 1900, inclusive=True) == tax.Amounts(2437, 463, 2900)
    assert tax.split(2437, 1900, inclusive=False) == tax.Amounts(2437, 463, 2900)
    assert tax.split(100, 2550, inclusive=False) == tax.Amounts(100, 26, 126)  # 25.5 -> 26
    assert tax.split(1, 1900, inclusive=True) == tax.Amounts(1, 0, 1)
    assert tax.split(50, 1000, inclusive=False) == tax.Amounts(50, 5, 55)
    assert tax.split(5, 1000, inclusive=False) == tax.Amounts(5, 1, 6)  # 0.5 rounds up
    with pytest.raises(ValueError):
        tax.split(100, -1, inclusive=True)


def test_the_rates_read_as_the_texts_write_them() -> None:
    assert [tax.rate_text(r) for r in (1900, 550, 2550, 0, 1000, 705)] == [
        "19 %",
        "5.5 %",
        "25.5 %",
        "0 %",
        "10 %",
        "7.05 %",
    ]


def kinds(s: Any, buyer: str, country: str | None, status: str | None = None) -> tuple[Any, ...]:
    t = tax.treatment(s, buyer_type=buyer, country=country, vat_id_status=status)
    return t.rate_bp, t.kind, t.country


def test_who_pays_which_vat_with_the_default_set_up() -> None:
    s = settings()
    assert kinds(s, "consumer", "DE") == (1900, "standard", "DE")
    assert kinds(s, "consumer", "FR") == (1900, "standard", "DE")  # no OSS: home VAT
    assert kinds(s, "business", "DE", "valid") == (1900, "standard", "DE")
    assert kinds(s, "business", "FR", "valid") == (0, "reverse_charge", "FR")
    assert kinds(s, "business", "AT", "valid") == (0, "reverse_charge", "AT")
    assert kinds(s, "business", "EL", "valid") == (0, "reverse_charge", "GR")
    # Never 0 % on a VAT ID VIES has not confirmed.
    for status in ("pending", "invalid", None):
        assert kinds(s, "business", "FR", status) == (1900, "standard", "DE")
    assert kinds(s, "consumer", "US") == (0, "outside_eu", "US")
    assert kinds(s, "business", "CH", None) == (0, "outside_eu", "CH")
    assert kinds(s, "business", "GB", "valid") == (0, "outside_eu", "GB")
    for unknown in ("", None, "ZZ", "Germany", "1", "EU"):
        assert kinds(s, "consumer", unknown) == (1900, "standard", "DE")
    pending = tax.treatment(s, buyer_type="business", country="FR", vat_id_status="pending")
    assert "until your VAT ID is confirmed" in pending.note
    reverse = tax.treatment(s, buyer_type="business", country="FR", vat_id_status="valid")
    assert "Steuerschuldnerschaft des Leistungsempfängers" in reverse.note


def test_with_the_one_stop_shop_consumers_pay_their_own_countrys_vat() -> None:
    s = settings(vat_oss=True)
    assert kinds(s, "consumer", "FR") == (2000, "standard", "FR")
    assert kinds(s, "consumer", "FI") == (2550, "standard", "FI")
    assert kinds(s, "consumer", "DE") == (1900, "standard", "DE")
    assert kinds(s, "business", "FR", "pending") == (2000, "standard", "FR")
    assert kinds(s, "business", "FR", "valid") == (0, "reverse_charge", "FR")


def test_the_small_business_rule_charges_nobody_vat() -> None:
    s = settings(vat_mode="small_business")
    for buyer, country, status in (
        ("consumer", "DE", None),
        ("consumer", "FR", None),
        ("business", "FR", "valid"),
        ("consumer", "US", None),
    ):
        t = tax.treatment(s, buyer_type=buyer, country=country, vat_id_status=status)
        assert (t.rate_bp, t.kind) == (0, "small_business")
        assert t.note == "No VAT is charged (small business, § 19 UStG)."


def test_another_home_country() -> None:
    s = settings(vat_country="at")
    assert s.vat_country == "AT"
    assert kinds(s, "consumer", "DE") == (2000, "standard", "AT")
    assert kinds(s, "business", "DE", "valid") == (0, "reverse_charge", "DE")


def test_quote_line_with_gross_and_with_net_prices() -> None:
    s = settings()
    home = tax.treatment(s, buyer_type="consumer", country="DE", vat_id_status=None)
    reverse = tax.treatment(s, buyer_type="business", country="FR", vat_id_status="valid")
    # Gross prices: the shown price is what every buyer pays; rate 0 pays it all as net.
    assert tax.quote_line(2900, home, prices_include_vat=True) == tax.Amounts(2437, 463, 2900)
    assert tax.quote_line(2900, reverse, prices_include_vat=True) == tax.Amounts(2900, 0, 2900)
    # Net prices: VAT on top; rate 0 pays the net price only.
    assert tax.quote_line(2900, home, prices_include_vat=False) == tax.Amounts(2900, 551, 3451)
    assert tax.quote_line(2900, reverse, prices_include_vat=False) == tax.Amounts(2900, 0, 2900)
    oss = tax.treatment(
        settings(vat_oss=True), buyer_type="consumer", country="FR", vat_id_status=None
    )
    assert tax.quote_line(2900, oss, prices_include_vat=True) == tax.Amounts(2417, 483, 2900)


@given(
    CENTS,
    st.sampled_from(["consumer", "business"]),
    st.sampled_from(["DE", "FR", "FI", "US", "", "XX"]),
    st.sampled_from([None, "valid", "invalid", "pending"]),
    st.booleans(),
    st.booleans(),
)
def test_a_quote_always_adds_up(
    price: int, buyer: str, country: str, status: str | None, oss: bool, gross: bool
) -> None:
    s = settings(vat_oss=oss)
    t = tax.treatment(s, buyer_type=buyer, country=country, vat_id_status=status)
    line = tax.quote_line(price, t, prices_include_vat=gross)
    assert line.net + line.vat == line.gross
    if t.rate_bp == 0:
        assert line.vat == 0 and line.net == line.gross == price
    if status != "valid" and country in ("DE", "FR", "FI", ""):
        assert t.rate_bp > 0  # never 0 % without a confirmed VAT ID
