"""The customer's invoices, their e-invoices, and the admins' invoice list and VAT report."""

from __future__ import annotations

from quart import Blueprint, Response, jsonify
from quart_schema import document_response, validate_querystring, validate_response

from agency.core.web import openapi, settings_of
from agency.modules.auth import web as auth_web
from agency.modules.invoices.schemas import (
    AdminInvoiceList,
    AdminInvoiceQuery,
    EInvoiceQuery,
    InvoiceList,
    VatReport,
    VatReportQuery,
)
from agency.modules.invoices.service import einvoice, reads, report
from agency.modules.legal.api import LegalSettings
from agency.modules.tax.api import TaxSettings

blueprint = Blueprint("invoices", __name__)


def _home_country() -> str:
    return settings_of(TaxSettings).vat_country


@blueprint.get("/api/invoices")
@auth_web.login_required
@validate_response(InvoiceList, 200)
async def get_invoices() -> InvoiceList:
    """The signed-in user's invoices and credit notes, newest first."""
    account = await auth_web.require_account()
    return await reads.invoices_for_user(account.id)


@blueprint.get("/api/invoices/<int:invoice_id>/e-invoice")
@auth_web.login_required
@validate_querystring(EInvoiceQuery)
@openapi.answers(
    200,
    "The e-invoice as a download: CII XML, or the hybrid PDF.",
    "application/xml",
    "application/pdf",
)
async def get_e_invoice(invoice_id: int, query_args: EInvoiceQuery) -> Response:
    """The EN 16931 e-invoice of a business invoice as a download: the Factur-X/ZUGFeRD CII
    XML, or with ?format=pdf the hybrid PDF that embeds it (its owner or an admin; 404 for a
    consumer's invoice)."""
    account = await auth_web.require_account()
    seller = einvoice.seller_of(settings_of(LegalSettings), vat_country=_home_country())
    pdf = query_args.format == "pdf"
    name, document = await einvoice.e_invoice(
        invoice_id, user_id=account.id, admin=account.is_admin, seller=seller, pdf=pdf
    )
    return Response(
        document,
        content_type="application/pdf" if pdf else "application/xml; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@blueprint.get("/api/admin/invoices")
@auth_web.admin_required
@validate_querystring(AdminInvoiceQuery)
@validate_response(AdminInvoiceList, 200)
async def get_admin_invoices(query_args: AdminInvoiceQuery) -> AdminInvoiceList:
    """Every invoice and credit note, newest first; ?customer= (e-mail, user id or Stripe
    customer id) and ?month=YYYY-MM (admins only)."""
    return await reads.admin_invoices(query_args.customer, query_args.month)


@blueprint.get("/api/admin/vat-report")
@auth_web.admin_required
@validate_querystring(VatReportQuery)
@document_response(VatReport, 200)
async def get_vat_report(query_args: VatReportQuery) -> Response:
    """The VAT report of a quarter (?quarter=2026Q4, default the current one); &format=csv
    for the CSV download (admins only)."""
    quarter = query_args.quarter or report.current_quarter()
    found = await report.vat_report(quarter, home_country=_home_country())
    if query_args.format == "csv":
        return Response(
            report.report_csv(found),
            content_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="vat-{found.quarter}.csv"'},
        )
    return jsonify(found.model_dump(mode="json"))
