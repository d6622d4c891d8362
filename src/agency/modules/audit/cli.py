"""`agency audit list`: the audit log of admin actions, newest first."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.audit import service
from agency.modules.audit.schemas import LIMIT_MAX, AuditFilter

app = typer.Typer(help="The audit log of admin actions.", no_args_is_help=True)

ActionChoice = StrEnum("ActionChoice", {key: key for key in service.ACTIONS})  # type: ignore[misc]


def _utc(when: datetime) -> datetime:
    return when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)


def value_text(value: Any) -> str:
    """A before or after value on one line: text as it is, the rest as JSON; `-` for none."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def change_text(before: Any, after: Any) -> str:
    """`field: before -> after` per changed field, one per line."""
    return "\n".join(
        f"{change.field}: {value_text(change.before)} -> {value_text(change.after)}"
        for change in service.changes(before, after)
    )


@app.command("list")
def list_entries(
    ctx: typer.Context,
    action: Annotated[ActionChoice | None, typer.Option(help="Only this action.")] = None,
    actor: Annotated[
        str | None,
        typer.Option(
            metavar="EMAIL",
            help="Only this admin's (part of the e-mail); 'command line' for the command's.",
        ),
    ] = None,
    since: Annotated[
        datetime | None,
        typer.Option(help="Only from this UTC day on (YYYY-MM-DD).", formats=["%Y-%m-%d"]),
    ] = None,
    limit: Annotated[
        int, typer.Option(min=1, max=LIMIT_MAX, help="At most this many entries.")
    ] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="As JSON, for scripts.")] = False,
) -> None:
    """Show who did what and when, with the values before and after, newest first."""
    context: CliContext = ctx.obj
    day: date | None = since.date() if since else None
    filters = AuditFilter(
        action=action.value if action else None, actor=actor, since=day, limit=limit
    )
    try:
        page = context.run(lambda: service.list_entries(filters))
    except AppError as error:
        errors.print(f"[red]{error.message}[/red]")
        raise typer.Exit(2) from error
    if as_json:
        typer.echo(json.dumps([e.model_dump(mode="json") for e in page.entries], indent=2))
        return
    more = " (more: raise --limit or narrow with --since)" if page.next_before_id else ""
    count = len(page.entries)
    table = Table(title=f"{count} audit entr{'y' if count == 1 else 'ies'}{more}")
    for column in ("when (UTC)", "who", "action", "what", "change"):
        table.add_column(column)
    for entry in page.entries:
        target = entry.target_label or f"{entry.target_type} {entry.target_id}"
        table.add_row(
            _utc(entry.at).strftime("%Y-%m-%d %H:%M:%S"),
            escape(entry.actor_label),
            entry.action_label,
            escape(target),
            escape(change_text(entry.before, entry.after)),
        )
    console.print(table)
