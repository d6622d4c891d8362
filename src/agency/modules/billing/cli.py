"""`agency stripe ...`: sync the catalogue to Stripe, replay events, reconcile subscriptions."""

from __future__ import annotations

from typing import Annotated

import typer

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.service import prices, subscriptions, webhooks
from agency.modules.billing.settings import BillingSettings
from agency.modules.tax import api as tax_api

app = typer.Typer(help="Payments with Stripe.", no_args_is_help=True)


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
