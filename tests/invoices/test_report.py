"""The VAT report: quarters parsed strictly, sums that are the invoices' sums (property
tests), the recapitulative statement, the One-Stop-Shop figures, the €10,000 threshold, credit
notes and refunds in the quarter they fall in; the CLI."""

from __future__ import annotations

import csv
import io
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.core.errors import ValidationFailed
from agency.modules.invoices import api
from agency.modules.invoices.models import Invoice, Refund
from agency.modules.invoices.service import report
from tests.invoices import stripe_objects as so

fixture_ok = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=15, deadline=None
)
PIS = itertools.count(1)


@given(st.integers(1970, 9998), st.integers(1, 4), st.sampled_from(["", "-"]), st.booleans())
def test_a_quarter_is_year_and_number(year: int, quarter: int, dash: str, lower: bool) -> None:
    text = f"{year}{dash}{'q' if lower else 'Q'}{quarter}"
    assert report.parse_quarter(text) == (year, quarter)
    start, end = report.quarter_bounds(year, quarter)
    assert start.month == 3 * quarter - 2 and start.day == 1
    assert (end.year, end.month) == ((year + 1, 1) if quarter == 4 else (year, 3 * quarter + 1))


@given(st.text(max_size=20))
def test_anything_else_is_refused_with_the_message(text: str) -> None:
    stripped = text.strip().replace("-", "").upper()
    if (
        len(stripped) == 6
        and stripped[:4].isascii()
        and stripped[:4].isdigit()
        and (stripped[4:] in ("Q1", "Q2", "Q3", "Q4"))
        and 1970 <= int(stripped[:4]) <= 9998
    ):
        return
    try:
        report.parse_quarter(text)
    except ValidationFailed as error:
        assert error.message == "Please give a quarter such as 2026Q4."
    else:
        pytest.fail(f"{text!r} was accepted")


@pytest.mark.parametrize("bad", ["2026Q5", "2026Q0", "26Q1", "2026", "Q4 2026", "2026Q4x"])
def test_known_bad_quarters(bad: str) -> None:
    with pytest.raises(ValidationFailed):
        report.parse_quarter(bad)


def test_a_refund_splits_exactly_over_the_rates() -> None:
    lines = [{"net": 2437, "vat": 463}, {"net": 1000, "vat": 0}]
    parts = report.split_refund(1234, lines)
    assert sum(n + v for n, v in parts) == 1234
    assert report.split_refund(0, lines) == [(0, 0), (0, 0)]
    assert report.split_refund(50, [{"net": 0, "vat": 0}]) == [(50, 0)]


SALE = st.fixed_dictionaries(
    {
        "country": st.sampled_from(["DE", "FR", "AT", "FI", "US"]),
        "business": st.booleans(),
        "amounts": st.lists(st.integers(1, 200_000), min_size=1, max_size=3),
        "inclusive": st.booleans(),
        "month": st.sampled_from(
            [
                "2026-09-30T23:59",
                "2026-10-01T00:00",
                "2026-11-15T12:00",
                "2026-12-31T23:59",
                "2027-01-01T00:00",
            ]
        ),
        "refund": st.integers(0, 100),  # percent of the gross refunded, in December
        "note": st.booleans(),  # the refund comes with a credit note
    }
)


def _sale_invoice(sale: dict[str, Any]) -> dict[str, Any]:
    country = sale["country"]
    if country == "US":
        kwargs: dict[str, Any] = {"rate": 0, "reason": "not_collecting"}
    elif sale["business"] and country != "DE":
        kwargs = {
            "rate": 0,
            "reason": "reverse_charge",
            "vat_id": f"{country}123456789",
            "exempt": "reverse",
        }
    else:
        kwargs = {
            "rate": 1900,
            "reason": "standard_rated",
            "vat_id": "DE136695976" if sale["business"] else None,
        }
    return so.invoice(
        amounts=tuple(sale["amounts"]),
        country=country,
        inclusive=sale["inclusive"],
        finalized=sale["month"],
        paid=sale["month"],
        payment_intent=f"pi_p{next(PIS)}",
        **kwargs,
    )


@pytest.mark.db
@fixture_ok
@given(sales=st.lists(SALE, max_size=6))
async def test_the_report_sums_are_the_documents_sums(
    orm: str, sales: list[dict[str, Any]]
) -> None:
    await Invoice.all().delete()
    await Refund.all().delete()
    for sale in sales:
        invoice = _sale_invoice(sale)
        business = sale["business"]
        await api.record_invoice(
            invoice, user_id=1, buyer_type="business" if business else "consumer", order_number=None
        )
        refunded = invoice["total"] * sale["refund"] // 100
        if refunded:
            pi = invoice["payments"]["data"][0]["payment"]["payment_intent"]
            refund_id = f"re_{pi}"
            if sale["note"]:
                await api.record_credit_note(
                    so.credit_note(
                        invoice, amount=refunded, when="2026-12-10T10:00", refund=refund_id
                    ),
                    user_id=None,
                )
            await api.record_refund(
                so.charge(pi, invoice["total"], [(refund_id, refunded, "2026-12-10T10:00")]),
                user_id=None,
            )
    found = await api.vat_report("2026Q4")
    in_quarter = [s for s in sales if s["month"].startswith(("2026-10", "2026-11", "2026-12"))]
    rows = await Invoice.filter(kind="invoice")
    paid_in = [r for r in rows if r.paid_at and r.paid_at.year == 2026 and r.paid_at.month >= 10]
    assert len(paid_in) == len(in_quarter)
    # Every refund (with or without its credit note) falls in December, inside the quarter.
    refunds = sum(r.amount_refunded for r in rows)
    expected_gross = sum(r.gross for r in paid_in) - refunds
    expected_vat_in = sum(r.vat for r in paid_in)
    total_net = sum(row.net for row in found.rows)
    total_vat = sum(row.vat for row in found.rows)
    assert total_net + total_vat == expected_gross
    assert sum(t.gross for t in found.totals) == expected_gross
    assert total_vat <= expected_vat_in
    if refunds == 0:
        assert total_vat == expected_vat_in
        assert total_net == sum(r.net for r in paid_in)
    # The recapitulative statement is exactly the reverse-charge rows, per VAT ID.
    assert sum(rc.net for rc in found.reverse_charge) == sum(
        row.net for row in found.rows if row.kind == "reverse_charge"
    )
    # The One-Stop-Shop part: consumers in other EU countries only.
    assert {o.country for o in found.oss} <= {"FR", "AT", "FI"}
    # (a business outside Germany is always reverse charge here, so every other row abroad is a
    # consumer's: also one whose VAT rounds to nothing, as on a 1-cent sale, kind "zero")
    assert sum(o.net for o in found.oss) == sum(
        row.net
        for row in found.rows
        if row.country in ("FR", "AT", "FI") and row.kind != "reverse_charge"
    )
    # CSV: the sales lines add up to the same totals.
    lines = list(csv.DictReader(io.StringIO(report.report_csv(found))))
    cents = sum(round(float(line["gross"]) * 100) for line in lines if line["section"] == "sales")
    assert cents == expected_gross


@pytest.mark.db
async def test_the_quarter_the_statement_and_the_threshold(orm: str) -> None:
    # Last year: €9,000 net to French consumers; this year €1,500 net to Austrian consumers.
    last = so.invoice(
        amounts=(900_000,),
        rate=1900,
        country="FR",
        inclusive=False,
        finalized="2025-06-01T10:00",
        paid="2025-06-01T10:00",
    )
    await api.record_invoice(last, user_id=1, buyer_type="consumer", order_number=None)
    at = so.invoice(
        amounts=(150_000,),
        rate=1900,
        country="AT",
        inclusive=False,
        finalized="2026-11-02T10:00",
        paid="2026-11-02T10:00",
    )
    await api.record_invoice(at, user_id=2, buyer_type="consumer", order_number=None)
    b2b = so.invoice(
        amounts=(49_000, 1_000),
        rate=0,
        country="FR",
        reason="reverse_charge",
        inclusive=False,
        vat_id="FR40303265045",
        name="Société Test SARL",
        exempt="reverse",
        finalized="2026-10-05T10:00",
        paid="2026-10-05T10:00",
    )
    await api.record_invoice(b2b, user_id=3, buyer_type="business", order_number=None)
    home = so.invoice(
        amounts=(2900,),
        finalized="2026-12-01T10:00",
        paid="2026-12-01T10:00",
        payment_intent="pi_home",
    )
    await api.record_invoice(home, user_id=4, buyer_type="consumer", order_number=None)
    await api.record_refund(
        so.charge("pi_home", 2900, [("re_h", 2900, "2027-01-03T10:00")]), user_id=None
    )
    open_one = so.invoice(amounts=(5000,), status="open", paid=None, finalized="2026-11-01T10:00")
    await api.record_invoice(open_one, user_id=4, buyer_type="consumer", order_number=None)

    q4 = await api.vat_report("2026q4")
    assert q4.quarter == "2026Q4" and str(q4.start) == "2026-10-01" and str(q4.end) == "2026-12-31"
    by_key = {(r.country, r.rate, r.kind): (r.net, r.vat, r.documents) for r in q4.rows}
    assert by_key == {
        ("AT", 1900, "standard"): (150_000, 28_500, 1),
        ("DE", 1900, "standard"): (2437, 463, 1),
        ("FR", 0, "reverse_charge"): (50_000, 0, 1),
    }
    assert [(r.vat_id, r.country, r.name, r.net) for r in q4.reverse_charge] == [
        ("FR40303265045", "FR", "Société Test SARL", 50_000)
    ]
    assert [(o.country, o.rate, o.net, o.vat) for o in q4.oss] == [("AT", 1900, 150_000, 28_500)]
    assert not q4.threshold.exceeded and q4.threshold.previous_year == 900_000
    assert q4.threshold.line == (
        "The €10,000 EU threshold for cross-border consumer sales is not exceeded "
        "(2026: €1,500.00; 2025: €9,000.00)."
    )
    # The refund of January reduces 2027Q1, not 2026Q4.
    q1 = await api.vat_report("2027Q1")
    assert [(r.country, r.net, r.vat) for r in q1.rows] == [("DE", -2437, -463)]
    # Another €9,000 to consumers abroad this year: exceeded.
    more = so.invoice(
        amounts=(900_000,),
        rate=2000,
        country="FR",
        inclusive=False,
        finalized="2026-12-02T10:00",
        paid="2026-12-02T10:00",
    )
    await api.record_invoice(more, user_id=5, buyer_type="consumer", order_number=None)
    exceeded = (await api.vat_report("2026Q4")).threshold
    assert exceeded.exceeded and exceeded.current_year == 1_050_000
    assert exceeded.line.startswith(
        "The €10,000 EU threshold for cross-border consumer sales is "
        "exceeded (2026: €10,500.00; 2025: €9,000.00)"
    )
    text = report.report_csv(await api.vat_report("2026Q4"))
    assert "recapitulative_statement,EUR,FR,0.00,reverse_charge,FR40303265045" in text
    assert text.splitlines()[-1].startswith("threshold,EUR,,,exceeded")
