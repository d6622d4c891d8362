"""`agency sites ...`: the customers' websites (list, status changes) and a speed test of every
live site run here and now."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.audit import api as audit_api
from agency.modules.sites.service import checks, websites
from agency.modules.sites.settings import SitesSettings

app = typer.Typer(help="Customer websites: status and speed.", no_args_is_help=True)

AT_ONCE = 4  # tests run at once by `speedtest --all`


class StatusChoice(StrEnum):
    building = "building"
    live = "live"
    paused = "paused"
    cancelled = "cancelled"


@app.command("list")
def list_sites(
    ctx: typer.Context,
    status: Annotated[
        StatusChoice | None, typer.Option(help="Only websites in this status.")
    ] = None,
) -> None:
    """Show every website (not removed by its owner), newest first."""
    context: CliContext = ctx.obj
    sites = context.run(lambda: websites.admin_list(status.value if status else None, None))
    table = Table(title=f"{len(sites)} website(s)")
    for column in ("id", "domain", "status", "score", "customer", "plan", "created"):
        table.add_column(column)
    for site in sites:
        table.add_row(
            str(site.id),
            site.domain,
            site.status,
            "N/A" if site.page_speed is None else str(site.page_speed),
            site.customer_email or "-",
            site.plan_key or "-",
            site.created_at.strftime("%Y-%m-%d"),
        )
    console.print(table)


@app.command("set-status")
def set_status(
    ctx: typer.Context,
    domain: Annotated[str, typer.Argument(help="The website's domain, e.g. example.com.")],
    status: Annotated[StatusChoice, typer.Argument(help="The new status.")],
) -> None:
    """Move a website to another status; going live e-mails and notifies its owner."""
    context: CliContext = ctx.obj
    settings = context.settings_of(SitesSettings)
    try:
        site = context.run(
            lambda: websites.set_status_by_domain(
                domain, status.value, settings, actor=audit_api.Actor.cli()
            )
        )
    except AppError as exc:
        errors.print(f"[red]{exc.message}[/red]")
        raise typer.Exit(1) from exc
    console.print(f"{site.domain} is now {site.status}")


@app.command("speedtest")
def speedtest(
    ctx: typer.Context,
    all_sites: Annotated[
        bool, typer.Option("--all", help="Test every live website (required).")
    ] = False,
) -> None:
    """Test every live website's speed now, in this process, and store the scores (a drop is
    told to the owner as the schedule's tests are)."""
    if not all_sites:
        errors.print("[red]say which websites: --all tests every live website[/red]")
        raise typer.Exit(2)
    context: CliContext = ctx.obj
    settings = context.settings_of(SitesSettings)
    results = context.run(lambda: _test_all(settings))
    table = Table(title=f"{len(results)} live website(s) tested")
    for column in ("domain", "score", "result"):
        table.add_column(column)
    for result in results:
        if result.score is not None:
            table.add_row(result.domain, str(result.score), "done")
        else:
            table.add_row(result.domain, "-", f"[red]{result.error}[/red]")
    console.print(table)
    if any(result.score is None for result in results):
        raise typer.Exit(1)


async def _test_all(settings: SitesSettings) -> list[checks.SiteTestResult]:
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=errors,
        transient=True,
    )
    bar = progress.add_task("Testing live websites", total=None)
    with progress:
        return await checks.test_live_sites(
            settings,
            at_once=AT_ONCE,
            begin=lambda total: progress.update(bar, total=total),
            testing=lambda domain: progress.update(bar, description=f"Testing {domain}"),
            tested=lambda _result: progress.advance(bar),
        )
