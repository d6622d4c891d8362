"""The admins' changes to a plan: what PlanChangesIn accepts (any input, by hypothesis), and
update_plan's one transaction (plan row, price history, audit entries, catalogue version);
`agency catalogue set-price` is recorded in the audit log as the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from agency.core.errors import Conflict, NotFound
from agency.modules.audit.api import Actor
from agency.modules.audit.models import AuditEntry
from agency.modules.catalogue import service
from agency.modules.catalogue.models import Plan, PriceChange
from agency.modules.catalogue.schemas import (
    BADGES,
    DELIVERY_MAX,
    FEATURE_MAX,
    FEATURES_MAX,
    GUARANTEE_MAX,
    MAX_PRICE,
    MSG_PRICE,
    NAME_MAX,
    PlanChangesIn,
    check_price,
)
from tests.conftest import run_agency

ADMIN = Actor(user_id=7, email="owner@example.com")


def refused_fields(body: dict[str, Any]) -> set[str]:
    with pytest.raises(ValidationError) as error:
        PlanChangesIn.model_validate(body)
    return {str(e["loc"][0]) for e in error.value.errors()}


# ---- Validation (no database) ------------------------------------------------------------


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_a_price_is_whole_cents_from_1_to_the_stripe_limit(cents: int) -> None:
    if 0 < cents <= MAX_PRICE:
        assert PlanChangesIn.model_validate({"price": cents}).price == cents
        assert check_price(cents) == cents
    else:
        assert refused_fields({"price": cents}) == {"price"}


@given(
    st.one_of(
        st.floats(allow_nan=True),
        st.text(max_size=12),
        st.booleans(),
        st.none(),
        st.lists(st.integers(), max_size=2),
    )
)
def test_a_price_that_is_not_an_integer_is_refused(value: object) -> None:
    with pytest.raises(ValidationError) as error:
        PlanChangesIn.model_validate({"price": value})
    assert [e["loc"] for e in error.value.errors()] == [("price",)]
    assert MSG_PRICE in str(error.value) or "empty (null)" in str(error.value)


@given(st.text(max_size=30))
def test_a_badge_is_one_of_three_or_null(badge: str) -> None:
    if badge in BADGES:
        assert PlanChangesIn.model_validate({"badge": badge}).badge == badge
    else:
        assert refused_fields({"badge": badge}) == {"badge"}
    assert PlanChangesIn.model_validate({"badge": None}).given() == {"badge": None}


one_line = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=0, max_size=130
)


@pytest.mark.parametrize(
    ("field", "limit"),
    [("name", NAME_MAX), ("delivery", DELIVERY_MAX), ("guarantee", GUARANTEE_MAX)],
)
@given(text=one_line)
def test_one_line_texts_are_held_to_their_column(field: str, limit: int, text: str) -> None:
    if len(text) > limit or (field == "name" and not text.strip()):
        assert refused_fields({field: text}) == {field}
    else:
        value = PlanChangesIn.model_validate({field: text}).given()[field]
        # Trimmed; an empty delivery or guarantee removes it.
        assert value == (text.strip() or None if field != "name" else text.strip())


@given(st.text(max_size=5).map(lambda s: "x" + s + "\n" + s))
def test_one_line_texts_refuse_line_breaks(text: str) -> None:
    for field in ("name", "delivery", "guarantee"):
        assert refused_fields({field: text}) == {field}


@given(st.lists(one_line, max_size=FEATURES_MAX + 3))
def test_features_are_a_bounded_list_of_short_lines(features: list[str]) -> None:
    too_long = any(len(f) > FEATURE_MAX for f in features)
    if len(features) > FEATURES_MAX or too_long:
        assert refused_fields({"features": features}) == {"features"}
    else:
        kept = PlanChangesIn.model_validate({"features": features}).features
        assert kept == [f.strip() for f in features if f.strip()]


def test_only_the_fields_sent_are_changes_and_unknown_ones_are_refused() -> None:
    assert PlanChangesIn.model_validate({}).given() == {}
    assert PlanChangesIn.model_validate({"on_sale": False}).given() == {"on_sale": False}
    assert refused_fields({"on_sale": "false"}) == {"on_sale"}
    assert refused_fields({"on_sale": 0}) == {"on_sale"}
    assert refused_fields({"price_id": "price_x"}) == {"price_id"}
    for field in ("name", "description", "features", "on_sale"):
        assert refused_fields({field: None}) == {field}


# ---- update_plan (both databases) --------------------------------------------------------


async def catalogue_entries() -> list[AuditEntry]:
    return list(await AuditEntry.filter(action__startswith="catalogue.").order_by("id"))


async def test_update_plan_writes_the_row_history_audit_and_version(app: Any) -> None:
    await service.seed(service.load_file())
    version = await service.version()
    update = await service.update_plan(
        "premium",
        PlanChangesIn(price=39900, badge="premium", on_sale=False),
        actor=ADMIN,
    )
    assert update.changes == {
        "price": (49900, 39900),
        "badge": (None, "premium"),
        "on_sale": (True, False),
    }
    assert update.price_change is not None and update.price_change.source == "admin"
    plan = await Plan.get(key="premium")
    assert (plan.price, plan.badge, plan.active) == (39900, "premium", False)
    assert await service.version() == version + 1
    entries = await catalogue_entries()
    assert [(e.action, e.actor_id, e.actor_email) for e in entries] == [
        ("catalogue.price_changed", 7, "owner@example.com"),
        ("catalogue.plan_updated", 7, "owner@example.com"),
        ("catalogue.plan_hidden", 7, "owner@example.com"),
    ]
    assert [(e.before, e.after) for e in entries] == [
        ({"price": 49900, "currency": "EUR"}, {"price": 39900, "currency": "EUR"}),
        ({"badge": None}, {"badge": "premium"}),
        ({"on_sale": True}, {"on_sale": False}),
    ]
    # The struck-through price reads the history: 499 -> 399 shows 499 struck.
    admin_view = await service.admin_plan("premium")
    assert admin_view.original_price == 49900 and admin_view.on_sale is False
    latest = admin_view.history[0]
    assert (latest.old_price, latest.new_price, latest.source) == (49900, 39900, "admin")


async def test_update_plan_is_all_or_nothing(app: Any) -> None:
    await service.seed(service.load_file())
    with pytest.raises(Conflict):
        await service.update_plan(
            "starter", PlanChangesIn(price=1500, name="Cheap"), actor=ADMIN, expected_price=1800
        )
    with pytest.raises(NotFound):
        await service.update_plan("nope", PlanChangesIn(price=1500), actor=ADMIN)
    plan = await Plan.get(key="starter")
    assert (plan.price, plan.name) == (1900, "Starter")
    assert not await PriceChange.filter(source="admin").exists()
    assert await catalogue_entries() == []


async def test_a_failed_audit_write_leaves_the_plan_unchanged(app: Any, monkeypatch: Any) -> None:
    await service.seed(service.load_file())

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("audit down")

    monkeypatch.setattr(service.audit_api, "record", broken)
    with pytest.raises(RuntimeError):
        await service.update_plan("starter", PlanChangesIn(price=1500), actor=ADMIN)
    assert (await Plan.get(key="starter")).price == 1900
    assert not await PriceChange.filter(source="admin").exists()


async def test_set_price_is_recorded_as_the_command_line(app: Any) -> None:
    await service.seed(service.load_file())
    change = await service.set_price("starter", 1500)
    assert change is not None and change.source == "cli"
    [entry] = await catalogue_entries()
    assert (entry.action, entry.actor_id, entry.actor_email) == (
        "catalogue.price_changed",
        None,
        None,
    )
    assert (entry.before, entry.after) == (
        {"price": 1900, "currency": "EUR"},
        {"price": 1500, "currency": "EUR"},
    )
    assert await service.set_price("starter", 1500) is None
    assert len(await catalogue_entries()) == 1


@pytest.mark.slow
def test_the_cli_set_price_refuses_more_than_stripe_takes(tmp_path: Path) -> None:
    assert run_agency(tmp_path, "catalogue", "seed").returncode == 0
    result = run_agency(tmp_path, "catalogue", "set-price", "starter", "15")
    assert result.returncode == 0, result.stderr
    assert "€19.00 -> €15.00" in result.stdout
    too_much = run_agency(tmp_path, "catalogue", "set-price", "starter", "1000000")
    assert too_much.returncode == 1 and "at most €999,999.99" in too_much.stdout + too_much.stderr
