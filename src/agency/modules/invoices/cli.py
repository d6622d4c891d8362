"""`agency invoices list` (the VAT report's command, `agency billing vat-report`, is billing's:
`agency.modules.billing.cli`)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.invoices.service import reads
from agency.modules.invoices.service.reads import amount_text

app = typer.Typer(help="Invoices and credit notes from Stripe.", no_args_is_help=True)


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
