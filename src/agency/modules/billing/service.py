"""Billing use cases: checkout, webhooks (the only truth about payments), reads, Stripe sync.

Webhook rules (../shared/design/security-and-apis.md A1): the signature is checked on the raw
body; each event is stored with its id unique and applied in the same transaction as its
effects, so a duplicate delivery, even a concurrent one, is a no-op; subscription state is
re-fetched from Stripe, so events in any order converge; our own failure answers 5xx so Stripe
retries, and the event is kept as failed for `agency stripe replay --failed`.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from agency.core.errors import Conflict, NotFound, ServiceUnavailable, ValidationFailed
from agency.modules.auth.api import Account
from agency.modules.billing.clients import MSG_NOT_CONFIGURED, StripeGateway
from agency.modules.billing.models import (
    CheckoutSession,
    Customer,
    Order,
    Subscription,
    WebhookEvent,
)
from agency.modules.billing.schemas import CheckoutStatus, OrderOut, SubscriptionOut
from agency.modules.catalogue import api as catalogue_api
from agency.modules.sites import api as sites_api

log = logging.getLogger(__name__)

MSG_SELECT_PACKAGE = "Please select a package"
MSG_REQUIRED = "Please fill in all required fields"
MSG_INVALID_PACKAGE = "Please select a valid package"
MSG_CHECKOUT_FAILED = "Failed to create checkout session"
MSG_NO_BILLING_ACCOUNT = "You have no billing account yet: buy a plan first."
PROCESSED, FAILED, IGNORED = "processed", "failed", "ignored"
ACTIVE_STATUSES = ("active", "trialing")

SUBSCRIPTION_EVENTS = {
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
}
INVOICE_EVENTS = {"invoice.paid", "invoice.payment_failed", "invoice.payment_succeeded"}
CHECKOUT_EVENTS = {
    "checkout.session.completed",
    "checkout.session.async_payment_succeeded",
    "checkout.session.expired",
}
HANDLED = SUBSCRIPTION_EVENTS | INVOICE_EVENTS | CHECKOUT_EVENTS


def _now() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------- checkout


def check_visitor_fields(plan_key: str, full_name: str, email: str, password: str) -> None:
    """The spec's order for a signed-out buyer: a package, then the account fields."""
    if not plan_key.strip():
        raise ValidationFailed(MSG_SELECT_PACKAGE, fields={"plan": MSG_SELECT_PACKAGE})
    if not (full_name.strip() and email.strip() and password):
        raise ValidationFailed(MSG_REQUIRED)


async def validate_plan(gateway: StripeGateway, plan_key: str) -> catalogue_api.PlanInfo:
    """The plan to sell, once we know it can be sold: checked before any account is created."""
    if not plan_key.strip():
        raise ValidationFailed(MSG_SELECT_PACKAGE, fields={"plan": MSG_SELECT_PACKAGE})
    plan = await catalogue_api.get_plan(plan_key.strip())
    if plan is None or not plan.active or not plan.checkout:
        raise ValidationFailed(MSG_INVALID_PACKAGE, fields={"plan": MSG_INVALID_PACKAGE})
    if not gateway.configured:
        raise ServiceUnavailable(MSG_NOT_CONFIGURED, code="payments_not_configured")
    if not plan.stripe_price_id:
        log.error("plan has no Stripe price: run `agency stripe sync`", extra={"plan": plan.key})
        raise ValidationFailed(MSG_CHECKOUT_FAILED, code="checkout_failed")
    return plan


async def _customer_for(gateway: StripeGateway, account: Account) -> str:
    """The user's Stripe customer, created on their first checkout and reused after."""
    existing = await Customer.get_or_none(user_id=account.id)
    if existing is not None:
        return existing.stripe_customer_id
    customer_id = await gateway.create_customer(
        email=account.email, name=account.full_name or account.email, user_id=account.id
    )
    try:
        await Customer.create(user_id=account.id, stripe_customer_id=customer_id)
    except IntegrityError:
        # Another request of the same user won the race; use its customer.
        return (await Customer.get(user_id=account.id)).stripe_customer_id
    return customer_id


@dataclass(frozen=True)
class CheckoutRequest:
    plan_key: str
    domain: str
    page: str  # "start" or "ai-start": where a cancelled checkout returns to


async def create_checkout(
    gateway: StripeGateway, account: Account, request: CheckoutRequest, public_url: str
) -> str:
    """A Stripe Checkout Session for the plan; returns the address to send the buyer to."""
    plan = await validate_plan(gateway, request.plan_key)
    domain = ""
    if request.domain.strip() and plan.takes_domain:
        domain = sites_api.clean_domain(request.domain)
    if plan.mode == "subscription" and await Subscription.exists(
        user_id=account.id, plan_key=plan.key, status__in=ACTIVE_STATUSES
    ):
        raise Conflict(
            f"You already have an active {plan.name} subscription. "
            "Manage it from your dashboard's billing page.",
            code="already_subscribed",
        )
    customer_id = await _customer_for(gateway, account)
    metadata = {"plan": plan.key, "domain": domain, "user_id": str(account.id)}
    cancel_url = (
        f"{public_url}/ai-start?canceled=true"
        if request.page == "ai-start"
        else f"{public_url}/start?canceled=true&type={plan.family}&plan={plan.key}"
    )
    params: dict[str, Any] = {
        "mode": plan.mode,
        "customer": customer_id,
        "client_reference_id": str(account.id),
        "line_items": [{"price": plan.stripe_price_id, "quantity": 1}],
        "success_url": f"{public_url}/success?session_id={{CHECKOUT_SESSION_ID}}",
        "cancel_url": cancel_url,
        "metadata": metadata,
    }
    if plan.mode == "subscription":
        params["subscription_data"] = {"metadata": metadata}
    else:
        params["payment_intent_data"] = {"metadata": metadata}
    try:
        session = await gateway.create_checkout_session(params)
    except Exception as exc:
        log.exception("checkout session failed", extra={"plan": plan.key})
        raise ValidationFailed(MSG_CHECKOUT_FAILED, code="checkout_failed") from exc
    await CheckoutSession.create(
        id=session["id"],
        user_id=account.id,
        plan_key=plan.key,
        domain=domain or None,
        mode=plan.mode,
    )
    return str(session["url"])


# ---------------------------------------------------------------- webhooks


async def receive_event(gateway: StripeGateway, event: dict[str, Any]) -> str:
    """Apply a verified event once; returns processed, duplicate or ignored."""
    event_id = str(event["id"])
    existing = await WebhookEvent.get_or_none(id=event_id)
    if existing is not None and existing.status in (PROCESSED, IGNORED):
        return "duplicate"
    if event.get("type") not in HANDLED:
        await _record(event, IGNORED, None)
        return IGNORED
    try:
        effects = await _prepare(gateway, event)  # Stripe calls happen outside the transaction
        async with in_transaction():
            if existing is None:
                await WebhookEvent.create(
                    id=event_id,
                    type=event["type"],
                    created=int(event.get("created") or 0),
                    status=PROCESSED,
                    payload=event,
                    processed_at=_now(),
                )
            else:
                claimed = await WebhookEvent.filter(id=event_id, status=FAILED).update(
                    status=PROCESSED, error=None, processed_at=_now()
                )
                if not claimed:
                    return "duplicate"
            await effects.apply()
    except IntegrityError:
        return "duplicate"  # the same event, delivered concurrently, won
    except Exception as exc:
        await _record(event, FAILED, f"{type(exc).__name__}: {exc}")
        raise
    return PROCESSED


async def _record(event: dict[str, Any], status: str, error: str | None) -> None:
    values = {
        "type": str(event.get("type")),
        "created": int(event.get("created") or 0),
        "status": status,
        "error": error,
        "payload": event,
    }
    with contextlib.suppress(IntegrityError):  # a concurrent delivery recorded it
        await WebhookEvent.update_or_create(defaults=values, id=str(event["id"]))


class Effects:
    """What an event changes, prepared with Stripe's current objects, applied in one
    transaction."""

    def __init__(self) -> None:
        self.subscription: dict[str, Any] | None = None
        self.order: dict[str, Any] | None = None
        self.session_status: tuple[str, str] | None = None
        self.website: tuple[int, str] | None = None
        self.customer: tuple[int, str] | None = None

    async def apply(self) -> None:
        if self.customer is not None:
            user_id, customer_id = self.customer
            if not await Customer.exists(user_id=user_id):
                await Customer.create(user_id=user_id, stripe_customer_id=customer_id)
        if self.subscription is not None:
            await _upsert_subscription(self.subscription)
        if self.order is not None and not await Order.exists(
            checkout_session_id=self.order["checkout_session_id"]
        ):
            await Order.create(**self.order)
        if self.session_status is not None:
            session_id, status = self.session_status
            completed = _now() if status == "complete" else None
            await (
                CheckoutSession.filter(id=session_id)
                .exclude(status="complete")
                .update(status=status, completed_at=completed)
            )
        if self.website is not None:
            user_id, domain = self.website
            await sites_api.create_website(user_id, domain)


async def _user_for(customer_id: str | None, metadata: dict[str, Any] | None) -> int | None:
    user_id = (metadata or {}).get("user_id")
    if user_id and str(user_id).isdigit():
        return int(user_id)
    if customer_id:
        customer = await Customer.get_or_none(stripe_customer_id=customer_id)
        if customer is not None:
            return customer.user_id
    return None


def _card(payment_method: Any) -> tuple[str | None, str | None]:
    if isinstance(payment_method, dict) and isinstance(payment_method.get("card"), dict):
        card = payment_method["card"]
        return card.get("brand"), card.get("last4")
    return None, None


def _period_end(subscription: dict[str, Any]) -> int | None:
    """Current API versions keep the period on the items; older ones on the subscription."""
    items = (subscription.get("items") or {}).get("data") or []
    for item in items:
        if item.get("current_period_end"):
            return int(item["current_period_end"])
    value = subscription.get("current_period_end")
    return int(value) if value else None


def _price_id(subscription: dict[str, Any]) -> str | None:
    items = (subscription.get("items") or {}).get("data") or []
    price = items[0].get("price") if items else None
    if isinstance(price, dict):
        return str(price.get("id"))
    return str(price) if price else None


async def _subscription_row(subscription: dict[str, Any]) -> dict[str, Any] | None:
    customer = subscription.get("customer")
    customer_id = customer.get("id") if isinstance(customer, dict) else customer
    user_id = await _user_for(customer_id, subscription.get("metadata"))
    if user_id is None:
        log.warning("subscription of an unknown customer", extra={"id": subscription.get("id")})
        return None
    price_id = _price_id(subscription)
    plan_key = (subscription.get("metadata") or {}).get("plan")
    if price_id and not plan_key:
        plan = await catalogue_api.plan_by_price_id(price_id)
        plan_key = plan.key if plan else None
    brand, last4 = _card(subscription.get("default_payment_method"))
    return {
        "id": subscription["id"],
        "user_id": user_id,
        "customer_id": customer_id,
        "status": subscription.get("status", "incomplete"),
        "price_id": price_id,
        "plan_key": plan_key,
        "current_period_end": _period_end(subscription),
        "cancel_at_period_end": bool(subscription.get("cancel_at_period_end")),
        "card_brand": brand,
        "card_last4": last4,
        "stripe_created": int(subscription.get("created") or 0),
    }


async def _upsert_subscription(row: dict[str, Any]) -> None:
    existing = await Subscription.get_or_none(id=row["id"])
    values = {k: v for k, v in row.items() if k != "id"}
    if existing is None:
        await Subscription.create(**row)
        return
    # Keep a card we learnt earlier when this fetch did not include one.
    if values["card_brand"] is None:
        values.pop("card_brand")
        values.pop("card_last4")
    await Subscription.filter(id=row["id"]).update(**values)


def _subscription_id_of_invoice(invoice: dict[str, Any]) -> str | None:
    subscription = invoice.get("subscription")
    if subscription is None:
        details = ((invoice.get("parent") or {}).get("subscription_details")) or {}
        subscription = details.get("subscription")
    if isinstance(subscription, dict):
        subscription = subscription.get("id")
    return str(subscription) if subscription else None


async def _prepare(gateway: StripeGateway, event: dict[str, Any]) -> Effects:
    effects = Effects()
    kind = event["type"]
    obj: dict[str, Any] = event["data"]["object"]
    if kind in SUBSCRIPTION_EVENTS:
        effects.subscription = await _subscription_row(
            await gateway.retrieve_subscription(obj["id"])
        )
    elif kind in INVOICE_EVENTS:
        subscription_id = _subscription_id_of_invoice(obj)
        if subscription_id:
            effects.subscription = await _subscription_row(
                await gateway.retrieve_subscription(subscription_id)
            )
    elif kind == "checkout.session.expired":
        effects.session_status = (obj["id"], "expired")
    else:  # checkout.session.completed / async_payment_succeeded
        await _prepare_completed_checkout(gateway, obj["id"], effects)
    return effects


async def _prepare_completed_checkout(
    gateway: StripeGateway, session_id: str, effects: Effects
) -> None:
    session = await gateway.retrieve_checkout_session(session_id)
    if session.get("payment_status") not in ("paid", "no_payment_required"):
        return  # a delayed payment method: async_payment_succeeded follows
    metadata = session.get("metadata") or {}
    local = await CheckoutSession.get_or_none(id=session_id)
    user_id = await _user_for(session.get("customer"), metadata)
    if user_id is None and session.get("client_reference_id", "").isdigit():
        user_id = int(session["client_reference_id"])
    if user_id is None and local is not None:
        user_id = local.user_id
    if user_id is None:
        raise ValueError(f"checkout session {session_id} belongs to no known user")
    plan_key = metadata.get("plan") or (local.plan_key if local else "")
    if session.get("customer"):
        effects.customer = (user_id, str(session["customer"]))
    brand = last4 = None
    payment_intent_id = session.get("payment_intent")
    subscription_id = session.get("subscription")
    if isinstance(subscription_id, dict):
        subscription_id = subscription_id.get("id")
    if session.get("mode") == "subscription" and subscription_id:
        effects.subscription = await _subscription_row(
            await gateway.retrieve_subscription(str(subscription_id))
        )
        if effects.subscription is not None:
            brand = effects.subscription["card_brand"]
            last4 = effects.subscription["card_last4"]
    elif payment_intent_id:
        if isinstance(payment_intent_id, dict):
            payment_intent_id = payment_intent_id.get("id")
        intent = await gateway.retrieve_payment_intent(str(payment_intent_id))
        brand, last4 = _card(intent.get("payment_method"))
    effects.order = {
        "user_id": user_id,
        "plan_key": plan_key,
        "checkout_session_id": session_id,
        "payment_intent_id": payment_intent_id if isinstance(payment_intent_id, str) else None,
        "subscription_id": str(subscription_id) if subscription_id else None,
        "amount": int(session.get("amount_total") or 0),
        "currency": str(session.get("currency") or "eur").upper(),
        "status": "paid",
        "card_brand": brand,
        "card_last4": last4,
        "order_date": datetime.fromtimestamp(int(session.get("created") or 0), UTC)
        if session.get("created")
        else _now(),
    }
    effects.session_status = (session_id, "complete")
    domain = metadata.get("domain") or (local.domain if local else None)
    plan = await catalogue_api.get_plan(plan_key) if plan_key else None
    if domain and plan is not None and plan.takes_domain:
        effects.website = (user_id, domain)


async def replay(gateway: StripeGateway, *, failed_only: bool, ids: list[str]) -> dict[str, str]:
    """Apply stored events again (failed ones, or the given ids); returns id -> outcome."""
    query = WebhookEvent.all().order_by("created", "received_at")
    if ids:
        query = query.filter(id__in=ids)
    elif failed_only:
        query = query.filter(status=FAILED)
    outcomes: dict[str, str] = {}
    for stored in await query:
        if stored.status != FAILED:
            await WebhookEvent.filter(id=stored.id).update(status=FAILED)  # allow re-applying
        try:
            outcomes[stored.id] = await receive_event(gateway, stored.payload)
        except Exception as exc:
            outcomes[stored.id] = f"failed: {exc}"
    return outcomes


async def reconcile(gateway: StripeGateway) -> list[str]:
    """Re-fetch every known subscription from Stripe; returns the ids updated."""
    updated = []
    for subscription in await Subscription.all():
        row = await _subscription_row(await gateway.retrieve_subscription(subscription.id))
        if row is not None:
            await _upsert_subscription(row)
            updated.append(subscription.id)
    return updated


# ---------------------------------------------------------------- reads


async def current_subscription(user_id: int) -> SubscriptionOut | None:
    """The user's subscription: an active one first, else the newest."""
    subscriptions = await Subscription.filter(user_id=user_id).order_by("-stripe_created")
    if not subscriptions:
        return None
    chosen = next((s for s in subscriptions if s.status in ACTIVE_STATUSES), subscriptions[0])
    plan = await catalogue_api.plan_by_price_id(chosen.price_id) if chosen.price_id else None
    if plan is None and chosen.plan_key:
        plan = await catalogue_api.get_plan(chosen.plan_key)
    return SubscriptionOut(
        subscription_status=chosen.status,
        price_id=chosen.price_id,
        plan_key=plan.key if plan else chosen.plan_key,
        plan_name=plan.name if plan else None,
        current_period_end=chosen.current_period_end,
        cancel_at_period_end=chosen.cancel_at_period_end,
        payment_method_brand=chosen.card_brand,
        payment_method_last4=chosen.card_last4,
    )


async def list_orders(user_id: int) -> list[OrderOut]:
    orders = await Order.filter(user_id=user_id).order_by("-order_date", "-id")
    names = {p.key: p.name for p in await catalogue_api.all_plans(include_inactive=True)}
    return [
        OrderOut(
            id=o.id,
            plan_key=o.plan_key,
            plan_name=names.get(o.plan_key, o.plan_key),
            amount=o.amount,
            currency=o.currency,
            status=o.status,
            order_date=o.order_date,
            card_brand=o.card_brand,
            card_last4=o.card_last4,
        )
        for o in orders
    ]


async def checkout_status(user_id: int, session_id: str) -> CheckoutStatus:
    """Whether the webhook has recorded this checkout yet (what /success waits for)."""
    session = await CheckoutSession.get_or_none(id=session_id, user_id=user_id)
    if session is None:
        raise NotFound("We could not find that checkout.")
    plan = await catalogue_api.get_plan(session.plan_key)
    status = {"complete": "paid", "expired": "expired"}.get(session.status, "pending")
    return CheckoutStatus(
        status=status,
        mode=session.mode,
        plan_key=session.plan_key,
        plan_name=plan.name if plan else session.plan_key,
    )


async def portal_url(gateway: StripeGateway, user_id: int, return_url: str) -> str:
    customer = await Customer.get_or_none(user_id=user_id)
    if customer is None:
        raise ValidationFailed(MSG_NO_BILLING_ACCOUNT, code="no_billing_account")
    return await gateway.create_portal_session(
        customer=customer.stripe_customer_id, return_url=return_url
    )


# ---------------------------------------------------------------- Stripe catalogue sync


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


# ---------------------------------------------------------------- account data


async def export_user(user_id: int) -> Any:
    subscription = await current_subscription(user_id)
    return {
        "subscription": subscription.model_dump(mode="json") if subscription else None,
        "orders": [o.model_dump(mode="json") for o in await list_orders(user_id)],
    }


async def erase_user(user_id: int) -> None:
    """Orders are kept for the books (anonymised); the customer link is dropped."""
    await Customer.filter(user_id=user_id).delete()
    await Order.filter(user_id=user_id).update(user_id=0)
    await Subscription.filter(user_id=user_id).update(user_id=0)
    await CheckoutSession.filter(user_id=user_id).update(user_id=0)
