"""`agency overview [--period P] [--start D --end D] [--json]`: the owner's overview as tables
(or the API's JSON), and `agency overview snapshot`: take the daily snapshot now."""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import ValidationFailed
from agency.modules.overview.schemas import Compared, OverviewOut, SnapshotOut
from agency.modules.overview.service import figures, snapshots
from agency.modules.tax import api as tax_api

app = typer.Typer(
    help="The owner's overview: how the business is doing over a period.",
    invoke_without_command=True,
)

LOCALE = "en-IE"
DATE = ["%Y-%m-%d"]


class PeriodChoice(StrEnum):
    this_month = "this_month"
    last_month = "last_month"
    last_30_days = "last_30_days"
    this_quarter = "this_quarter"
    last_quarter = "last_quarter"
    custom = "custom"


def money(cents: int, currency: str = "EUR") -> str:
    return tax_api.format_money(cents, currency, LOCALE)


def change(current: float, previous: float) -> str:
    """The change from the previous period as people read it: +12 %, -3 %, new, -."""
    if previous == current:
        return "="
    if previous == 0:
        return "new"
    percent = (current - previous) * 100 / abs(previous)
    return f"{percent:+.0f} %"


def hours(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} h"


@app.callback()
def overview(
    ctx: typer.Context,
    period: Annotated[
        PeriodChoice | None,
        typer.Option(help="The period (default this_month; custom takes --start and --end)."),
    ] = None,
    start: Annotated[
        datetime | None, typer.Option(help="A custom period's first day.", formats=DATE)
    ] = None,
    end: Annotated[
        datetime | None, typer.Option(help="A custom period's last day.", formats=DATE)
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The API's JSON (GET /api/admin/overview).")
    ] = False,
) -> None:
    """Show every figure of a period beside the period before it: MRR and its movements,
    revenue, customers, failed payments, the funnel, revenue by plan, websites, the free tools
    and support. Amounts are net of VAT."""
    if ctx.invoked_subcommand is not None:
        return
    context: CliContext = ctx.obj
    secret = str(getattr(context.settings, "stripe_secret_key", "") or "")
    try:
        out = context.run(
            lambda: figures.overview_for(
                period.value if period else None,
                start.date() if start else None,
                end.date() if end else None,
                stripe_secret_key=secret,
            )
        )
    except ValidationFailed as exc:
        errors.print(f"[red]{exc.message}[/red]")
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps(out.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return
    show(out)


def show(out: OverviewOut) -> None:
    period = out.period
    console.print(
        f"[bold]Overview {period.label}[/bold] beside {period.previous_label} "
        f"(amounts in {period.currency}, net of VAT)"
    )
    cards = out.cards
    table = Table(title="Figures")
    for column in ("figure", period.label, period.previous_label, "change"):
        table.add_column(column, justify="right" if column != "figure" else "left")

    def row(name: str, pair: Compared, as_money: bool = False) -> None:
        shown = money if as_money else str
        table.add_row(
            name, shown(pair.current), shown(pair.previous), change(pair.current, pair.previous)
        )

    row("MRR (end of period)", cards.mrr, True)
    row("ARR", cards.arr, True)
    row("Active subscriptions", cards.active_subscriptions)
    row("One-time revenue", cards.one_time_revenue, True)
    row("Recurring revenue", cards.recurring_revenue, True)
    row("New customers", cards.new_customers)
    row("Failed payments", cards.failed_payments)
    table.add_row(
        "Past due now", f"{cards.past_due.current} ({money(cards.past_due.amount_at_risk)} MRR)"
    )
    table.add_row("Support requests open now", str(cards.support_open.current))
    console.print(table)

    moves = out.mrr_movements
    table = Table(title="MRR movements")
    table.add_column("movement")
    table.add_column("amount", justify="right")
    for name, amount in (
        ("MRR at the start", money(moves.start)),
        ("+ new", money(moves.new)),
        ("+ expansion", money(moves.expansion)),
        ("+ reactivation", money(moves.reactivation)),
        ("- contraction", money(moves.contraction)),
        ("- churn", money(moves.churn)),
        ("MRR at the end", money(moves.end)),
    ):
        table.add_row(name, amount)
    console.print(table)

    table = Table(title="Funnel")
    for column in ("step", period.label, period.previous_label, "change"):
        table.add_column(column, justify="right" if column != "step" else "left")
    for step in out.funnel.steps:
        table.add_row(
            step.label, str(step.current), str(step.previous), change(step.current, step.previous)
        )
    abandoned = out.funnel.abandoned
    table.add_row(
        "Abandoned checkouts",
        str(abandoned.current),
        str(abandoned.previous),
        change(abandoned.current, abandoned.previous),
    )
    console.print(table)
    if out.funnel.leads_by_source:
        table = Table(title="Leads by source")
        for column in ("source", period.label, period.previous_label):
            table.add_column(column, justify="right" if column != "source" else "left")
        for source in out.funnel.leads_by_source:
            table.add_row(source.label, str(source.current), str(source.previous))
        console.print(table)

    if out.revenue_by_plan:
        table = Table(title="Revenue by plan")
        for column in ("plan", "family", "one-time", "recurring", "total"):
            table.add_column(column, justify="left" if column in ("plan", "family") else "right")
        for plan in out.revenue_by_plan:
            table.add_row(
                plan.plan_name,
                plan.family_title,
                money(plan.one_time),
                money(plan.recurring),
                money(plan.total),
            )
        console.print(table)

    websites = out.websites
    table = Table(title="Websites now")
    for column in ("status", "websites", "average score"):
        table.add_column(column, justify="right" if column != "status" else "left")
    for status in websites.by_status:
        score = "-" if status.average_score is None else f"{status.average_score:.1f}"
        table.add_row(status.label, str(status.count), score)
    console.print(table)
    building = websites.building
    console.print(
        f"In building: {building.count}, waiting {hours(building.median_hours)} (median), "
        f"{hours(building.longest_hours)} (longest)"
    )

    table = Table(title="Free tools")
    for column in ("tool", period.label, period.previous_label, "became leads", "bought"):
        table.add_column(column, justify="right" if column != "tool" else "left")
    for name, tool in (("Speed tests", out.tools.speed_tests), ("Analyses", out.tools.analyses)):
        table.add_row(
            name,
            str(tool.current),
            str(tool.previous),
            str(tool.became_leads),
            str(tool.became_purchases),
        )
    console.print(table)

    support = out.support
    console.print(
        f"Support: {support.open} open now, {support.answered} answered in the period; "
        f"median first reply {hours(support.median_first_reply_hours)} "
        f"(before: {hours(support.previous_median_first_reply_hours)})"
    )

    if out.failed_payments:
        table = Table(title="Failed payments")
        for column in ("customer", "plan", "amount", "failed", "recovered", "Stripe"):
            table.add_column(column, overflow="fold")  # links and addresses whole
        for failed in out.failed_payments:
            table.add_row(
                failed.email or f"user {failed.user_id}",
                failed.plan_key or "-",
                money(failed.amount, failed.currency),
                failed.failed_at.strftime("%Y-%m-%d %H:%M"),
                failed.recovered_at.strftime("%Y-%m-%d %H:%M") if failed.recovered_at else "no",
                failed.customer_url or "-",
            )
        console.print(table)
    if out.past_due:
        table = Table(title="Past due now")
        for column in ("customer", "plan", "MRR", "since", "Stripe"):
            table.add_column(column, overflow="fold")
        for due in out.past_due:
            table.add_row(
                due.email or f"user {due.user_id}",
                due.plan_key or "-",
                money(due.mrr),
                due.since.strftime("%Y-%m-%d"),
                due.customer_url or "-",
            )
        console.print(table)
    console.print(f"[dim]Computed in {out.generated_in_ms} ms.[/dim]")


@app.command("snapshot")
def snapshot(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="As JSON, for scripts.")] = False,
) -> None:
    """Take the daily snapshot now (as the hourly job overview.snapshot does): today's row and
    yesterday's final row, and show them."""
    context: CliContext = ctx.obj
    rows: list[SnapshotOut] = context.run(snapshots.take)
    if as_json:
        typer.echo(json.dumps([row.model_dump(mode="json") for row in rows], indent=2))
        return
    table = Table(title="Snapshots written")
    columns = list(rows[0].figures.model_dump()) if rows else []
    table.add_column("day")
    for column in columns:
        table.add_column(column.replace("_", " "), justify="right")
    for row in rows:
        values = row.figures.model_dump()
        table.add_row(row.day.isoformat(), *(str(values[c]) for c in columns))
    console.print(table)
