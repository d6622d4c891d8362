"""`agency leads ...`: the leads from the public forms; `agency speedtest DOMAIN`: a speed test
run here and now."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from agency.core.cli_support import CliContext, console, errors
from agency.core.errors import ValidationFailed
from agency.core.settings import Settings
from agency.modules.insights.schemas import SpeedResultOut
from agency.modules.insights.service import leads as lead_service
from agency.modules.insights.service import speedtests
from agency.modules.insights.service.speed_providers import SpeedTestFailed

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
    csv_file.write_text(lead_service.to_csv(leads))
    console.print(f"wrote {len(leads)} lead(s) to {csv_file}")


class StrategyChoice(StrEnum):
    mobile = "mobile"
    desktop = "desktop"


class ProviderChoice(StrEnum):
    psi = "psi"
    lighthouse = "lighthouse"


# The progress bar's pace, as on the pages (about 25 s); it waits short of the end until the
# result is in.
EXPECTED_SECONDS = 25.0
TICK_SECONDS = 0.05


def speedtest(
    ctx: typer.Context,
    domain: Annotated[str, typer.Argument(help="The site to test, e.g. example.com.")],
    strategy: Annotated[
        StrategyChoice, typer.Option(help="Test as a phone or a desktop computer.")
    ] = StrategyChoice.mobile,
    provider: Annotated[
        ProviderChoice | None,
        typer.Option(help="psi (PageSpeed Insights) or lighthouse (local); default: settings."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Test a website's speed now, in this process (no queue), and show the result."""
    context: CliContext = ctx.obj
    settings = context.settings
    name = provider.value if provider else settings.speedtest_provider
    try:
        result = asyncio.run(
            _run_with_progress(settings, domain, strategy.value, name, quiet=as_json)
        )
    except ValidationFailed as exc:
        errors.print(f"[red]{exc.message}[/red]")
        raise typer.Exit(2) from exc
    except SpeedTestFailed as exc:
        errors.print(f"[red]{exc.message}[/red]")
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        console.print(result_table(domain, strategy.value, result))


async def _run_with_progress(
    settings: Settings, domain: str, strategy: str, provider: str, *, quiet: bool
) -> SpeedResultOut:
    work = asyncio.create_task(speedtests.run_now(domain, strategy, provider, settings))
    if quiet:
        return await work
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
        console=errors,
        transient=True,
    )
    started = time.monotonic()
    with progress:
        bar = progress.add_task(f"Testing {domain} ({strategy}, {provider})", total=100)
        while not work.done():
            share = (time.monotonic() - started) / EXPECTED_SECONDS
            progress.update(bar, completed=min(95.0, share * 100))
            await asyncio.wait({work}, timeout=TICK_SECONDS)
        progress.update(bar, completed=100)
    return work.result()


def _ms(value: int | None) -> str:
    return "-" if value is None else f"{value:,} ms"


def result_table(domain: str, strategy: str, result: SpeedResultOut) -> Table:
    table = Table(title=f"{domain} ({strategy}, {result.provider})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("score", f"{result.score}/100")
    table.add_row("rating", result.rating)
    table.add_row("speed index", _ms(result.speed_index_ms))
    table.add_row("total blocking time", _ms(result.total_blocking_time_ms))
    table.add_row("largest contentful paint", _ms(result.largest_contentful_paint_ms))
    cls = result.cumulative_layout_shift
    table.add_row("cumulative layout shift", "-" if cls is None else f"{cls:.3f}")
    table.add_row("first contentful paint", _ms(result.first_contentful_paint_ms))
    for metric in result.field_data:
        value = (
            f"{metric.percentile:.2f}" if metric.name == "CLS" else _ms(round(metric.percentile))
        )
        table.add_row(f"real visitors {metric.name} (p75)", f"{value} {metric.category}")
    for opportunity in result.opportunities:
        table.add_row(f"fix: {opportunity.title}", f"saves {_ms(opportunity.savings_ms)}")
    return table
