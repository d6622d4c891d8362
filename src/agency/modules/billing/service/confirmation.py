"""The order confirmation e-mail: queued as a job in the transaction that records a paid order
(the webhook's, once per order even when Stripe delivers the event again), sent by the job.

It states the package, the price (one-time or per period), the order number, the terms
version, and for a consumer the withdrawal information and whether they consented to an early
start (its text and time), as §312f BGB wants the contract confirmed on a durable medium."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

from tortoise.transactions import in_transaction

from agency.core import jobs, mail
from agency.core.settings import as_settings
from agency.modules.auth import api as auth_api
from agency.modules.billing.models import CheckoutSession, Order
from agency.modules.billing.service import order_terms
from agency.modules.billing.service.order_numbers import order_number
from agency.modules.billing.settings import BillingSettings
from agency.modules.catalogue import api as catalogue_api
from agency.modules.tax import api as tax_api

JOB_KIND = "billing.order_confirmation"
TEMPLATE = "order_confirmation"
MAX_ATTEMPTS = 10
log = logging.getLogger(__name__)


async def queue(order_id: int) -> None:
    """Queue the confirmation of a newly recorded order (call inside its transaction)."""
    await jobs.enqueue(JOB_KIND, {"order_id": order_id}, max_attempts=MAX_ATTEMPTS)


def order_terms_of(local: CheckoutSession | None, metadata: Mapping[str, Any]) -> dict[str, Any]:
    """What the order keeps of how it was made: from our own checkout session, else (a session
    we did not store) the buyer type in Stripe's metadata, and no consent."""
    if local is not None:
        return {
            "buyer_type": local.buyer_type,
            "early_start_consent_version": local.early_start_consent_version,
            "early_start_consent_at": local.early_start_consent_at,
            "terms_version": local.terms_version,
        }
    buyer = metadata.get("buyer_type")
    return {"buyer_type": buyer if buyer == order_terms.BUSINESS else order_terms.CONSUMER}


def handler(settings: BillingSettings) -> Callable[[dict[str, Any]], Awaitable[None]]:
    tax = as_settings(tax_api.TaxSettings, settings)

    async def handle(payload: dict[str, Any]) -> None:
        await send(int(payload["order_id"]), settings.public_url, tax)

    return handle


async def send(order_id: int, public_url: str, tax: tax_api.TaxSettings) -> int | None:
    """Queue the e-mail for the order, unless it was already; returns the mail's id."""
    async with in_transaction():
        # Claimed by the first run (the update's row lock); a retry after success finds it set.
        claimed = await Order.filter(id=order_id, confirmation_mail_id=None).update(
            confirmation_mail_id=0
        )
        if not claimed:
            return None
        order = await Order.get(id=order_id)
        account = await auth_api.get_account(order.user_id)
        if account is None:
            log.info("order confirmation not sent: the account is gone", extra={"order": order_id})
            return None
        context = await _context(order, account.first_name or "there", public_url, tax)
        context["vat"] = vat_line(order, tax)
        # The seller the withdrawal information names and the brand come from the mail
        # footer's shared `seller` (legal module), as in every other e-mail.
        mail_id = await mail.send_mail(account.email, TEMPLATE, context)
        await Order.filter(id=order_id).update(confirmation_mail_id=mail_id)
        return mail_id


def money(cents: int, currency: str, tax: tax_api.TaxSettings) -> str:
    """An amount in the configured price locale (tax.api's Babel formats): "€999.00"."""
    return tax_api.format_money(cents, currency, tax.price_locale)


def vat_line(order: Order, tax: tax_api.TaxSettings) -> str:
    """What the price holds of VAT, as the order's checkout decided it: Stripe Tax's amount
    when it calculated one, else the amount in a gross price at the checkout's rate."""
    if order.vat_kind == "reverse_charge":
        return "no VAT: reverse charge (Steuerschuldnerschaft des Leistungsempfängers)"
    if order.vat_kind == "small_business" or tax.vat_mode == "small_business":
        return "no VAT is charged (small business, § 19 UStG)"
    if order.vat_kind == "outside_eu":
        return "no VAT (a sale outside the EU)"
    if order.amount_tax is not None:
        return (
            f"incl. {money(order.amount_tax, order.currency, tax)} VAT"
            if order.amount_tax
            else "no VAT"
        )
    if tax.prices_include_vat and order.vat_rate:
        vat = tax_api.split(order.amount, order.vat_rate, inclusive=True).vat
        rate = tax_api.format_rate(order.vat_rate, tax.price_locale)
        return f"incl. {money(vat, order.currency, tax)} VAT ({rate})"
    return "incl. VAT" if tax.prices_include_vat else "excl. VAT"


def when(moment: datetime) -> str:
    """ "26 November 2026, 14:05 UTC"."""
    return f"{moment.day} {moment:%B %Y, %H:%M} UTC"


def day(moment: datetime) -> str:
    return f"{moment.day} {moment:%B %Y}"


async def _context(
    order: Order, name: str, public_url: str, tax: tax_api.TaxSettings
) -> dict[str, Any]:
    plan = await catalogue_api.get_plan(order.plan_key)
    if plan is not None and plan.mode == "subscription":
        period = f"per {plan.interval or 'month'}"
    else:
        period = "one-time"
    consumer = order.buyer_type != order_terms.BUSINESS
    starts = order_terms.work_starts_on(
        order.buyer_type, order.early_start_consent_at, order.order_date
    )
    return {
        "name": name,
        "order_number": order_number(order.id),
        "order_date": day(order.order_date),
        "plan_name": plan.name if plan else order.plan_key,
        "price": money(order.amount, order.currency, tax),
        "period": period,
        "delivery": plan.delivery if plan else None,
        "guarantee": getattr(plan, "guarantee", None),
        "terms_version": order.terms_version or order_terms.TERMS_VERSION,
        "terms_url": f"{public_url}/terms",
        "withdrawal_url": f"{public_url}/withdrawal",
        "dashboard_url": f"{public_url}/dashboard",
        "site_url": public_url,
        "consumer": consumer,
        "consented": order.early_start_consent_at is not None,
        "consent_text": order_terms.EARLY_START_CONSENT_TEXTS.get(
            order.early_start_consent_version or "", order_terms.EARLY_START_CONSENT_TEXT
        ),
        "consent_version": order.early_start_consent_version,
        "consent_at": when(order.early_start_consent_at) if order.early_start_consent_at else None,
        "work_starts_on": day(starts) if starts else None,
        "withdrawal_days": order_terms.WITHDRAWAL_DAYS,
    }
