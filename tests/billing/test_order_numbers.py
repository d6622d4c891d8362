from hypothesis import given
from hypothesis import strategies as st

from agency.modules.billing.api import order_number, parse_order_number


@given(st.integers(min_value=1, max_value=10**12 - 1))
def test_an_order_number_parses_back_to_its_id(order_id: int) -> None:
    number = order_number(order_id)
    assert number.startswith("AG-")
    assert parse_order_number(number) == order_id
    assert parse_order_number(number.lower()) == order_id
    assert parse_order_number(f"  {number.replace('-', ' ')} ") == order_id
    assert parse_order_number(str(order_id)) == order_id


def test_short_and_padded_forms() -> None:
    assert order_number(42) == "AG-000042"
    assert parse_order_number("ag-42") == 42
    assert parse_order_number("AG000042") == 42


@given(st.text())
def test_anything_else_is_refused_without_raising(text: str) -> None:
    result = parse_order_number(text)
    assert result is None or result > 0


def test_not_order_numbers() -> None:
    for text in ("", "AG-", "AG-0", "0", "order 42", "AG-12x", "-5", "1" * 13):
        assert parse_order_number(text) is None, text
