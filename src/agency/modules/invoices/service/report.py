"""The agency's VAT report for one quarter.

What counts (documented in docs/features/invoices.md): invoices in the quarter they were paid
(cash basis, §20 UStG "Ist-Versteuerung", the usual case of a small agency); credit notes in the
quarter they were issued, refunds not covered by a credit note in the quarter they were made,
both reducing that quarter (a refund split over the invoice's rates in proportion). Void, open
and uncollectible invoices do not count. Times are UTC. Amounts never mix currencies."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from agency.core.errors import ValidationFailed
from agency.modules.invoices.models import CREDIT_NOTE, INVOICE, Invoice, Refund
from agency.modules.invoices.schemas import (
    CurrencyTotal,
    OssRow,
    ReverseChargeRow,
    Threshold,
    VatReport,
    VatRow,
)
from agency.modules.tax import api as tax_api

QUARTER = re.compile(r"^\s*(\d{4})\s*-?\s*[Qq]([1-4])\s*$")
MSG_QUARTER = "Please give a quarter such as 2026Q4."
THRESHOLD_CENTS = 1_000_000  # €10,000 (Art. 59c VAT Directive, §3a(5) UStG)
BASIS = (
    "Invoices count in the quarter they were paid; credit notes in the quarter they were "
    "issued and refunds in the quarter they were made reduce it."
)


def parse_quarter(text: str) -> tuple[int, int]:
    """ "2026Q4" (also "2026-q4") -> (2026, 4); anything else raises ValidationFailed."""
    found = QUARTER.match(text or "")
    if not found or not 1970 <= int(found.group(1)) <= 9998:
        raise ValidationFailed(MSG_QUARTER, fields={"quarter": MSG_QUARTER})
    return int(found.group(1)), int(found.group(2))


def quarter_bounds(year: int, quarter: int) -> tuple[datetime, datetime]:
    """[start, end) of the quarter, UTC."""
    start = datetime(year, 3 * quarter - 2, 1, tzinfo=UTC)
    end = (
        datetime(year + 1, 1, 1, tzinfo=UTC)
        if quarter == 4
        else (datetime(year, 3 * quarter + 1, 1, tzinfo=UTC))
    )
    return start, end


def current_quarter(now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return f"{now.year}Q{(now.month - 1) // 3 + 1}"


@dataclass(frozen=True)
class Part:
    """One document's share at one rate in the period (negative for credit notes, refunds)."""

    document: str
    currency: str
    country: str | None
    rate: int
    kind: str
    net: int
    vat: int
    buyer_type: str
    vat_id: str | None
    name: str | None


def _parts_of(doc: Invoice, sign: int, key: str) -> list[Part]:
    return [
        Part(
            key,
            doc.currency,
            doc.country,
            int(line.get("rate", 0)),
            str(line.get("kind", "standard")),
            sign * int(line.get("net", 0)),
            sign * int(line.get("vat", 0)),
            doc.buyer_type,
            doc.buyer_vat_id,
            doc.buyer_name,
        )
        for line in doc.tax_lines
    ]


def split_refund(amount: int, lines: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """A refund of `amount` (gross cents) over an invoice's tax lines in proportion to their
    gross: (net, vat) per line, summing exactly to `amount` (the last line takes the rest)."""
    grosses = [int(line.get("net", 0)) + int(line.get("vat", 0)) for line in lines]
    total = sum(grosses)
    out: list[tuple[int, int]] = []
    left = amount
    for index, (line, gross) in enumerate(zip(lines, grosses, strict=True)):
        if index == len(lines) - 1:
            share = left
        else:
            share = (amount * gross + total // 2) // total if total else 0
        left -= share
        vat = (share * int(line.get("vat", 0)) + gross // 2) // gross if gross else 0
        out.append((share - vat, vat))
    return out


async def _parts(start: datetime, end: datetime) -> tuple[list[Part], int]:
    """Every document's share in [start, end), and the refunds no stored invoice explains."""
    parts: list[Part] = []
    paid = await Invoice.filter(kind=INVOICE, paid_at__gte=start, paid_at__lt=end).exclude(
        status="void"
    )
    for doc in paid:
        parts.extend(_parts_of(doc, 1, doc.stripe_invoice_id))
    notes = await Invoice.filter(kind=CREDIT_NOTE, issued_at__gte=start, issued_at__lt=end).exclude(
        status="void"
    )
    corrected_ids = {n.corrects_stripe_id for n in notes if n.corrects_stripe_id}
    refunds = await Refund.filter(
        refunded_at__gte=start, refunded_at__lt=end, status__in=("succeeded", "pending")
    )
    corrected_ids |= {r.stripe_invoice_id for r in refunds if r.stripe_invoice_id}
    invoices = {
        i.stripe_invoice_id: i
        for i in await Invoice.filter(stripe_invoice_id__in=sorted(corrected_ids))
    }
    for note in notes:
        original = invoices.get(note.corrects_stripe_id or "")
        if original is not None and original.paid_at is None:
            continue  # a note on an unpaid invoice: the invoice never counted either
        parts.extend(_parts_of(note, -1, note.stripe_invoice_id))
    unlinked = 0
    for refund in refunds:
        if refund.credit_note_stripe_id:
            continue  # its credit note carries it
        original = invoices.get(refund.stripe_invoice_id or "")
        if original is None or not original.tax_lines:
            unlinked += refund.amount
            continue
        for line, (net, vat) in zip(
            original.tax_lines, split_refund(refund.amount, original.tax_lines), strict=True
        ):
            parts.append(
                Part(
                    refund.stripe_refund_id,
                    original.currency,
                    original.country,
                    int(line.get("rate", 0)),
                    str(line.get("kind", "standard")),
                    -net,
                    -vat,
                    original.buyer_type,
                    original.buyer_vat_id,
                    original.buyer_name,
                )
            )
    return parts, unlinked


def _cross_border_consumer(part: Part, home: str) -> bool:
    return (
        part.buyer_type == "consumer"
        and part.kind != "reverse_charge"
        and part.country is not None
        and part.country != home
        and part.country in tax_api.EU_COUNTRIES
    )


def _eur(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}€{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


async def _threshold(year: int, end: datetime, home: str) -> Threshold:
    this_year, _ = await _parts(datetime(year, 1, 1, tzinfo=UTC), end)
    last_year, _ = await _parts(
        datetime(year - 1, 1, 1, tzinfo=UTC), datetime(year, 1, 1, tzinfo=UTC)
    )

    def total(parts: list[Part]) -> int:
        return sum(p.net for p in parts if p.currency == "eur" and _cross_border_consumer(p, home))

    current, previous = total(this_year), total(last_year)
    exceeded = current > THRESHOLD_CENTS or previous > THRESHOLD_CENTS
    figures = f"{year}: {_eur(current)}; {year - 1}: {_eur(previous)}"
    if exceeded:
        line = (
            f"The €10,000 EU threshold for cross-border consumer sales is exceeded ({figures}): "
            "consumers in other EU countries pay their country's VAT, declared through the "
            "One-Stop-Shop."
        )
    else:
        line = (
            f"The €10,000 EU threshold for cross-border consumer sales is not exceeded ({figures})."
        )
    return Threshold(
        limit=THRESHOLD_CENTS,
        year=year,
        current_year=current,
        previous_year=previous,
        exceeded=exceeded,
        line=line,
    )


async def vat_report(quarter: str, *, home_country: str = "DE") -> VatReport:
    """The quarter's revenue and VAT per country and rate, the reverse-charge sales per EU
    business (recapitulative statement), the consumer sales per other EU country (One-Stop-Shop
    return) and the €10,000 threshold."""
    year, number = parse_quarter(quarter)
    start, end = quarter_bounds(year, number)
    home = home_country.upper()
    parts, unlinked = await _parts(start, end)
    rows: dict[tuple[str, str | None, int, str], list[Any]] = {}
    for part in parts:
        row = rows.setdefault((part.currency, part.country, part.rate, part.kind), [0, 0, set()])
        row[0] += part.net
        row[1] += part.vat
        row[2].add(part.document)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for part in parts:
        totals[part.currency][0] += part.net
        totals[part.currency][1] += part.vat
    reverse: dict[tuple[str, str], list[Any]] = {}
    for part in parts:
        if part.kind == "reverse_charge" and part.vat_id:
            entry = reverse.setdefault(
                (part.vat_id, part.currency), [part.country or part.vat_id[:2], part.name, 0, set()]
            )
            entry[2] += part.net
            entry[3].add(part.document)
    oss: dict[tuple[str, int, str], list[int]] = defaultdict(lambda: [0, 0])
    for part in parts:
        if _cross_border_consumer(part, home) and part.country:
            oss[(part.country, part.rate, part.currency)][0] += part.net
            oss[(part.country, part.rate, part.currency)][1] += part.vat
    return VatReport(
        quarter=f"{year}Q{number}",
        start=start.date(),
        end=date.fromordinal(end.date().toordinal() - 1),
        home_country=home,
        basis=BASIS,
        rows=[
            VatRow(
                currency=currency,
                country=country,
                rate=rate,
                kind=kind,
                net=net,
                vat=vat,
                gross=net + vat,
                documents=len(documents),
            )
            for (currency, country, rate, kind), (net, vat, documents) in sorted(
                rows.items(),
                key=lambda item: (item[0][0], item[0][1] or "~", -item[0][2], item[0][3]),
            )
        ],
        totals=[
            CurrencyTotal(currency=currency, net=net, vat=vat, gross=net + vat)
            for currency, (net, vat) in sorted(totals.items())
        ],
        reverse_charge=[
            ReverseChargeRow(
                vat_id=vat_id,
                country=country,
                name=name,
                currency=currency,
                net=net,
                documents=len(documents),
            )
            for (vat_id, currency), (country, name, net, documents) in sorted(reverse.items())
        ],
        oss=[
            OssRow(country=country, rate=rate, currency=currency, net=net, vat=vat)
            for (country, rate, currency), (net, vat) in sorted(oss.items())
        ],
        threshold=await _threshold(year, end, home),
        unlinked_refunds=unlinked,
    )


def report_csv(report: VatReport) -> str:
    """The report as one CSV table: a `section` column tells the parts apart; amounts in cents
    and in units (two decimals)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [
            "section",
            "currency",
            "country",
            "rate_percent",
            "kind",
            "vat_id",
            "name",
            "net",
            "vat",
            "gross",
            "documents",
        ]
    )

    def units(cents: int) -> str:
        sign = "-" if cents < 0 else ""
        return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"

    def percent(rate: int) -> str:
        return f"{rate // 100}.{rate % 100:02d}"

    for row in report.rows:
        writer.writerow(
            [
                "sales",
                row.currency.upper(),
                row.country or "",
                percent(row.rate),
                row.kind,
                "",
                "",
                units(row.net),
                units(row.vat),
                units(row.gross),
                row.documents,
            ]
        )
    for rc in report.reverse_charge:
        writer.writerow(
            [
                "recapitulative_statement",
                rc.currency.upper(),
                rc.country,
                "0.00",
                "reverse_charge",
                rc.vat_id,
                _csv_text(rc.name),
                units(rc.net),
                "0.00",
                units(rc.net),
                rc.documents,
            ]
        )
    for oss in report.oss:
        writer.writerow(
            [
                "oss",
                oss.currency.upper(),
                oss.country,
                percent(oss.rate),
                "consumer",
                "",
                "",
                units(oss.net),
                units(oss.vat),
                units(oss.net + oss.vat),
                "",
            ]
        )
    for total in report.totals:
        writer.writerow(
            [
                "total",
                total.currency.upper(),
                "",
                "",
                "",
                "",
                "",
                units(total.net),
                units(total.vat),
                units(total.gross),
                "",
            ]
        )
    t = report.threshold
    writer.writerow(
        [
            "threshold",
            "EUR",
            "",
            "",
            "exceeded" if t.exceeded else "not_exceeded",
            "",
            f"{t.year}: {units(t.current_year)}; {t.year - 1}: {units(t.previous_year)}",
            "",
            "",
            "",
            "",
        ]
    )
    return out.getvalue()


def _csv_text(value: str | None) -> str:
    """No spreadsheet formula from a buyer's name."""
    value = value or ""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value
