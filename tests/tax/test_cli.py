"""`agency tax ...` on a fresh SQLite data directory, VIES being the fake (in this process,
through Typer's CliRunner)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agency.cli import app
from tests.fakes.vies_server import FakeVies, run_fake_vies


@pytest.fixture
def vies() -> Iterator[FakeVies]:
    with run_fake_vies() as fake:
        yield fake


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vies: FakeVies) -> dict[str, str]:
    for key in [k for k in os.environ if k.startswith("AGENCY_")]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    return {"AGENCY_VIES_API_BASE": vies.base_url, "COLUMNS": "220"}


def test_show_explains_the_set_up_and_example_sales(env: dict[str, str]) -> None:
    result = CliRunner().invoke(app, ["tax", "show"], env=env)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "VAT charged, Germany 19 %" in out and "prices entered gross" in out
    assert "vies_requester_vat_id" in out and "€1,234.56" in out
    assert "reverse_charge" in out and "outside_eu" in out
    assert "€84.03" in out and "€15.97" in out  # €100 gross at 19 %


def test_show_a_small_business(env: dict[str, str]) -> None:
    env = {**env, "AGENCY_VAT_MODE": "small_business", "AGENCY_PRICE_LOCALE": "de-DE"}
    result = CliRunner().invoke(app, ["tax", "show"], env=env)
    assert result.exit_code == 0, result.output
    assert "§ 19 UStG" in result.stdout and "small_business" in result.stdout


def test_check_vat_id(env: dict[str, str], vies: FakeVies) -> None:
    runner = CliRunner()
    valid = runner.invoke(app, ["tax", "check-vat-id", "FR 40 303 265 045"], env=env)
    assert valid.exit_code == 0, valid.output
    assert "FR40303265045: valid" in valid.stdout and "SA SODIMAS" in valid.stdout
    invalid = runner.invoke(app, ["tax", "check-vat-id", "DE129273398"], env=env)
    assert invalid.exit_code == 1 and "invalid" in invalid.stdout
    wrong = runner.invoke(app, ["tax", "check-vat-id", "DE123456789"], env=env)
    assert wrong.exit_code == 2
    assert "Please enter a valid VAT ID, for example DE123456789." in wrong.stderr
    vies.down = "MS_UNAVAILABLE"
    pending = runner.invoke(app, ["tax", "check-vat-id", "ATU13585627"], env=env)
    assert pending.exit_code == 1 and "pending" in pending.stdout
