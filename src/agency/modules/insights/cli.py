"""`agency leads ...`: the leads from the public forms; `agency speedtest DOMAIN`: a speed test
run here and now; `agency analyze DOMAIN`: the AI website analysis run here and now."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import RenderableType
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from agency.core.cli_support import CliContext, console, errors
from agency.core.db import private_file
from agency.core.errors import ValidationFailed
from agency.core.settings import Settings
from agency.modules.insights.schemas import AnalysisOut, AnalysisVariant, SpeedResultOut
from agency.modules.insights.service import analyses, speedtests
from agency.modules.insights.service import leads as lead_service
from agency.modules.insights.service.speed_providers import SpeedTestFailed
from agency.net.safe_fetch import FetchError

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


class StrategyChoice(StrEnum):
    mobile = "mobile"
    desktop = "desktop"


class ProviderChoice(StrEnum):
    psi = "psi"
    lighthouse = "lighthouse"


# The progress bar's pace, as on the pages (about 25 s); it waits short of the end until the
# result is in.
EXPECTED_SECONDS = 25.0
T = TypeVar("T")
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


async def _with_progress(work: Awaitable[T], label: str, expected_seconds: float) -> T:
    """Await `work` behind a rich bar that fills over `expected_seconds` (held at 95 % until
    the work ends): the speed test and the analysis show the same progress."""
    task = asyncio.ensure_future(work)
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
        bar = progress.add_task(label, total=100)
        while not task.done():
            share = (time.monotonic() - started) / expected_seconds
            progress.update(bar, completed=min(95.0, share * 100))
            await asyncio.wait({task}, timeout=TICK_SECONDS)
        progress.update(bar, completed=100)
    return task.result()


async def _run_with_progress(
    settings: Settings, domain: str, strategy: str, provider: str, *, quiet: bool
) -> SpeedResultOut:
    work = speedtests.run_now(domain, strategy, provider, settings)
    if quiet:
        return await work
    label = f"Testing {domain} ({strategy}, {provider})"
    return await _with_progress(work, label, EXPECTED_SECONDS)


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


# ---------------------------------------------------------------------------------------------
# agency analyze


class VariantChoice(StrEnum):
    general = "general"
    lead = "lead"
    technical = "technical"
    agency = "agency"


# The analysis pages' progress bar runs over 45 s (spec §4).
ANALYSIS_EXPECTED_SECONDS = 45.0


def analyze(
    ctx: typer.Context,
    domain: Annotated[str, typer.Argument(help="The site to analyse, e.g. example.com.")],
    variant: Annotated[
        VariantChoice,
        typer.Option(help="Which page's analysis: general, lead, technical or agency."),
    ] = VariantChoice.general,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
) -> None:
    """Analyse a website now, in this process (no queue): fetch and audit its page, write the
    report (AI model or rules) and test its speed, then show the scores and the sections."""
    context: CliContext = ctx.obj
    chosen: AnalysisVariant = variant.value
    try:
        analysis, speed, speed_error = asyncio.run(
            _analyze_with_progress(context.settings, domain, chosen, quiet=as_json)
        )
    except ValidationFailed as exc:
        errors.print(f"[red]{exc.message}[/red]")
        raise typer.Exit(2) from exc
    except FetchError as exc:
        errors.print(f"[red]{exc.message}[/red]")
        raise typer.Exit(1) from exc
    if as_json:
        data = analysis.model_dump(mode="json", exclude={"id", "email", "notice", "speed_test"})
        data["speed"] = speed.model_dump(mode="json") if speed else None
        data["speed_error"] = speed_error
        typer.echo(json.dumps(data, indent=2))
        return
    for renderable in analysis_view(analysis, speed, speed_error):
        console.print(renderable)


async def _analyze_with_progress(
    settings: Settings, domain: str, variant: AnalysisVariant, *, quiet: bool
) -> tuple[AnalysisOut, SpeedResultOut | None, str | None]:
    work = analyses.run_now(domain, variant, settings)
    if quiet:
        return await work
    label = f"Analyzing {domain} ({variant})"
    return await _with_progress(work, label, ANALYSIS_EXPECTED_SECONDS)


def analysis_view(
    analysis: AnalysisOut, speed: SpeedResultOut | None, speed_error: str | None
) -> list[RenderableType]:
    """The scores with their labels, the critical issues and the report's sections."""
    variant = analysis.variant
    report = analysis.report
    scores = analysis.scores
    shown: list[RenderableType] = []
    if scores is not None:
        table = Table(title=f"{analysis.domain} ({variant} analysis)")
        table.add_column("score")
        table.add_column("value", justify="right")
        table.add_column("label")
        for name, value, label in analyses.score_rows(scores, variant):
            table.add_row(name, "-" if value is None else f"{value}/100", label)
        if speed is not None:
            table.add_row("load time (speed index)", f"{speed.speed_index_ms / 1000:.1f} s", "")
        shown.append(table)
    if speed_error:
        shown.append(Text(f"Speed test: {speed_error}", style="yellow"))
    if analysis.critical_issues:
        shown.append(Text("Critical issues found", style="bold red"))
        shown.extend(Text(f"  - {issue}") for issue in analysis.critical_issues)
    if report is None:
        return shown
    overview_name, funnel_name, journey_name = analyses.SECTION_NAMES[variant]
    shown.append(Text(f"\n{overview_name}", style="bold"))
    shown.append(Text(report.overview))
    if report.sales_funnel.stages:
        shown.append(Text(f"\n{funnel_name}", style="bold"))
        for stage in report.sales_funnel.stages:
            shown.append(Text(f"  {stage.name}: {stage.description}"))
            shown.extend(Text(f"    - {item}") for item in stage.improvements)
    if report.customer_journey.touchpoints:
        shown.append(Text(f"\n{journey_name}", style="bold"))
        for point in report.customer_journey.touchpoints:
            shown.append(Text(f"  {point.stage}: {point.description}"))
            shown.extend(Text(f"    - {item}") for item in point.opportunities)
    opportunities = report.ai_opportunities
    columns = zip(
        analyses.COLUMN_NAMES[variant],
        (opportunities.customer_support, opportunities.seo, opportunities.personalization),
        strict=True,
    )
    for name, items in columns:
        if items:
            shown.append(Text(f"\n{name}", style="bold"))
            shown.extend(Text(f"  - {item}") for item in items)
    if analysis.generated_note:
        shown.append(Text(f"\n{analysis.generated_note}", style="dim"))
    return shown
