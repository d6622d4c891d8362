"""`agency stripe sync`: every sold plan gets a Product and a Price with lookup_key = plan key."""

from __future__ import annotations

from typing import Any

from agency.modules.billing.service import prices as billing_prices
from agency.modules.catalogue import service as catalogue
from agency.modules.catalogue.models import Plan
from tests.fakes.stripe_server import FakeStripe


def prices(fake: FakeStripe) -> list[dict[str, Any]]:
    return [o for o in fake.objects.values() if o.get("object") == "price"]


async def test_sync_creates_matches_and_replaces_changed_prices(
    shop: Any, fake: FakeStripe
) -> None:
    gateway = shop.app.extensions["billing.gateway"]
    sold = [p for p in await catalogue.all_plans() if p.checkout]
    # The `shop` fixture synced once already: every sold plan has its price.
    assert all(p.stripe_price_id for p in sold)
    by_key = {p["lookup_key"]: p for p in prices(fake)}
    assert by_key["professional"]["unit_amount"] == 2900
    assert by_key["professional"]["recurring"]["interval"] == "month"
    assert by_key["pro-ai"]["type"] == "one_time"
    # Gross catalogue prices (prices_include_vat, the default): the buyer pays that amount.
    assert {p["tax_behavior"] for p in prices(fake)} == {"inclusive"}
    assert "growth-funnel" not in by_key  # not sold through checkout

    again = await billing_prices.sync_prices(gateway, dry_run=False)
    assert all(": matched " in line for line in again)
    assert len(prices(fake)) == len(sold)

    await Plan.filter(key="starter").update(price=2400)
    assert (
        "starter: would create an inclusive price of 2400 EUR"
        in await billing_prices.sync_prices(gateway, dry_run=True)
    )
    lines = await billing_prices.sync_prices(gateway, dry_run=False)
    changed = next(line for line in lines if line.startswith("starter:"))
    assert "created" in changed and "archived" in changed
    starter = await catalogue.get_plan("starter")
    assert starter is not None
    new_price = fake.get(starter.stripe_price_id or "")
    assert (new_price["unit_amount"], new_price["lookup_key"], new_price["active"]) == (
        2400,
        "starter",
        True,
    )
    old = [p for p in prices(fake) if p["unit_amount"] == 1900]
    assert len(old) == 1 and old[0]["active"] is False


async def test_dry_run_changes_nothing(shop: Any, fake: FakeStripe) -> None:
    gateway = shop.app.extensions["billing.gateway"]
    await Plan.filter(key="premium").update(price=59900)
    count = len(prices(fake))
    lines = await billing_prices.sync_prices(gateway, dry_run=True)
    assert "premium: would create an inclusive price of 59900 EUR" in lines
    assert len(prices(fake)) == count


async def test_a_changed_gross_or_net_setting_replaces_every_price(
    shop: Any, fake: FakeStripe
) -> None:
    """Stripe never changes a Price's tax_behavior: net prices (prices_include_vat off) get new
    exclusive Prices that take the lookup keys; the inclusive ones are archived, and the
    catalogue points at the new ones."""
    gateway = shop.app.extensions["billing.gateway"]
    before = {p.key: p.stripe_price_id for p in await catalogue.all_plans() if p.checkout}
    count = len(prices(fake))

    dry = await billing_prices.sync_prices(gateway, dry_run=True, prices_include_vat=False)
    assert any(
        line.startswith("professional: would replace ")
        and "(tax_behavior inclusive) with an exclusive price of 2900 EUR" in line
        for line in dry
    ), dry
    assert len(prices(fake)) == count

    lines = await billing_prices.sync_prices(gateway, dry_run=False, prices_include_vat=False)
    assert all("(tax_behavior changed)" in line for line in lines), lines
    for key, old_id in before.items():
        plan = await catalogue.get_plan(key)
        assert plan is not None and plan.stripe_price_id != old_id
        new = fake.get(plan.stripe_price_id or "")
        assert (new["tax_behavior"], new["lookup_key"], new["active"]) == ("exclusive", key, True)
        assert fake.get(old_id or "")["active"] is False

    again = await billing_prices.sync_prices(gateway, dry_run=False, prices_include_vat=False)
    assert all(": matched " in line for line in again)
