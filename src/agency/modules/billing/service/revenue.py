"""Money received and paid back, net of VAT (the owner's revenue figures), and the payment
failures of invoices: written by the webhook events, in their transaction, once per Stripe
object.

Net of VAT as Stripe counts it (eu-selling.md D2): a one-time order's `amount_total` minus Stripe
Tax's `total_details.amount_tax`; without Stripe Tax the VAT within a gross (inclusive) price at
the rate checkout chose (metadata `vat_kind`, `vat_rate`, `tax_behavior`); a subscription
invoice's `total_excluding_tax` when Stripe Tax split it, else the same rule with the
subscription's metadata. A refund takes back its share of the payment's net
(refund x net / gross), at the time of the refund.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from tortoise.expressions import F

from agency.modules.billing.models import ONE_TIME, RECURRING, PaymentFailure, RevenueEntry
from agency.modules.billing.service.mrr import round_half_up, vat_free_share


def _obj(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _id(value: object) -> str | None:
    if isinstance(value, dict):
        value = value.get("id")
    return str(value) if value else None


def _at(seconds: object, fallback: datetime) -> datetime:
    return (
        datetime.fromtimestamp(seconds, UTC) if type(seconds) is int and seconds > 0 else fallback
    )


def gross_net(gross: int, tax: int | None, metadata: Mapping[str, Any]) -> int:
    """The net of a gross amount: minus Stripe's tax when it calculated one, else minus the VAT
    within an inclusive price at checkout's rate."""
    if tax is not None:
        return gross - tax
    if metadata.get("tax_behavior") == "exclusive":
        return gross
    return round_half_up(Fraction(gross) * vat_free_share(metadata))


async def record_order_payment(order: Mapping[str, Any], metadata: Mapping[str, Any]) -> None:
    """A paid one-time order (an order without a subscription): its entry, once."""
    if order.get("subscription_id"):
        return  # a subscription's first payment is its first invoice (recurring)
    gross = int(order.get("amount") or 0)
    await _entry(
        stripe_id=str(order["checkout_session_id"]),
        kind=ONE_TIME,
        user_id=order.get("user_id"),
        plan_key=order.get("plan_key"),
        payment_intent_id=order.get("payment_intent_id"),
        gross=gross,
        net=gross_net(gross, order.get("amount_tax"), metadata),
        currency=str(order.get("currency") or "").upper(),
        occurred_at=order["order_date"],
    )


async def record_invoice_payment(
    invoice: Mapping[str, Any],
    *,
    subscription_id: str | None,
    user_id: int | None,
    plan_key: str | None,
    metadata: Mapping[str, Any],
    when: datetime,
) -> None:
    """A paid subscription invoice: its entry once (amount paid, net of its VAT); and a failed
    payment of it recovered."""
    if invoice.get("status") != "paid":
        return
    invoice_id = str(invoice["id"])
    paid_at = _at(_obj(invoice.get("status_transitions")).get("paid_at"), when)
    await PaymentFailure.filter(invoice_id=invoice_id, recovered_at__isnull=True).update(
        recovered_at=paid_at
    )
    if not subscription_id:
        return  # a one-time order's invoice: counted with the order
    gross = invoice.get("amount_paid")
    if type(gross) is not int:
        gross = int(invoice.get("total") or 0)
    if gross <= 0:
        return
    total, excluding = invoice.get("total"), invoice.get("total_excluding_tax")
    taxed = type(total) is int and type(excluding) is int and 0 <= excluding < total
    net = (
        round_half_up(Fraction(gross) * Fraction(excluding, total))  # type: ignore[arg-type]
        if taxed
        else gross_net(gross, None, metadata)
    )
    await _entry(
        stripe_id=invoice_id,
        kind=RECURRING,
        user_id=user_id,
        plan_key=plan_key,
        payment_intent_id=_payment_intent(invoice),
        gross=gross,
        net=net,
        currency=str(invoice.get("currency") or "").upper(),
        occurred_at=paid_at,
    )


def _payment_intent(invoice: Mapping[str, Any]) -> str | None:
    """The invoice's payment intent: its (expanded) payments', or the older field."""
    payments = _obj(invoice.get("payments")).get("data")
    for payment in payments if isinstance(payments, list) else []:
        found = _id(_obj(_obj(payment).get("payment")).get("payment_intent"))
        if found:
            return found
    return _id(invoice.get("payment_intent"))


async def record_refunds(charge: Mapping[str, Any], when: datetime) -> None:
    """Each succeeded refund of the charge, once, as a negative entry of the payment it pays
    back (one-time or recurring, the same plan), at the refund's time. A refund of a payment
    we hold no entry of is left out."""
    intent = _id(charge.get("payment_intent"))
    if not intent:
        return
    payment = await RevenueEntry.filter(payment_intent_id=intent, refund=False).first()
    if payment is None or payment.gross <= 0:
        return
    refunds = _obj(charge.get("refunds")).get("data")
    for refund in refunds if isinstance(refunds, list) else []:
        refund = _obj(refund)
        amount = refund.get("amount")
        if not refund.get("id") or type(amount) is not int or amount <= 0:
            continue
        if refund.get("status") not in (None, "succeeded", "pending"):
            continue
        net = round_half_up(Fraction(amount) * Fraction(int(payment.net), int(payment.gross)))
        await _entry(
            stripe_id=str(refund["id"]),
            kind=payment.kind,
            refund=True,
            user_id=payment.user_id,
            plan_key=payment.plan_key,
            payment_intent_id=None,
            gross=-amount,
            net=-net,
            currency=payment.currency,
            occurred_at=_at(refund.get("created"), when),
        )


async def _entry(**values: Any) -> None:
    if not values["currency"]:
        return
    await RevenueEntry.get_or_create(
        defaults={k: v for k, v in values.items() if k != "stripe_id"},
        stripe_id=values["stripe_id"],
    )


async def record_failure(
    invoice: Mapping[str, Any],
    *,
    subscription_id: str | None,
    user_id: int | None,
    when: datetime,
) -> None:
    """invoice.payment_failed: the invoice's failure recorded (one row per invoice, the
    attempts counted); already paid since (events out of order): recorded as recovered."""
    invoice_id = str(invoice["id"])
    paid = invoice.get("status") == "paid"
    paid_at = _at(_obj(invoice.get("status_transitions")).get("paid_at"), when) if paid else None
    existing = await PaymentFailure.get_or_none(invoice_id=invoice_id)
    if existing is not None:
        if when > existing.last_failed_at:  # a later attempt (the same event again: nothing)
            await PaymentFailure.filter(id=existing.id).update(
                attempts=F("attempts") + 1, last_failed_at=when
            )
        return
    await PaymentFailure.create(
        invoice_id=invoice_id,
        user_id=user_id,
        stripe_customer_id=_id(invoice.get("customer")),
        subscription_id=subscription_id,
        amount=int(invoice.get("amount_due") or invoice.get("total") or 0),
        currency=str(invoice.get("currency") or "").upper()[:3],
        failed_at=when,
        last_failed_at=when,
        recovered_at=paid_at,
    )
