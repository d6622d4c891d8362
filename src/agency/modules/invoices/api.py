"""What other modules may use of invoices: billing stores Stripe's invoices, credit notes and
refunds as their events arrive (`record_*`, idempotent); the user's invoice list; the VAT
report (billing's `agency billing vat-report` prints it)."""

from agency.modules.invoices.schemas import InvoiceList, InvoiceOut, VatReport
from agency.modules.invoices.service.reads import amount_text, invoices_for_user
from agency.modules.invoices.service.recording import (
    record_credit_note,
    record_invoice,
    record_refund,
)
from agency.modules.invoices.service.report import (
    current_quarter,
    parse_quarter,
    report_csv,
    vat_report,
)

__all__ = [
    "InvoiceList",
    "InvoiceOut",
    "VatReport",
    "amount_text",
    "current_quarter",
    "invoices_for_user",
    "parse_quarter",
    "record_credit_note",
    "record_invoice",
    "record_refund",
    "report_csv",
    "vat_report",
]
