"""`agency contracts list`: withdrawals and cancellations."""

from __future__ import annotations

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console
from agency.modules.contracts import service

app = typer.Typer(help="Withdrawals and cancellations.", no_args_is_help=True)


def _when(value: object) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if hasattr(value, "strftime") else "-"


@app.command("list")
def list_contracts(ctx: typer.Context) -> None:
    """Show the withdrawals and the cancellations, newest first."""
    context: CliContext = ctx.obj
    lists = context.run(service.admin_lists)
    withdrawals = Table(title=f"{len(lists.withdrawals)} withdrawal(s)")
    for column in ("received", "order", "plan", "e-mail", "ordered", "deadline", "status"):
        withdrawals.add_column(column)
    for w in lists.withdrawals:
        withdrawals.add_row(
            _when(w.received_at),
            w.order_number,
            w.plan_name,
            w.email,
            w.ordered_at.strftime("%Y-%m-%d"),
            w.deadline.isoformat(),
            w.status,
        )
    console.print(withdrawals)
    cancellations = Table(title=f"{len(lists.cancellations)} cancellation(s)")
    for column in ("requested", "plan", "e-mail", "type", "ends", "status", "via", "subscription"):
        cancellations.add_column(column)
    for c in lists.cancellations:
        cancellations.add_row(
            _when(c.requested_at),
            c.plan_name,
            c.email or "-",
            c.kind + (f": {c.reason}" if c.reason else ""),
            c.ends_at.strftime("%Y-%m-%d") if c.ends_at else "-",
            c.status,
            c.via,
            c.subscription_id,
        )
    console.print(cancellations)
