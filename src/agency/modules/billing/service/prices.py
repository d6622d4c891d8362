"""The catalogue's Products and Prices at Stripe: `agency stripe sync` (every plan) and the
admins' catalogue page (one plan, `catalogue_admin`), both through `sync_plan_price`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agency.modules.billing.clients import StripeGateway
from agency.modules.catalogue import api as catalogue_api

log = logging.getLogger(__name__)

Save = Callable[[str, str], Awaitable[None]]
"""Stores a plan's (product id, price id) once its Stripe price exists."""


def tax_behavior(prices_include_vat: bool) -> str:
    """The Stripe Price's `tax_behavior` for the catalogue's prices: gross prices are
    `inclusive` (the buyer pays the same whatever the rate), net ones `exclusive`."""
    return "inclusive" if prices_include_vat else "exclusive"


@dataclass(frozen=True)
class PlanPriceSync:
    """What `sync_plan_price` did for one plan: `line` as `agency stripe sync` prints it, the
    plan's Stripe ids afterwards (None in a dry run that would create them), the new price's
    id when one was created and the old one archived (or to archive, when `archive_error`
    says archiving failed)."""

    line: str
    product_id: str | None = None
    price_id: str | None = None
    created: str | None = None
    archived: str | None = None
    archive_error: str | None = None


async def sync_prices(
    gateway: StripeGateway, *, dry_run: bool, prices_include_vat: bool = True
) -> list[str]:
    """Create or match a Stripe Product and Price for every plan sold through checkout
    (`sync_plan_price` for each). Returns one line per plan saying what happened."""
    lines = []
    for plan in await catalogue_api.all_plans():
        if not plan.checkout:
            continue
        done = await sync_plan_price(
            gateway, plan, dry_run=dry_run, prices_include_vat=prices_include_vat
        )
        lines.append(done.archive_error or done.line)
    return lines


def _store_ids(plan: catalogue_api.PlanInfo) -> Save:
    """The catalogue's own store of the ids: written only when they differ."""

    async def save(product_id: str, price_id: str) -> None:
        if (plan.stripe_product_id, plan.stripe_price_id) != (product_id, price_id):
            await catalogue_api.set_stripe_ids(plan.key, product_id=product_id, price_id=price_id)

    return save


async def sync_plan_price(
    gateway: StripeGateway,
    plan: catalogue_api.PlanInfo,
    *,
    dry_run: bool = False,
    prices_include_vat: bool = True,
    save: Save | None = None,
) -> PlanPriceSync:
    """Create or match the Stripe Product and Price of one plan as `plan` describes it (its
    price, interval, Stripe ids).

    The Price's lookup_key is the plan key; a changed amount, or a `tax_behavior` other than
    the setting `prices_include_vat` asks for (Stripe never changes it on a Price), makes a new
    Price (taking over the lookup key) and archives the old one. `save(product_id, price_id)`
    stores the ids (by default the catalogue's, when they changed) after the new Price exists
    and before the old one is archived, so the catalogue never names an archived price: when
    `save` fails, the new Price is archived again and the error raised. A failed archive of
    the old Price is reported in `archive_error` (the new one is in use by then).
    """
    save = save or _store_ids(plan)
    behavior = tax_behavior(prices_include_vat)
    recurring = {"interval": plan.interval} if plan.mode == "subscription" else None
    matches = await gateway.prices_by_lookup_key(plan.key)
    same_amount = [p for p in matches if _price_matches(p, plan.price, recurring)]
    current = next((p for p in same_amount if p.get("tax_behavior") == behavior), None)
    other_tax = next((p for p in same_amount if p.get("tax_behavior") != behavior), None)
    if current is not None:
        product_id = _id_of(current["product"])
        if not dry_run:
            await save(product_id, current["id"])
        return PlanPriceSync(
            f"{plan.key}: matched {current['id']}", product_id=product_id, price_id=current["id"]
        )
    if dry_run:
        if other_tax is not None:
            line = (
                f"{plan.key}: would replace {other_tax['id']} (tax_behavior "
                f"{other_tax.get('tax_behavior') or 'unspecified'}) with an {behavior} price "
                f"of {plan.price} {plan.currency}"
            )
        else:
            line = f"{plan.key}: would create an {behavior} price of {plan.price} {plan.currency}"
        return PlanPriceSync(line, product_id=plan.stripe_product_id)
    old = other_tax or (matches[0] if matches else None)
    product_id = plan.stripe_product_id or (
        _id_of(old["product"])
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
    try:
        await save(product_id, price_id)
    except Exception:
        await _archive_quietly(gateway, price_id)
        raise
    if old is None:
        return PlanPriceSync(
            f"{plan.key}: created {price_id} ({behavior})",
            product_id=product_id,
            price_id=price_id,
            created=price_id,
        )
    why = " (tax_behavior changed)" if old is other_tax else ""
    line = f"{plan.key}: created {price_id} ({behavior}), archived {old['id']}{why}"
    archive_error = None
    try:
        await gateway.archive_price(old["id"])
    except Exception as exc:  # the new price is stored and in use: say what is left to do
        log.warning("stripe price not archived", extra={"price": old["id"], "error": str(exc)})
        archive_error = (
            f"{plan.key}: created {price_id} ({behavior}), but archiving the old price "
            f"{old['id']} failed ({_reason(exc)}): archive it in the Stripe dashboard"
        )
    return PlanPriceSync(
        line,
        product_id=product_id,
        price_id=price_id,
        created=price_id,
        archived=old["id"],
        archive_error=archive_error,
    )


async def _archive_quietly(gateway: StripeGateway, price_id: str) -> None:
    """Undo a price created for a change that was then not saved (best effort)."""
    try:
        await gateway.archive_price(price_id)
    except Exception as exc:
        log.warning("stripe price left active", extra={"price": price_id, "error": str(exc)})


def _reason(exc: BaseException) -> str:
    """Stripe's own message for an error, else the exception's text."""
    message = getattr(exc, "user_message", None) or str(exc) or type(exc).__name__
    return str(message)


def _id_of(product: Any) -> str:
    return str(product["id"]) if isinstance(product, dict) else str(product)


def _price_matches(price: dict[str, Any], amount: int, recurring: dict[str, Any] | None) -> bool:
    price_recurring = price.get("recurring")
    interval = price_recurring.get("interval") if isinstance(price_recurring, dict) else None
    return (
        price.get("unit_amount") == amount
        and str(price.get("currency", "")).lower() == "eur"
        and interval == (recurring or {}).get("interval")
    )
