"""The admins' catalogue page (/dashboard/admin/catalogue): read every family and plan, and
change a plan with its Stripe price.

A change that needs a Stripe price (a new price of a plan sold through checkout, or a plan put
back on sale) goes to Stripe first, through the same `prices.sync_plan_price` as
`agency stripe sync`: the new Price is created (it takes over the plan's lookup key), then the
catalogue saves the change, the price history, the new ids and the audit entries in one
transaction, then the old Price is archived. Stripe refusing the new Price changes nothing; the
catalogue refusing the change (say, a price changed meanwhile) archives the new Price again; a
failed archive of the old Price (the new one is in use then) is reported for the admin to do
in Stripe's dashboard. Existing subscriptions keep the Price they were created with: Stripe
never moves them, archived or not.

Without payments set up the change is saved and `agency stripe sync` creates the Price later.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Literal, cast

from agency.core.errors import AppError, NotFound
from agency.modules.audit.api import Actor
from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.service import prices
from agency.modules.catalogue import api as catalogue_api
from agency.modules.catalogue.api import AdminCatalogueOut, PlanChangesIn, PlanUpdateOut

log = logging.getLogger(__name__)

MSG_NOTHING = "Nothing changed."
MSG_SAVED = "Saved."
MSG_NOT_CONFIGURED = (
    "Saved. Payments are not set up, so no Stripe price was made: `agency stripe sync` "
    "creates it once they are."
)
MSG_NOT_SOLD = "Saved. This plan is not sold through checkout, so it has no Stripe price."
MSG_HIDDEN = "Saved. The plan is hidden from sale: its Stripe price is made when it is shown again."
MSG_STRIPE_FAILED = "Stripe did not accept the new price ({reason}). Nothing was changed."
MSG_KEEP = "Existing subscribers keep their current price."


class StripeFailed(AppError):
    """Stripe refused or could not be reached; nothing was changed."""

    status = 502
    code = "stripe_error"


async def catalogue(gateway: StripeGateway) -> AdminCatalogueOut:
    """Every family with every plan, hidden ones included, with Stripe ids and price history."""
    return await catalogue_api.admin_catalogue(payments_configured=gateway.configured)


def _euros(cents: int) -> str:
    return f"€{cents / 100:,.2f}"


async def change_plan(
    gateway: StripeGateway,
    key: str,
    changes: PlanChangesIn,
    *,
    actor: Actor,
    prices_include_vat: bool,
) -> PlanUpdateOut:
    """Apply an admin's changes to the plan `key` (see the module's doc for the order)."""
    plan = await catalogue_api.get_plan(key)
    if plan is None:
        raise NotFound(f"There is no plan {key!r}.", code="plan_not_found")
    pending = await catalogue_api.pending_changes(key, changes)
    if not pending:
        return PlanUpdateOut(
            plan=await catalogue_api.admin_plan(key), changed=[], message=MSG_NOTHING, stripe="none"
        )
    new_price = cast(int, pending["price"][1]) if "price" in pending else plan.price
    on_sale = bool(pending["on_sale"][1]) if "on_sale" in pending else plan.active
    price_matters = "price" in pending or (on_sale and "on_sale" in pending)
    if not price_matters:
        update = await catalogue_api.update_plan(key, changes, actor=actor)
        return await _answer(key, update, MSG_SAVED, "none")
    if not plan.checkout:
        update = await catalogue_api.update_plan(key, changes, actor=actor)
        return await _answer(key, update, MSG_NOT_SOLD, "not_sold")
    if not on_sale:
        update = await catalogue_api.update_plan(key, changes, actor=actor)
        return await _answer(key, update, MSG_HIDDEN, "none")
    if not gateway.configured:
        update = await catalogue_api.update_plan(key, changes, actor=actor)
        return await _answer(key, update, MSG_NOT_CONFIGURED, "not_configured")

    saved: list[catalogue_api.PlanUpdate] = []

    async def save(product_id: str, price_id: str) -> None:
        saved.append(
            await catalogue_api.update_plan(
                key,
                changes,
                actor=actor,
                stripe_ids=(product_id, price_id),
                expected_price=plan.price,
            )
        )

    target = dataclasses.replace(plan, price=new_price, active=True)
    try:
        done = await prices.sync_plan_price(
            gateway, target, prices_include_vat=prices_include_vat, save=save
        )
    except AppError:
        raise
    except Exception as exc:
        if saved or not _is_stripe_error(exc):
            raise
        log.warning("stripe refused a catalogue change", extra={"plan": key, "error": str(exc)})
        raise StripeFailed(MSG_STRIPE_FAILED.format(reason=_reason(exc))) from exc
    update = saved[0]
    if done.created:
        message = (
            f"Saved. {target.name} now costs {_euros(new_price)}: "
            f"Stripe price {done.created} created"
        )
        archived = done.archived and not done.archive_error
        message += f" and {done.archived} archived." if archived else "."
        if "price" in pending:
            message += f" {MSG_KEEP}"
        return await _answer(key, update, message, "created", warning=done.archive_error)
    return await _answer(
        key, update, f"Saved. Stripe already had this price ({done.price_id}).", "matched"
    )


async def _answer(
    key: str,
    update: catalogue_api.PlanUpdate,
    message: str,
    stripe: Literal["created", "matched", "not_configured", "not_sold", "none"],
    *,
    warning: str | None = None,
) -> PlanUpdateOut:
    return PlanUpdateOut(
        plan=await catalogue_api.admin_plan(key),
        changed=sorted(update.changes),
        message=message if update.changes else MSG_NOTHING,
        stripe=stripe,
        warning=warning,
    )


def _is_stripe_error(exc: BaseException) -> bool:
    import stripe  # imported here: the SDK is loaded only once payments are used

    return isinstance(exc, stripe.StripeError)


def _reason(exc: BaseException) -> str:
    message = getattr(exc, "user_message", None) or str(exc) or type(exc).__name__
    return str(message).rstrip(".")
