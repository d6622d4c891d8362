"""`agency invoices list` and `agency billing vat-report`: one file, two command groups
(`agency.commands` lists both apps)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.invoices.schemas import VatReport
from agency.modules.invoices.service import reads, report
from agency.modules.invoices.service.reads import amount_text
from agency.modules.tax.api import TaxSettings, rate_text

app = typer.Typer(help="Invoices and credit notes from Stripe.", no_args_is_help=True)
billing_app = typer.Typer(help="The agency's VAT figures.", no_args_is_help=True)


@app.command("list")
def list_invoices(
    ctx: typer.Context,
    customer: Annotated[
        str, typer.Option(help="Only this customer: e-mail, user id or Stripe customer id.")
    ] = "",
    month: Annotated[str, typer.Option(help="Only invoices issued in this month: YYYY-MM.")] = "",
) -> None:
    """Show the invoices and credit notes, newest first."""
    context: CliContext = ctx.obj
    try:
        found = context.run(lambda: reads.admin_invoices(customer, month))
    except AppError as error:
        errors.print(f"[red]{error.message}[/red]")
        raise typer.Exit(2) from error
    table = Table(title=f"{len(found.invoices)} invoice(s)")
    for column in (
        "date",
        "number",
        "kind",
        "customer",
        "type",
        "country",
        "net",
        "VAT",
        "gross",
        "status",
    ):
        table.add_column(column)
    for invoice in found.invoices:
        table.add_row(
            invoice.issued_at.strftime("%Y-%m-%d"),
            invoice.number + (f" (corrects {invoice.corrects})" if invoice.corrects else ""),
            invoice.kind.replace("_", " "),
            invoice.email or invoice.buyer_name or invoice.stripe_customer_id or "-",
            invoice.buyer_type + (f" {invoice.buyer_vat_id}" if invoice.buyer_vat_id else ""),
            invoice.country or "-",
            amount_text(invoice.net, invoice.currency),
            amount_text(invoice.vat, invoice.currency),
            amount_text(invoice.gross, invoice.currency),
            invoice.status.replace("_", " "),
        )
    console.print(table)


def _print_report(found: VatReport) -> None:
    console.print(f"VAT report {found.quarter} ({found.start} to {found.end})")
    console.print(found.basis)
    sales = Table(title="Revenue and VAT per country and rate")
    for column in ("country", "rate", "kind", "net", "VAT", "gross", "documents"):
        sales.add_column(column)
    for row in found.rows:
        sales.add_row(
            row.country or "-",
            rate_text(row.rate),
            row.kind.replace("_", " "),
            amount_text(row.net, row.currency),
            amount_text(row.vat, row.currency),
            amount_text(row.gross, row.currency),
            str(row.documents),
        )
    for total in found.totals:
        sales.add_row(
            "total",
            "",
            "",
            amount_text(total.net, total.currency),
            amount_text(total.vat, total.currency),
            amount_text(total.gross, total.currency),
            "",
        )
    console.print(sales)
    recap = Table(title="Reverse-charge sales to EU businesses (recapitulative statement)")
    for column in ("VAT ID", "country", "customer", "net", "documents"):
        recap.add_column(column)
    for rc in found.reverse_charge:
        recap.add_row(
            rc.vat_id,
            rc.country,
            rc.name or "-",
            amount_text(rc.net, rc.currency),
            str(rc.documents),
        )
    console.print(recap if found.reverse_charge else "No reverse-charge sales.")
    oss = Table(title="Consumer sales to other EU countries (One-Stop-Shop return)")
    for column in ("country", "rate", "net", "VAT"):
        oss.add_column(column)
    for sale in found.oss:
        oss.add_row(
            sale.country,
            rate_text(sale.rate),
            amount_text(sale.net, sale.currency),
            amount_text(sale.vat, sale.currency),
        )
    console.print(oss if found.oss else "No consumer sales to other EU countries.")
    console.print(found.threshold.line)
    if found.unlinked_refunds:
        console.print(
            f"Refunds without a stored invoice (not above): {amount_text(found.unlinked_refunds)}"
        )


@billing_app.command("vat-report")
def vat_report(
    ctx: typer.Context,
    quarter: Annotated[
        str, typer.Option(help="The quarter, e.g. 2026Q4 (default: this one).")
    ] = "",
    csv: Annotated[bool, typer.Option("--csv", help="Write CSV to standard output.")] = False,
) -> None:
    """Show the VAT report of a quarter: revenue and VAT per country and rate, the
    reverse-charge sales (recapitulative statement), the One-Stop-Shop figures and the €10,000
    threshold."""
    context: CliContext = ctx.obj
    home = context.settings_of(TaxSettings).vat_country
    try:
        report.parse_quarter(quarter or report.current_quarter())
        found = context.run(
            lambda: report.vat_report(quarter or report.current_quarter(), home_country=home)
        )
    except AppError as error:
        errors.print(f"[red]{error.message}[/red]")
        raise typer.Exit(2) from error
    if csv:
        sys.stdout.write(report.report_csv(found))
        return
    _print_report(found)
