"""`agency stripe sync`: a Stripe Product and Price for every plan sold through checkout."""

from __future__ import annotations

from typing import Any

from agency.modules.billing.clients import StripeGateway
from agency.modules.catalogue import api as catalogue_api


def tax_behavior(prices_include_vat: bool) -> str:
    """The Stripe Price's `tax_behavior` for the catalogue's prices: gross prices are
    `inclusive` (the buyer pays the same whatever the rate), net ones `exclusive`."""
    return "inclusive" if prices_include_vat else "exclusive"


async def sync_prices(
    gateway: StripeGateway, *, dry_run: bool, prices_include_vat: bool = True
) -> list[str]:
    """Create or match a Stripe Product and Price for every plan sold through checkout.

    The Price's lookup_key is the plan key; a changed amount, or a `tax_behavior` other than
    the setting `prices_include_vat` asks for (Stripe never changes it on a Price), makes a new
    Price (taking over the lookup key), archives the old one and makes the new one the
    catalogue's current. Returns one line per plan saying what happened.
    """
    behavior = tax_behavior(prices_include_vat)
    lines = []
    for plan in await catalogue_api.all_plans():
        if not plan.checkout:
            continue
        recurring = {"interval": plan.interval} if plan.mode == "subscription" else None
        matches = await gateway.prices_by_lookup_key(plan.key)
        same_amount = [p for p in matches if _price_matches(p, plan.price, recurring)]
        current = next((p for p in same_amount if p.get("tax_behavior") == behavior), None)
        other_tax = next((p for p in same_amount if p.get("tax_behavior") != behavior), None)
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
            if other_tax is not None:
                lines.append(
                    f"{plan.key}: would replace {other_tax['id']} (tax_behavior "
                    f"{other_tax.get('tax_behavior') or 'unspecified'}) with an {behavior} price "
                    f"of {plan.price} {plan.currency}"
                )
            else:
                lines.append(
                    f"{plan.key}: would create an {behavior} price of {plan.price} {plan.currency}"
                )
            continue
        old = other_tax or (matches[0] if matches else None)
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
            "tax_behavior": behavior,
            "metadata": {"plan": plan.key},
        }
        if recurring:
            params["recurring"] = recurring
        price_id = await gateway.create_price(params)
        await catalogue_api.set_stripe_ids(plan.key, product_id=product_id, price_id=price_id)
        if old is not None:
            await gateway.archive_price(old["id"])
            why = " (tax_behavior changed)" if old is other_tax else ""
            lines.append(f"{plan.key}: created {price_id} ({behavior}), archived {old['id']}{why}")
        else:
            lines.append(f"{plan.key}: created {price_id} ({behavior})")
    return lines


def _price_matches(price: dict[str, Any], amount: int, recurring: dict[str, Any] | None) -> bool:
    price_recurring = price.get("recurring")
    interval = price_recurring.get("interval") if isinstance(price_recurring, dict) else None
    return (
        price.get("unit_amount") == amount
        and str(price.get("currency", "")).lower() == "eur"
        and interval == (recurring or {}).get("interval")
    )
