"""Reading Stripe's Invoice and CreditNote objects (API 2026-10-28.endive, stripe 16.1's
`_invoice.py`, `_credit_note.py`): every optional field may be absent or null."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from agency.modules.tax import api as tax_api

REVERSE = "reverse_charge"
ID_MAX = 255  # the id columns' length (Stripe ids are far shorter)
STATUS_MAX = 32


def obj(value: Any) -> dict[str, Any]:
    """A nested object, or an empty one for None and an unexpanded id."""
    return value if isinstance(value, dict) else {}


def ref(value: Any) -> str | None:
    """The id of a field that Stripe sends as an id or, expanded, as the object."""
    if isinstance(value, str) and value:
        return value[:ID_MAX]
    if isinstance(value, dict) and isinstance(value.get("id"), str) and value["id"]:
        return str(value["id"])[:ID_MAX]
    return None


def cents(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def text(value: Any, limit: int = 2000) -> str | None:
    if not isinstance(value, str):
        return None
    value = " ".join(value.split())
    return value[:limit] or None


def when(value: Any) -> datetime | None:
    """A Stripe timestamp (seconds) as an aware datetime."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return datetime.fromtimestamp(value, UTC)
    return None


def percentage_bp(value: Any) -> int | None:
    """A percentage as Stripe writes it (19, 5.5, "25.5") in basis points (1900, 550, 2550)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    if not number.is_finite() or number < 0 or number > 100:
        return None
    return int((number * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def rate_of(tax: Mapping[str, Any], country: str | None, rates: Mapping[str, int]) -> int:
    """A tax amount's rate in basis points: from the tax rate's percentage when known (an
    expanded `tax_rate_details.tax_rate`, or `rates` by tax rate id, which the caller fetched
    with GET /v1/tax_rates/{id}), else computed from amount / taxable amount and, when that is
    within rounding of the country's standard rate, that rate."""
    details = obj(tax.get("tax_rate_details"))
    rate_ref = details.get("tax_rate")
    if isinstance(rate_ref, dict):
        for key in ("percentage", "effective_percentage"):
            found = percentage_bp(rate_ref.get(key))
            if found is not None:
                return found
    rate_id = ref(rate_ref)
    if rate_id and rate_id in rates:
        return rates[rate_id]
    for key in ("percentage", "percentage_decimal", "effective_percentage"):
        found = percentage_bp(details.get(key))
        if found is not None:
            return found
    amount, taxable = cents(tax.get("amount")), cents(tax.get("taxable_amount"))
    if amount <= 0 or taxable <= 0:
        return 0
    computed = Decimal(amount * 10000) / Decimal(taxable)
    # Half a cent of rounding on the tax moves the computed rate by this much (plus one): a
    # standard rate that close is the rate (the buyer's country's first, then any EU one).
    tolerance = Decimal(5000) / Decimal(taxable) + 1
    own = tax_api.standard_rate(country) if country else None
    candidates = [own] if own is not None else []
    candidates += sorted(set(tax_api.eu_rates().values()), key=lambda r: abs(computed - r))
    for candidate in candidates:
        if abs(computed - candidate) <= tolerance:
            return candidate
    return int(computed.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def line_kind(reason: str | None, rate: int, *, country: str | None, small_business: bool) -> str:
    """standard | reverse_charge | small_business | outside_eu | zero (another 0 % reason)."""
    if reason == REVERSE:
        return REVERSE
    if rate > 0:
        return "standard"
    if small_business:
        return "small_business"
    if country and country not in tax_api.EU_COUNTRIES:
        return "outside_eu"
    return "zero"


@dataclass
class TaxLine:
    rate: int
    net: int
    vat: int
    taxability_reason: str | None
    kind: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "rate": self.rate,
            "net": self.net,
            "vat": self.vat,
            "taxability_reason": self.taxability_reason,
            "kind": self.kind,
        }


def tax_lines(
    taxes: Any,
    *,
    net_total: int,
    country: str | None,
    rates: Mapping[str, int],
    small_business: bool,
    reverse_charge: bool,
) -> list[TaxLine]:
    """The document's tax per rate (and reason), from `total_taxes`; without any (no tax
    calculated), one 0 % line over the whole net amount."""
    grouped: dict[tuple[int, str | None], TaxLine] = {}
    for tax in taxes if isinstance(taxes, list) else []:
        if not isinstance(tax, dict):
            continue
        reason = tax.get("taxability_reason")
        reason = reason if isinstance(reason, str) else None
        rate = rate_of(tax, country, rates)
        key = (rate, reason)
        line = grouped.get(key)
        if line is None:
            kind = line_kind(reason, rate, country=country, small_business=small_business)
            line = grouped[key] = TaxLine(rate, 0, 0, reason, kind)
        line.net += cents(tax.get("taxable_amount"))
        line.vat += cents(tax.get("amount"))
    lines = sorted(grouped.values(), key=lambda line: (-line.rate, line.kind))
    if not lines:
        reason = REVERSE if reverse_charge else None
        kind = line_kind(reason, 0, country=country, small_business=small_business)
        return [TaxLine(0, net_total, 0, reason, kind)]
    covered = sum(line.net for line in lines)
    if covered != net_total and len(lines) == 1:
        lines[0].net = net_total  # a taxable amount Stripe left out: the whole net is at that rate
    return lines


def address(value: Any) -> dict[str, str] | None:
    found = obj(value)
    kept = {
        key: str(found[key])[:200]
        for key in ("line1", "line2", "postal_code", "city", "state", "country")
        if isinstance(found.get(key), str) and found[key]
    }
    return kept or None


def country_code(value: Any) -> str | None:
    if isinstance(value, str) and len(value) == 2 and value.isalpha():
        return value.upper()
    return None


def vat_id_of(tax_ids: Any) -> str | None:
    """The buyer's EU VAT ID among the invoice's `customer_tax_ids` (type eu_vat first)."""
    found = [t for t in tax_ids if isinstance(t, dict)] if isinstance(tax_ids, list) else []
    for wanted in ("eu_vat", None):
        for tax_id in found:
            if (wanted is None or tax_id.get("type") == wanted) and isinstance(
                tax_id.get("value"), str
            ):
                return "".join(tax_id["value"].split()).upper()[:32] or None
    return None


def seller_vat_id_of(account_tax_ids: Any) -> str | None:
    """The seller's VAT ID when `account_tax_ids` came expanded (else ids only: None)."""
    for tax_id in account_tax_ids if isinstance(account_tax_ids, list) else []:
        if isinstance(tax_id, dict) and isinstance(tax_id.get("value"), str):
            return "".join(tax_id["value"].split()).upper()[:32] or None
    return None


def payment_intent_of(invoice: Mapping[str, Any]) -> str | None:
    """The invoice's payment intent (only in an invoice fetched with expand[]=payments)."""
    payments = obj(invoice.get("payments")).get("data")
    for payment in payments if isinstance(payments, list) else []:
        found = ref(obj(obj(payment).get("payment")).get("payment_intent"))
        if found:
            return found
    return None


def invoice_lines(
    invoice: Mapping[str, Any], country: str | None, rates: Mapping[str, int]
) -> list[dict[str, Any]]:
    """The invoice's lines as the e-invoice lists them: description, quantity, net, VAT, rate,
    period."""
    data = obj(invoice.get("lines")).get("data")
    out: list[dict[str, Any]] = []
    for line in data if isinstance(data, list) else []:
        if not isinstance(line, dict):
            continue
        amount = cents(line.get("amount"))
        taxes = [t for t in line.get("taxes") or [] if isinstance(t, dict)]
        vat = sum(cents(t.get("amount")) for t in taxes)
        inclusive = any(t.get("tax_behavior") == "inclusive" for t in taxes)
        if taxes and any(isinstance(t.get("taxable_amount"), int) for t in taxes):
            net = sum(cents(t.get("taxable_amount")) for t in taxes)
        else:
            net = amount - vat if inclusive else amount
        rate = rate_of(taxes[0], country, rates) if taxes else 0
        period = obj(line.get("period"))
        quantity = line.get("quantity")
        out.append(
            {
                "description": text(line.get("description"), 500) or "",
                "quantity": quantity if isinstance(quantity, int) and quantity > 0 else 1,
                "amount": net,
                "vat": vat,
                "rate": rate,
                "reason": taxes[0].get("taxability_reason") if taxes else None,
                "period_start": cents(period.get("start")) or None,
                "period_end": cents(period.get("end")) or None,
            }
        )
    return out
