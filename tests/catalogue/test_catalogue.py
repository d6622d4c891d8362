"""The catalogue: the data file holds the spec's prices, seeding is idempotent, the public API
is the single source of prices, and /start resolves plans by the spec's rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.errors import ValidationFailed
from agency.modules.catalogue import service
from agency.modules.catalogue.models import Plan

DATA = service.load_file()
PLANS = {p.key: p for p in DATA.plans}

# Section 9 of both specs and DECISIONS.md: (key, euros, mode, struck-through euros, save %).
SPEC_PRICES = [
    ("starter", 19, "subscription", 39, 51),
    ("professional", 29, "subscription", 97, 70),
    ("premium", 499, "subscription", 2497, 80),
    ("ai-booking-starter", 149, "payment", None, None),
    ("ai-booking-pro", 299, "payment", None, None),
    ("ai-booking-premium", 49, "subscription", None, None),
    ("ai-scale-builder", 199, "payment", None, None),
    ("ai-scale-growth", 399, "payment", None, None),
    ("ai-scale-plan", 39, "subscription", None, None),
    ("ai-onboarding-essential", 199, "payment", None, None),
    ("ai-onboarding-pro", 349, "payment", None, None),
    ("ai-onboarding-agency", 59, "subscription", None, None),
    ("basic-rebuild", 149, "payment", None, None),
    ("pro-rebuild", 249, "payment", None, None),
    ("premium-rebuild", 399, "payment", None, None),
    ("sales-funnel-rebuild-offer", 97, "payment", 297, 67),
    ("landing-page-rebuild", 197, "payment", None, None),
    ("ai-lead-engine", 147, "payment", 297, 50),
    ("starter-ai", 499, "payment", None, None),
    ("pro-ai", 999, "payment", None, None),
    ("full-stack-ai", 1999, "payment", None, None),
    ("starter-clip", 49, "payment", None, None),
    ("conversion-bundle", 129, "payment", None, None),
    ("scaling-stack", 249, "payment", None, None),
    ("custom-campaign", 499, "payment", None, None),
    ("starter-funnel", 997, "payment", None, None),
    ("growth-funnel", 1997, "payment", None, None),
    ("enterprise-funnel", 4997, "payment", None, None),
]
SPEC_BADGES = {
    "professional": "popular",
    "ai-booking-pro": "popular",
    "ai-scale-growth": "popular",
    "ai-onboarding-pro": "popular",
    "landing-page-rebuild": "popular",
    "pro-rebuild": "popular",
    "sales-funnel-rebuild-offer": "launch",
    "ai-lead-engine": "launch",
    "pro-ai": "popular",
    "full-stack-ai": "premium",
    "conversion-bundle": "popular",
    "custom-campaign": "premium",
    "growth-funnel": "popular",
}
SPEC_DEFAULTS = {
    "website": "professional",
    "ai-booking": "ai-booking-pro",
    "ai-scale": "ai-scale-growth",
    "ai-onboarding": "ai-onboarding-pro",
    "leadgen": "landing-page-rebuild",
    "rebuild": "pro-rebuild",
    "ai": "pro-ai",
    "ugc": "conversion-bundle",
}


@pytest.mark.parametrize(("key", "euros", "mode", "struck", "save"), SPEC_PRICES)
def test_data_file_has_the_spec_prices(
    key: str, euros: int, mode: str, struck: int | None, save: int | None
) -> None:
    plan = PLANS[key]
    assert (plan.price, plan.mode, plan.currency) == (euros * 100, mode, "EUR")
    assert plan.previous_price == (struck * 100 if struck else None)
    previous = plan.previous_price
    assert (service.save_percent(previous, plan.price) if previous else None) == save


def test_every_plan_is_priced_in_the_spec_and_badges_match() -> None:
    assert set(PLANS) == {row[0] for row in SPEC_PRICES}
    assert {k: p.badge for k, p in PLANS.items() if p.badge} == SPEC_BADGES


def test_family_defaults_and_domain_field_follow_the_spec() -> None:
    families = {f.key: f for f in DATA.families}
    assert {k: f.default_plan for k, f in families.items() if k in SPEC_DEFAULTS} == SPEC_DEFAULTS
    assert {k for k, f in families.items() if f.show_domain} == {"website", "leadgen", "rebuild"}


def test_a_broken_data_file_is_refused_with_its_name(tmp_path: Path) -> None:
    bad = tmp_path / "catalogue.toml"
    bad.write_text(
        '[[families]]\nkey = "x"\ntitle = "X"\ndescription = ""\ncta = "Go"\n'
        'default_plan = "missing"\n'
    )
    with pytest.raises(ValidationFailed, match=r"catalogue\.toml"):
        service.load_file(bad)


async def test_seed_is_idempotent_updates_and_deactivates(orm: str) -> None:
    first = await service.seed(DATA)
    assert len(first.created) == len(DATA.plans) and not first.updated
    again = await service.seed(DATA)
    assert (again.created, again.updated, again.deactivated) == ([], [], [])
    assert again.unchanged == len(DATA.plans)
    await service.set_stripe_ids("starter", product_id="prod_1", price_id="price_1")
    changed = DATA.model_copy(deep=True)
    changed.plans = [p for p in changed.plans if p.key != "scaling-stack"]
    next(p for p in changed.plans if p.key == "starter").name = "Starter Site"
    report = await service.seed(changed)
    assert report.updated == ["starter"] and report.deactivated == ["scaling-stack"]
    starter = await Plan.get(key="starter")
    assert starter.name == "Starter Site" and starter.stripe_price_id == "price_1"  # kept
    assert not (await Plan.get(key="scaling-stack")).active  # deactivated, not deleted
    assert await service.seed_if_empty() is None


async def test_public_catalogue_with_etag(client: Any) -> None:
    await service.seed(DATA)
    response = await client.get("/api/catalogue")
    assert response.status_code == 200
    body = await response.get_json()
    plans = {p["key"]: p for p in body["plans"]}
    assert plans["professional"]["price"] == 2900 and plans["professional"]["interval"] == "month"
    assert plans["pro-ai"]["mode"] == "payment" and plans["pro-ai"]["badge"] == "popular"
    website = next(f for f in body["families"] if f["key"] == "website")
    assert website["plans"] == ["starter", "professional", "premium"]
    again = await client.get("/api/catalogue", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


SOLD = {p.key: p.family for p in DATA.plans if p.checkout}
DEFAULTS = {f.key: f.default_plan for f in DATA.families if f.key in set(SOLD.values())}


@given(
    requested_type=st.one_of(
        st.none(), st.sampled_from([*DEFAULTS, "funnel"]), st.text(max_size=12)
    ),
    requested_plan=st.one_of(st.none(), st.sampled_from(list(PLANS)), st.text(max_size=20)),
)
def test_start_always_resolves_to_a_sold_plan_of_the_right_family(
    requested_type: str | None, requested_plan: str | None
) -> None:
    family, plan = service.resolve_start(requested_type, requested_plan, SOLD, DEFAULTS)
    assert SOLD[plan] == family
    if requested_type in DEFAULTS:
        assert family == requested_type
    if requested_plan in SOLD and requested_type in (None, SOLD[requested_plan]):
        assert plan == requested_plan
    elif requested_type not in DEFAULTS and requested_plan not in SOLD:
        assert (family, plan) == ("website", "professional")


@pytest.mark.parametrize(
    ("requested_type", "expected"),
    [
        ("ai-booking", "ai-booking-pro"),
        ("ai-scale", "ai-scale-growth"),
        ("ai-onboarding", "ai-onboarding-pro"),
        ("leadgen", "landing-page-rebuild"),
        ("rebuild", "pro-rebuild"),
        ("ai", "pro-ai"),
        ("ugc", "conversion-bundle"),
        ("website", "professional"),
        ("anything", "professional"),
        (None, "professional"),
    ],
)
def test_start_defaults_from_the_spec_table(requested_type: str | None, expected: str) -> None:
    assert service.resolve_start(requested_type, None, SOLD, DEFAULTS)[1] == expected


async def test_the_cached_catalogue_follows_every_change(client: Any) -> None:
    """The JSON is built once per change (a version row), compressed once per coding;
    a seed, a Stripe id sync or another process's change (the row bumped) is seen at once."""
    await service.seed(DATA)
    first = await client.get("/api/catalogue", headers={"Accept-Encoding": "br"})
    assert first.headers["Content-Encoding"] == "br" and first.headers["Vary"] == "Accept-Encoding"
    assert first.headers["ETag"].startswith('W/"')
    plain = await client.get("/api/catalogue", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and not plain.headers["ETag"].startswith("W/")
    assert plain.headers["ETag"] == first.headers["ETag"].removeprefix("W/")
    cached = await client.get("/api/catalogue")
    assert cached.headers["ETag"] == plain.headers["ETag"]

    await service.set_stripe_ids("starter", product_id="prod_9", price_id="price_9")
    synced = await (await client.get("/api/catalogue")).get_json()
    assert next(p for p in synced["plans"] if p["key"] == "starter")["price_id"] == "price_9"

    changed = DATA.model_copy(deep=True)
    next(p for p in changed.plans if p.key == "starter").name = "Starter Site"
    await service.seed(changed)
    seeded = await client.get("/api/catalogue", headers={"If-None-Match": plain.headers["ETag"]})
    assert seeded.status_code == 200  # the old tag no longer matches
    body = await seeded.get_json()
    assert next(p for p in body["plans"] if p["key"] == "starter")["name"] == "Starter Site"

    # Another process wrote the rows and counted the change: this one follows on its next read.
    await Plan.filter(key="starter").update(name="Starter Elsewhere")
    await service.changed()
    other = await (await client.get("/api/catalogue")).get_json()
    assert next(p for p in other["plans"] if p["key"] == "starter")["name"] == "Starter Elsewhere"
