"""Monthly recurring revenue as Stripe counts it (docs/features/mrr.md), and the movement log the
webhook events write: `monthly_value` turns a Stripe subscription into its MRR; `record_change`
writes the movement of a subscription whose MRR changed, in the event's transaction.

Stripe's definitions (eu-selling.md D2): only `active` and `past_due` subscriptions count;
trialing, incomplete, incomplete_expired, unpaid, canceled and paused count 0. Each item's
`price.unit_amount * quantity` is normalised to a month (year: /12, week: *52/12, day: *365/12,
each divided by `interval_count`); metered items (usage_type `metered`) count 0. Only coupons
whose `duration` is `forever` reduce it (percent_off, or amount_off per billing period normalised
the same way); `once` and `repeating` do not. VAT is excluded: an `exclusive` price's amount is
net; for an `inclusive` price the tax share of the latest invoice is taken out
(`total_excluding_tax / total`, else the subtotals) when Stripe Tax split it, else the rate
checkout chose (the subscription's metadata `vat_kind`, `vat_rate`), else the amount as it is.
Rounded half up to the cent once, at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from agency.modules.billing.models import MOVEMENT_WEBHOOK, MrrMovement, Subscription

COUNTED_STATUSES = ("active", "past_due")
# How many of each interval make twelve months.
PER_YEAR = {"day": Fraction(365), "week": Fraction(52), "month": Fraction(12), "year": Fraction(1)}


def monthly_value(subscription: Mapping[str, Any]) -> tuple[int, str]:
    """The subscription's MRR in cents and its currency (upper case; "" when it has no price).
    Pure: reads only the given (re-fetched, expanded) subscription."""
    currency = _currency(subscription)
    if subscription.get("status") not in COUNTED_STATUSES:
        return 0, currency
    total = Fraction(0)
    for item in _items(subscription):
        total += _item_monthly(item)
    if total <= 0:
        return 0, currency
    total = _apply_forever_discounts(total, subscription)
    total *= _net_share(subscription)
    return max(0, round_half_up(total)), currency


def details(subscription: Mapping[str, Any]) -> dict[str, Any]:
    """The columns our subscription row keeps of what its MRR is computed from."""
    mrr, currency = monthly_value(subscription)
    items = _items(subscription)
    price = _obj(items[0].get("price")) if items else {}
    recurring = _obj(price.get("recurring"))
    coupon = next(iter(_forever_coupons(subscription)), None)
    amount = price.get("unit_amount")
    return {
        "mrr": mrr,
        "currency": currency,
        "interval": str(recurring.get("interval") or "")[:8] or None,
        "interval_count": _int(recurring.get("interval_count"), 1),
        "quantity": sum(_int(item.get("quantity"), 1) for item in items) if items else 1,
        "unit_amount": amount if type(amount) is int else None,
        "forever_coupon_id": str(coupon.get("id"))[:255] if coupon and coupon.get("id") else None,
    }


def _items(subscription: Mapping[str, Any]) -> list[dict[str, Any]]:
    items = _obj(subscription.get("items")).get("data")
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _currency(subscription: Mapping[str, Any]) -> str:
    value = subscription.get("currency")
    if not value:
        items = _items(subscription)
        value = _obj(items[0].get("price")).get("currency") if items else None
    return str(value or "").upper()[:3]


def _item_monthly(item: Mapping[str, Any]) -> Fraction:
    price = _obj(item.get("price")) or _obj(item.get("plan"))
    recurring = _obj(price.get("recurring"))
    if not recurring and price.get("interval"):  # a legacy plan object
        recurring = {
            "interval": price.get("interval"),
            "interval_count": price.get("interval_count"),
        }
    if recurring.get("usage_type") == "metered":
        return Fraction(0)
    amount = price.get("unit_amount", price.get("amount"))
    if type(amount) is not int or amount <= 0:
        decimal = price.get("unit_amount_decimal")
        try:
            amount = Fraction(str(decimal)) if decimal is not None else 0
        except (ValueError, ZeroDivisionError):
            amount = 0
        if amount <= 0:
            return Fraction(0)
    quantity = _int(item.get("quantity"), 1)
    return _per_month(Fraction(amount) * quantity, recurring)


def _per_month(amount: Fraction, recurring: Mapping[str, Any]) -> Fraction:
    per_year = PER_YEAR.get(str(recurring.get("interval") or "month"))
    if per_year is None:
        return Fraction(0)
    count = _int(recurring.get("interval_count"), 1)
    return amount * per_year / 12 / count


def _forever_coupons(subscription: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The coupons of the subscription's discounts (expanded) whose duration is `forever`."""
    discounts: list[Any] = []
    listed = subscription.get("discounts")
    if isinstance(listed, list):
        discounts.extend(listed)
    legacy = subscription.get("discount")  # older API versions: one discount
    if isinstance(legacy, dict):
        discounts.append(legacy)
    coupons = []
    for discount in discounts:
        if not isinstance(discount, dict):
            continue  # not expanded: unknown, not counted
        coupon = _obj(_obj(discount.get("source")).get("coupon")) or _obj(discount.get("coupon"))
        if coupon.get("duration") == "forever" and coupon.get("valid", True) is not False:
            coupons.append(coupon)
    return coupons


def _apply_forever_discounts(total: Fraction, subscription: Mapping[str, Any]) -> Fraction:
    items = _items(subscription)
    price = _obj(items[0].get("price")) if items else {}
    recurring = _obj(price.get("recurring")) or {"interval": "month"}
    currency = _currency(subscription).lower()
    for coupon in _forever_coupons(subscription):
        percent = coupon.get("percent_off")
        amount_off = coupon.get("amount_off")
        if isinstance(percent, int | float) and not isinstance(percent, bool) and percent > 0:
            total -= total * Fraction(str(percent)) / 100
        elif (
            type(amount_off) is int
            and amount_off > 0
            and str(coupon.get("currency") or currency).lower() == currency
        ):
            # Taken off each invoice: per billing period, normalised like the price.
            total -= _per_month(Fraction(amount_off), recurring)
    return max(total, Fraction(0))


def _net_share(subscription: Mapping[str, Any]) -> Fraction:
    """The share of the amount that is not VAT: 1 for exclusive prices; for inclusive ones what
    the latest invoice says when Stripe Tax split it (its total, else its subtotal, without and
    with tax), else
    the rate checkout chose (the metadata's `vat_kind` standard and `vat_rate` in basis points),
    else 1 (no VAT: reverse charge, small business, outside the EU, or unknown)."""
    items = _items(subscription)
    if not any(_obj(i.get("price")).get("tax_behavior") == "inclusive" for i in items):
        return Fraction(1)
    invoice = _obj(subscription.get("latest_invoice"))
    # What was charged (after discounts) first: its tax is on exactly that amount.
    for without_key, with_key in (
        ("total_excluding_tax", "total"),
        ("subtotal_excluding_tax", "subtotal"),
    ):
        without, with_tax = invoice.get(without_key), invoice.get(with_key)
        if type(without) is int and type(with_tax) is int and 0 <= without < with_tax:
            return Fraction(without, with_tax)
    return vat_free_share(_obj(subscription.get("metadata")))


def vat_free_share(metadata: Mapping[str, Any]) -> Fraction:
    """The net share of a gross amount at the VAT rate checkout chose (metadata `vat_kind`
    standard, `vat_rate` basis points): 10000 / (10000 + rate); 1 without VAT."""
    rate = str(metadata.get("vat_rate") or "")
    if metadata.get("vat_kind") != "standard" or not rate.isdigit() or len(rate) > 5:
        return Fraction(1)
    return Fraction(10000, 10000 + int(rate))


def round_half_up(value: Fraction) -> int:
    return int((value * 2 + 1) // 2)


def _int(value: object, default: int) -> int:
    return value if type(value) is int and value > 0 else default


def _obj(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


# --- the movement log ---------------------------------------------------------------------------


def classify(customer_before: int, customer_after: int, *, had_mrr_before: bool) -> str:
    """The kind of a movement from the customer's MRR (all their subscriptions of the currency)
    before and after it."""
    if customer_before <= 0 < customer_after:
        return "reactivation" if had_mrr_before else "new"
    if customer_after <= 0 < customer_before:
        return "churn"
    return "expansion" if customer_after > customer_before else "contraction"


async def record_change(
    *,
    subscription_id: str,
    user_id: int,
    old_mrr: int,
    old_currency: str,
    new_mrr: int,
    new_currency: str,
    event_id: str | None,
    occurred_at: datetime,
    source: str = MOVEMENT_WEBHOOK,
) -> list[MrrMovement]:
    """Write the movement(s) of a subscription whose MRR went from `old` to `new` (call before
    the row is updated). A change of currency is a churn in the old one and a start in the new
    one. Nothing when nothing changed, or when this event already wrote it."""
    if old_mrr == new_mrr and (old_currency == new_currency or old_mrr == 0):
        return []
    if event_id is not None and await MrrMovement.exists(
        subscription_id=subscription_id, event_id=event_id
    ):
        return []  # the same event applied again (a replay)
    changes: list[tuple[str, int, int]] = []  # currency, before, after
    if old_currency != new_currency and old_mrr > 0:
        changes.append((old_currency, old_mrr, 0))
        if new_mrr > 0:
            changes.append((new_currency, 0, new_mrr))
    else:
        changes.append((new_currency or old_currency, old_mrr, new_mrr))
    written = []
    when = occurred_at.astimezone(UTC)
    for currency, before, after in changes:
        customer_before = await _customer_mrr(user_id, currency)
        customer_after = customer_before - before + after
        had = await MrrMovement.exists(user_id=user_id, currency=currency)
        active = 1 if before <= 0 < after else -1 if after <= 0 < before else 0
        written.append(
            await MrrMovement.create(
                subscription_id=subscription_id,
                user_id=user_id,
                event_id=event_id if len(changes) == 1 or after > 0 else None,
                kind=classify(customer_before, customer_after, had_mrr_before=had),
                delta=after - before,
                mrr_after=after,
                active_delta=active,
                currency=currency,
                occurred_at=when,
                day=when.date(),
                source=source,
            )
        )
    return written


async def _customer_mrr(user_id: int, currency: str) -> int:
    """The customer's MRR in `currency` now: the sum of their subscriptions' (stored) MRR."""
    rows: list[int] = await Subscription.filter(  # type: ignore[assignment]
        user_id=user_id, currency=currency
    ).values_list("mrr", flat=True)
    return sum(int(r) for r in rows)
