"""The report e-mail writes the speed test's figures as the result page does: one rounding.

The table webui/test/fixtures/figure-cases.json is read here and by the web UI's
speed-test.test.ts; a test's saving, load times, blocking time and CLS read the same in both."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.jobs import DONE
from agency.modules.speedtest.models import SpeedTest
from agency.modules.speedtest.service import speedtests

CASES: dict[str, Any] = json.loads(
    (
        Path(__file__).resolve().parents[2] / "webui" / "test" / "fixtures" / "figure-cases.json"
    ).read_text(encoding="utf-8")
)


@pytest.mark.parametrize(("ms", "text"), CASES["seconds"])
def test_seconds_as_the_page_writes_them(ms: float, text: str) -> None:
    assert speedtests.seconds_text(ms) == text


@pytest.mark.parametrize(("ms", "text"), CASES["milliseconds"])
def test_milliseconds_as_the_page_writes_them(ms: float, text: str) -> None:
    assert speedtests.milliseconds_text(ms) == text


@pytest.mark.parametrize(("value", "text"), CASES["layout_shift"])
def test_layout_shift_as_the_page_writes_it(value: float, text: str) -> None:
    assert speedtests.layout_shift_text(value) == text


@given(ms=st.integers(min_value=0, max_value=10_000_000))
def test_seconds_round_halves_up_to_a_tenth(ms: int) -> None:
    text = speedtests.seconds_text(ms)
    assert text.endswith(" s")
    shown = Decimal(text.removesuffix(" s")) * 1000
    # The nearest tenth, and at exactly half way the higher one (as Math.round does).
    assert -50 < shown - ms <= 50


def test_the_e_mail_says_the_saving_the_page_says() -> None:
    """A saving of 250 ms: the page says "could save about 0.3 s", so does the e-mail (it said
    0.2 s, rounding half to even)."""
    test = SpeedTest(
        domain="example.com",
        strategy="mobile",
        status=DONE,
        score=55,
        speed_index_ms=2450,
        total_blocking_time_ms=1250,
        lcp_ms=1250,
        fcp_ms=350,
        layout_shift=0.125,
        field_data=[
            {"name": "LCP", "percentile": 2450, "category": "AVERAGE"},
            {"name": "INP", "percentile": 212.5, "category": "AVERAGE"},
            {"name": "CLS", "percentile": 0.375, "category": "SLOW"},
        ],
        opportunities=[{"title": "Reduce unused JavaScript", "savings_ms": 250}],
    )
    context = speedtests.report_context(test)
    assert context["opportunities"] == [{"title": "Reduce unused JavaScript", "saving": "0.3 s"}]
    assert (context["speed_index"], context["lcp"], context["fcp"]) == ("2.5 s", "1.3 s", "0.4 s")
    assert (context["blocking_time"], context["cls"]) == ("1,250 ms", "0.13")
    assert [m["value"] for m in context["field_data"]] == ["2.5 s", "213 ms", "0.38"]
