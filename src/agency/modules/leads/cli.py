"""`agency leads ...`: the leads from the public forms, and the newsletter consents."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console
from agency.core.db import private_file
from agency.modules.leads.service import consents as consent_service
from agency.modules.leads.service import leads as lead_service

app = typer.Typer(help="Leads from the site's forms.", no_args_is_help=True)


@app.command("list")
def list_leads(
    ctx: typer.Context,
    source: Annotated[str | None, typer.Option(help="Only this form, e.g. free-preview.")] = None,
    since: Annotated[
        datetime | None, typer.Option(help="Only leads from this date on.", formats=["%Y-%m-%d"])
    ] = None,
) -> None:
    """Show the leads, newest first."""
    context: CliContext = ctx.obj
    leads = context.run(lambda: lead_service.list_leads(source, since))
    table = Table(title=f"{len(leads)} lead(s)")
    for column in ("date", "form", "e-mail", "name", "domain"):
        table.add_column(column)
    for lead in leads:
        table.add_row(
            lead.created_at.strftime("%Y-%m-%d %H:%M"),
            lead.source_label,
            lead.email,
            lead.name or "-",
            lead.domain or "-",
        )
    console.print(table)


@app.command("export")
def export(
    ctx: typer.Context,
    csv_file: Annotated[Path, typer.Option("--csv", help="Where to write the CSV file.")],
    source: Annotated[str | None, typer.Option(help="Only this form.")] = None,
) -> None:
    """Write the leads to a CSV file."""
    context: CliContext = ctx.obj
    leads = context.run(lambda: lead_service.list_leads(source, None))
    # E-mail addresses and names: readable by the owner only, like the database it comes from.
    private_file(csv_file)
    csv_file.write_text(lead_service.to_csv(leads))
    console.print(f"wrote {len(leads)} lead(s) to {csv_file}")


@app.command("consents")
def consents(
    ctx: typer.Context,
    email: Annotated[str | None, typer.Option(help="Only this e-mail address's.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="As JSON, for scripts.")] = False,
) -> None:
    """Show the newsletter consents (ticked opt-in boxes), newest first: when, the e-mail, the
    form, the version of the box's wording and what Kit made of it."""
    context: CliContext = ctx.obj
    rows = context.run(lambda: consent_service.list_consents(email))
    if as_json:
        typer.echo(json.dumps([row.model_dump(mode="json") for row in rows], indent=2))
        return
    table = Table(title=f"{len(rows)} newsletter consent(s)")
    for column in ("date", "e-mail", "form", "wording", "outcome"):
        table.add_column(column)
    for row in rows:
        table.add_row(
            row.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            row.email,
            row.form_label,
            row.wording_version,
            row.outcome.replace("_", " "),
        )
    console.print(table)
