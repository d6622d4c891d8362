"""`agency stripe ...`: sync the catalogue to Stripe, replay events, reconcile subscriptions;
`agency billing ...`: the agency's figures (the VAT report, the MRR log's backfill)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.service import backfill as mrr_backfill
from agency.modules.billing.service import prices, subscriptions, webhooks
from agency.modules.billing.settings import BillingSettings
from agency.modules.invoices import api as invoices_api
from agency.modules.tax import api as tax_api

app = typer.Typer(help="Payments with Stripe.", no_args_is_help=True)
billing_app = typer.Typer(
    help="The agency's figures: the VAT report, the MRR log's backfill.", no_args_is_help=True
)


def _gateway(context: CliContext) -> StripeGateway:
    settings = context.settings_of(BillingSettings)
    gateway = StripeGateway(
        settings.stripe_secret_key, settings.stripe_api_base, settings.stripe_webhook_secret
    )
    if not gateway.configured:
        errors.print("[red]Set AGENCY_STRIPE_SECRET_KEY first.[/red]")
        raise typer.Exit(2)
    return gateway


@app.command("sync")
def sync(
    ctx: typer.Context,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only say what would change.")] = False,
) -> None:
    """Create or match a Stripe Product and Price for every plan (lookup key = plan key), with
    the tax_behavior of `prices_include_vat` (inclusive: gross prices; exclusive: net)."""
    context: CliContext = ctx.obj
    gateway = _gateway(context)
    gross = context.settings_of(tax_api.TaxSettings).prices_include_vat
    try:
        lines = context.run(
            lambda: prices.sync_prices(gateway, dry_run=dry_run, prices_include_vat=gross)
        )
    except AppError as error:
        errors.print(f"[red]{error.message}[/red]")
        raise typer.Exit(1) from error
    for line in lines:
        console.print(line)
    console.print(f"{len(lines)} plan(s) checked{' (dry run)' if dry_run else ''}")


@app.command("replay")
def replay(
    ctx: typer.Context,
    failed: Annotated[bool, typer.Option("--failed", help="Only events that failed.")] = False,
    ids: Annotated[list[str] | None, typer.Option("--id", help="Event id (repeatable).")] = None,
) -> None:
    """Apply stored webhook events again (all, the failed ones, or by id)."""
    context: CliContext = ctx.obj
    gateway = _gateway(context)
    small = context.settings_of(tax_api.TaxSettings).vat_mode == "small_business"
    outcomes = context.run(
        lambda: webhooks.replay(gateway, failed_only=failed, ids=ids or [], small_business=small)
    )
    for event_id, outcome in outcomes.items():
        console.print(f"{event_id}: {outcome}")
    console.print(f"{len(outcomes)} event(s) replayed")


@app.command("reconcile")
def reconcile(ctx: typer.Context) -> None:
    """Re-fetch every known subscription from Stripe and store its current state."""
    context: CliContext = ctx.obj
    gateway = _gateway(context)
    updated = context.run(lambda: subscriptions.reconcile(gateway))
    console.print(f"{len(updated)} subscription(s) reconciled")


@billing_app.command("backfill")
def backfill(
    ctx: typer.Context,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only show the movements it would write.")
    ] = False,
) -> None:
    """Rebuild the MRR movement log from Stripe for the subscriptions that have no movement
    yet (an account older than the log): each counted from its start, an ended one churned when
    it ended. Safe to run again."""
    context: CliContext = ctx.obj
    gateway = _gateway(context)
    result = context.run(lambda: mrr_backfill.backfill(gateway, dry_run=dry_run))
    for line in result.lines():
        console.print(line)
    console.print(
        f"{result.seen} subscription(s) at Stripe: {len(result.movements)} movement(s) "
        f"{'would be written' if dry_run else 'written'}; {result.skipped_known} already in the "
        f"log, {result.skipped_foreign} of customers who are none of ours"
        f"{' (dry run)' if dry_run else ''}"
    )


def _print_report(found: invoices_api.VatReport) -> None:
    console.print(f"VAT report {found.quarter} ({found.start} to {found.end})")
    console.print(found.basis)
    sales = Table(title="Revenue and VAT per country and rate")
    for column in ("country", "rate", "kind", "net", "VAT", "gross", "documents"):
        sales.add_column(column)
    for row in found.rows:
        sales.add_row(
            row.country or "-",
            tax_api.rate_text(row.rate),
            row.kind.replace("_", " "),
            invoices_api.amount_text(row.net, row.currency),
            invoices_api.amount_text(row.vat, row.currency),
            invoices_api.amount_text(row.gross, row.currency),
            str(row.documents),
        )
    for total in found.totals:
        sales.add_row(
            "total",
            "",
            "",
            invoices_api.amount_text(total.net, total.currency),
            invoices_api.amount_text(total.vat, total.currency),
            invoices_api.amount_text(total.gross, total.currency),
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
            invoices_api.amount_text(rc.net, rc.currency),
            str(rc.documents),
        )
    console.print(recap if found.reverse_charge else "No reverse-charge sales.")
    oss = Table(title="Consumer sales to other EU countries (One-Stop-Shop return)")
    for column in ("country", "rate", "net", "VAT"):
        oss.add_column(column)
    for sale in found.oss:
        oss.add_row(
            sale.country,
            tax_api.rate_text(sale.rate),
            invoices_api.amount_text(sale.net, sale.currency),
            invoices_api.amount_text(sale.vat, sale.currency),
        )
    console.print(oss if found.oss else "No consumer sales to other EU countries.")
    console.print(found.threshold.line)
    if found.unlinked_refunds:
        unlinked = invoices_api.amount_text(found.unlinked_refunds)
        console.print(f"Refunds without a stored invoice (not above): {unlinked}")


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
    home = context.settings_of(tax_api.TaxSettings).vat_country
    try:
        invoices_api.parse_quarter(quarter or invoices_api.current_quarter())
        found = context.run(
            lambda: invoices_api.vat_report(
                quarter or invoices_api.current_quarter(), home_country=home
            )
        )
    except AppError as error:
        errors.print(f"[red]{error.message}[/red]")
        raise typer.Exit(2) from error
    if csv:
        sys.stdout.write(invoices_api.report_csv(found))
        return
    _print_report(found)
