"""`agency support list [--status S]`: the support requests."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console
from agency.modules.support import service

app = typer.Typer(help="Support requests.", no_args_is_help=True)


class StatusChoice(StrEnum):
    open = "open"
    answered = "answered"
    resolved = "resolved"


@app.command("list")
def list_requests(
    ctx: typer.Context,
    status: Annotated[StatusChoice | None, typer.Option(help="Only this status.")] = None,
) -> None:
    """Show the support requests, newest first."""
    context: CliContext = ctx.obj
    rows = context.run(lambda: service.list_all(status.value if status else None))
    table = Table(title=f"{len(rows)} support request(s)")
    for column in ("id", "date", "status", "from", "website", "subject", "replies"):
        table.add_column(column)
    for row in rows:
        table.add_row(
            str(row.id),
            row.created_at.strftime("%Y-%m-%d %H:%M"),
            row.status,
            f"{row.name} <{row.email}>" + ("" if row.user_id else " (visitor)"),
            row.website_domain or "-",
            row.subject,
            str(len(row.replies)),
        )
    console.print(table)
