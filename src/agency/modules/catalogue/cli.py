"""`agency catalogue ...`: load and show the plan catalogue."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.catalogue import service

app = typer.Typer(help="The plan catalogue (config/catalogue.toml).", no_args_is_help=True)


@app.command("seed")
def seed(
    ctx: typer.Context,
    file: Annotated[
        Path | None,
        typer.Option(help="Catalogue file [default: config/catalogue.toml]."),
    ] = None,
) -> None:
    """Load the catalogue file into the database (safe to repeat)."""
    context: CliContext = ctx.obj
    try:
        data = service.load_file(file)
    except AppError as error:
        errors.print(f"[red]{error.message}[/red]")
        raise typer.Exit(1) from error
    report = context.run(lambda: service.seed(data))
    console.print(
        f"catalogue seeded: {len(report.created)} created, {len(report.updated)} updated, "
        f"{len(report.deactivated)} deactivated, {report.unchanged} unchanged"
    )
    for label, keys in (
        ("created", report.created),
        ("updated", report.updated),
        ("deactivated", report.deactivated),
    ):
        if keys:
            console.print(f"  {label}: {', '.join(keys)}")


@app.command("set-price")
def set_price(
    ctx: typer.Context,
    plan: Annotated[str, typer.Argument(help="Plan key, e.g. professional.")],
    price: Annotated[str, typer.Argument(help="New price in euros, e.g. 29 or 29.90.")],
) -> None:
    """Change a plan's price and record the old one in its price history (a lower price
    then shows the old one struck through as the previous price). Run `agency stripe sync`
    afterwards so checkout charges the new price."""
    context: CliContext = ctx.obj
    try:
        cents = service.parse_price(price)
        change = context.run(lambda: service.set_price(plan, cents))
    except AppError as error:
        errors.print(f"[red]{error.message}[/red]")
        raise typer.Exit(1) from error
    if change is None:
        console.print(f"{plan}: the price is already €{cents / 100:,.2f}")
        return
    console.print(
        f"{plan}: €{change.old_price / 100:,.2f} -> €{change.new_price / 100:,.2f} (recorded)"
    )


@app.command("history")
def history(
    ctx: typer.Context,
    plan: Annotated[str, typer.Argument(help="Plan key, e.g. professional.")],
) -> None:
    """Show a plan's recorded price changes, oldest first."""
    context: CliContext = ctx.obj
    changes = context.run(lambda: service.price_history(plan))
    table = Table(title=f"{plan}: {len(changes)} price change(s)")
    for column in ("when (UTC)", "from", "to", "source"):
        table.add_column(column)
    for change in changes:
        table.add_row(
            change.changed_at.strftime("%Y-%m-%d %H:%M"),
            f"€{change.old_price / 100:,.2f}",
            f"€{change.new_price / 100:,.2f}",
            change.source,
        )
    console.print(table)


@app.command("list")
def list_plans(
    ctx: typer.Context,
    all_: Annotated[bool, typer.Option("--all", help="Include deactivated plans.")] = False,
) -> None:
    """Show every plan with price, mode and Stripe price id."""
    context: CliContext = ctx.obj
    plans = context.run(lambda: service.all_plans(include_inactive=all_))
    table = Table(title=f"{len(plans)} plan(s)")
    for column in (
        "key",
        "family",
        "name",
        "price",
        "mode",
        "sold via /start",
        "active",
        "Stripe price",
    ):
        table.add_column(column)
    for plan in plans:
        per = f"/{plan.interval}" if plan.interval else " one-time"
        table.add_row(
            plan.key,
            plan.family,
            plan.name,
            f"€{plan.price / 100:,.2f}{per}",
            plan.mode,
            "yes" if plan.checkout else "no",
            "yes" if plan.active else "no",
            plan.stripe_price_id or "-",
        )
    console.print(table)
