"""`agency stripe sync`: a Stripe Product and Price for every plan sold through checkout."""

from __future__ import annotations

from typing import Any

from agency.modules.billing.clients import StripeGateway
from agency.modules.catalogue import api as catalogue_api


async def sync_prices(gateway: StripeGateway, *, dry_run: bool) -> list[str]:
    """Create or match a Stripe Product and Price for every plan sold through checkout.

    The Price's lookup_key is the plan key; a changed amount makes a new Price (taking over
    the lookup key) and archives the old one. Returns one line per plan saying what happened.
    """
    lines = []
    for plan in await catalogue_api.all_plans():
        if not plan.checkout:
            continue
        recurring = {"interval": plan.interval} if plan.mode == "subscription" else None
        matches = await gateway.prices_by_lookup_key(plan.key)
        current = next((p for p in matches if _price_matches(p, plan.price, recurring)), None)
        if current is not None:
            product = current["product"]
            product_id = product["id"] if isinstance(product, dict) else str(product)
            if plan.stripe_price_id != current["id"] and not dry_run:
                await catalogue_api.set_stripe_ids(
                    plan.key, product_id=product_id, price_id=current["id"]
                )
            lines.append(f"{plan.key}: matched {current['id']}")
            continue
        if dry_run:
            lines.append(f"{plan.key}: would create a price of {plan.price} {plan.currency}")
            continue
        old = matches[0] if matches else None
        product_id = plan.stripe_product_id or (
            (old["product"]["id"] if isinstance(old["product"], dict) else old["product"])
            if old
            else await gateway.create_product(
                name=plan.name, description=plan.description, plan_key=plan.key
            )
        )
        params: dict[str, Any] = {
            "product": product_id,
            "unit_amount": plan.price,
            "currency": plan.currency.lower(),
            "lookup_key": plan.key,
            "transfer_lookup_key": True,
            "metadata": {"plan": plan.key},
        }
        if recurring:
            params["recurring"] = recurring
        price_id = await gateway.create_price(params)
        await catalogue_api.set_stripe_ids(plan.key, product_id=product_id, price_id=price_id)
        if old is not None:
            await gateway.archive_price(old["id"])
            lines.append(f"{plan.key}: created {price_id}, archived {old['id']}")
        else:
            lines.append(f"{plan.key}: created {price_id}")
    return lines


def _price_matches(price: dict[str, Any], amount: int, recurring: dict[str, Any] | None) -> bool:
    price_recurring = price.get("recurring")
    interval = price_recurring.get("interval") if isinstance(price_recurring, dict) else None
    return (
        price.get("unit_amount") == amount
        and str(price.get("currency", "")).lower() == "eur"
        and interval == (recurring or {}).get("interval")
    )
