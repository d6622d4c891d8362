"""`agency speedtest DOMAIN`: a speed test run here and now."""

from __future__ import annotations

import asyncio
from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from agency.core.cli.support import CliContext, console, errors, with_progress
from agency.core.errors import ValidationFailed
from agency.modules.speedtest.schemas import SpeedResultOut
from agency.modules.speedtest.service import speedtests
from agency.modules.speedtest.service.speed_providers import SpeedTestFailed
from agency.modules.speedtest.settings import SpeedtestSettings


class StrategyChoice(StrEnum):
    mobile = "mobile"
    desktop = "desktop"


class ProviderChoice(StrEnum):
    psi = "psi"
    lighthouse = "lighthouse"


# The progress bar's pace, as on the pages (about 25 s); it waits short of the end until the
# result is in.
EXPECTED_SECONDS = 25.0


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
    settings = context.settings_of(SpeedtestSettings)
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
    settings: SpeedtestSettings, domain: str, strategy: str, provider: str, *, quiet: bool
) -> SpeedResultOut:
    work = speedtests.run_now(domain, strategy, provider, settings)
    if quiet:
        return await work
    label = f"Testing {domain} ({strategy}, {provider})"
    return await with_progress(work, label, EXPECTED_SECONDS)


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
