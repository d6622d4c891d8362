"""The catalogue's price history: a price lowered through the catalogue (the data file's seed,
`agency catalogue set-price`) records the old one; a struck-through price is only ever a
recorded previous price, and the saving follows from the two prices."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.errors import NotFound, ValidationFailed
from agency.modules.catalogue import service
from agency.modules.catalogue.models import PriceChange
from agency.modules.catalogue.schemas import CatalogueIn, FamilyIn, PriceChangeInfo, promise_in
from tests.conftest import run_agency

DATA = service.load_file()


async def _public(client: Any) -> dict[str, dict[str, Any]]:
    body = await (await client.get("/api/catalogue")).get_json()
    return {p["key"]: p for p in body["plans"]}


async def test_the_seed_records_the_files_previous_prices_once(client: Any) -> None:
    await service.seed(DATA)
    plans = await _public(client)
    # The spec's struck prices, now recorded previous prices with the saving computed.
    assert (plans["professional"]["original_price"], plans["professional"]["save_percent"]) == (
        9700,
        70,
    )
    assert (plans["ai-lead-engine"]["original_price"], plans["ai-lead-engine"]["save_percent"]) == (
        29700,
        50,
    )
    assert plans["pro-ai"]["original_price"] is None and plans["pro-ai"]["save_percent"] is None
    history = await service.price_history("professional")
    assert [(c.old_price, c.new_price, c.source) for c in history] == [(9700, 2900, "file")]
    await service.seed(DATA)  # again: nothing recorded twice
    assert await PriceChange.filter(plan="professional").count() == 1


async def test_a_plan_without_a_recorded_price_shows_no_struck_price(client: Any) -> None:
    """A previous price only in the file of a plan that already has history is not invented."""
    data = DATA.model_copy(deep=True)
    for plan in data.plans:
        plan.previous_price = None
    await service.seed(data)
    plans = await _public(client)
    assert all(p["original_price"] is None and p["save_percent"] is None for p in plans.values())
    assert not await PriceChange.exists()


async def test_a_price_lowered_in_the_file_records_the_old_one(client: Any) -> None:
    await service.seed(DATA)
    lowered = DATA.model_copy(deep=True)
    plan = next(p for p in lowered.plans if p.key == "pro-ai")
    plan.price = 79900
    report = await service.seed(lowered)
    assert report.updated == ["pro-ai"]
    plans = await _public(client)
    assert plans["pro-ai"]["price"] == 79900
    assert (plans["pro-ai"]["original_price"], plans["pro-ai"]["save_percent"]) == (99900, 20)
    history = await service.price_history("pro-ai")
    assert [(c.old_price, c.new_price, c.source) for c in history] == [(99900, 79900, "seed")]
    # Raised again: recorded, and the struck price is gone.
    await service.seed(DATA)
    plans = await _public(client)
    assert plans["pro-ai"]["price"] == 99900 and plans["pro-ai"]["original_price"] is None


async def test_set_price_records_the_change_and_the_public_catalogue_follows(client: Any) -> None:
    await service.seed(DATA)
    before = await _public(client)
    assert before["starter"]["original_price"] == 3900
    change = await service.set_price("starter", 1500)
    assert change is not None and (change.old_price, change.new_price) == (1900, 1500)
    plans = await _public(client)
    # The previous price is the one the plan had just before (the lowest in the 30 days
    # before the change), not the file's older 39 euros.
    assert (plans["starter"]["price"], plans["starter"]["original_price"]) == (1500, 1900)
    assert plans["starter"]["save_percent"] == 21
    assert await service.set_price("starter", 1500) is None  # unchanged: nothing recorded
    with pytest.raises(NotFound):
        await service.set_price("no-such-plan", 1000)
    with pytest.raises(ValidationFailed):
        await service.set_price("starter", 0)


@pytest.mark.slow
def test_the_cli_sets_a_price_and_shows_the_history(tmp_path: Path) -> None:
    seeded = run_agency(tmp_path, "catalogue", "seed")
    assert seeded.returncode == 0, seeded.stderr
    result = run_agency(tmp_path, "catalogue", "set-price", "premium-rebuild", "349,00")
    assert result.returncode == 0, result.stderr
    assert "€399.00 -> €349.00" in result.stdout
    shown = run_agency(tmp_path, "catalogue", "history", "premium-rebuild")
    assert shown.returncode == 0 and "€349.00" in shown.stdout
    bad = run_agency(tmp_path, "catalogue", "set-price", "premium-rebuild", "cheap")
    assert bad.returncode == 1 and "is not a price" in bad.stderr + bad.stdout


NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _change(old: int, new: int, days_ago: float) -> PriceChangeInfo:
    return PriceChangeInfo("p", old, new, "EUR", "cli", NOW - timedelta(days=days_ago))


def test_the_reference_price_is_the_lowest_of_the_30_days_before_the_reduction() -> None:
    # 99 -> 49 ten days ago, -> 79 five days ago, -> 29 now: the reference is 49, not 79.
    history = [_change(9900, 4900, 10), _change(4900, 7900, 5), _change(7900, 2900, 0)]
    assert service.previous_price(2900, history) == 4900
    # The same steps more than 30 days apart: the price just before counts.
    history = [_change(9900, 4900, 70), _change(4900, 7900, 40), _change(7900, 2900, 0)]
    assert service.previous_price(2900, history) == 7900
    # Last change was a rise, or the plan's price moved on since: no struck price.
    assert service.previous_price(2900, [_change(1900, 2900, 1)]) is None
    assert service.previous_price(2500, [_change(3900, 2900, 1)]) is None
    assert service.previous_price(2900, []) is None


prices = st.integers(min_value=1, max_value=10_000_000)


@given(history=st.lists(st.tuples(prices, prices, st.floats(0, 400)), max_size=6), price=prices)
def test_a_struck_price_is_always_a_recorded_higher_price(
    history: list[tuple[int, int, float]], price: int
) -> None:
    changes = sorted((_change(o, n, d) for o, n, d in history), key=lambda c: c.changed_at)
    struck = service.previous_price(price, changes)
    if struck is not None:
        assert struck > price
        assert changes[-1].new_price == price
        assert struck in {c.old_price for c in changes} | {c.new_price for c in changes}
        saving = service.save_percent(struck, price)
        # Never claims more than the real saving, never 0 %.
        assert saving is None or (1 <= saving <= 99 and saving <= (struck - price) * 100 / struck)


@given(euros=st.integers(1, 9_999_999), cents=st.integers(0, 99), comma=st.booleans())
def test_parse_price_reads_euros_and_cents(euros: int, cents: int, comma: bool) -> None:
    text = f"{euros}{',' if comma else '.'}{cents:02d}"
    assert service.parse_price(text) == euros * 100 + cents
    assert service.parse_price(f"€ {euros}") == euros * 100


@given(st.text(max_size=12))
def test_parse_price_refuses_anything_else_with_a_message(text: str) -> None:
    try:
        cents = service.parse_price(text)
    except ValidationFailed as error:
        assert "price" in error.message
    else:
        assert cents > 0


@given(
    bullet=st.sampled_from(
        [
            "Live within 24 hours",
            "24-hour delivery",
            "Set up in 7 days",
            "60-day money-back guarantee",
            "Delivery from 48 hours",
        ]
    ),
    prefix=st.text(alphabet="abc ", max_size=5),
)
def test_family_bullets_may_not_promise_delivery_or_guarantees(bullet: str, prefix: str) -> None:
    assert promise_in(prefix + " " + bullet) is not None
    with pytest.raises(ValueError, match="delivery times and guarantees"):
        FamilyIn(
            key="x", title="X", description="", cta="Go", bullets=[prefix + " " + bullet],
            default_plan="y",
        )  # fmt: skip


def test_every_family_bullet_of_the_data_file_is_free_of_promises() -> None:
    assert all(promise_in(b) is None for f in DATA.families for b in f.bullets)


def test_the_old_original_price_key_is_still_read() -> None:
    raw = DATA.model_dump()
    for plan in raw["plans"]:
        plan["original_price"] = plan.pop("previous_price")
        plan["save_percent"] = 12  # ignored: it follows from the prices
    again = CatalogueIn.model_validate(raw)
    assert [p.previous_price for p in again.plans] == [p.previous_price for p in DATA.plans]


def test_the_migration_keeps_the_stored_struck_prices_as_history(tmp_path: Path) -> None:
    """An install from before the price history: its plans' struck prices become recorded
    previous prices (and a struck price not above the price is dropped)."""
    import asyncio
    import sqlite3

    from tortoise.migrations.api.migrate import migrate

    from agency.core import db
    from tests.conftest import MODEL_MODULES

    path = tmp_path / "old.db"
    url = f"sqlite://{path}"
    config = db.tortoise_config(url, MODEL_MODULES)

    async def to(target: str) -> None:
        try:
            await migrate(config=config, app_labels=["models"], target=target)
        finally:
            await db.close_db()

    asyncio.run(to("models.0017_mail_opt_out"))
    with sqlite3.connect(path) as connection:
        plans = (("starter", 1900, 3900), ("odd", 5000, 4000), ("plain", 100, None))
        for key, price, struck in plans:
            connection.execute(
                "INSERT INTO catalogue_plan (key, family, name, description, price, currency,"
                " original_price, mode, features, checkout, active, sort_order, updated_at)"
                " VALUES (?, 'website', ?, '', ?, 'EUR', ?, 'payment', '[]', 1, 1, 0,"
                " '2026-01-01 00:00:00')",
                (key, key, price, struck),
            )
    asyncio.run(to("models.0018_catalogue_price_history"))
    with sqlite3.connect(path) as connection:
        rows = connection.execute(
            "SELECT plan, old_price, new_price, source FROM catalogue_price_change"
        ).fetchall()
        columns = [row[1] for row in connection.execute("PRAGMA table_info(catalogue_plan)")]
    assert rows == [("starter", 3900, 1900, "migration")]
    assert "original_price" not in columns and "save_percent" not in columns
