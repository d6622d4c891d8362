"""`agency analyze DOMAIN`: the AI website analysis run here and now."""

from __future__ import annotations

import asyncio
import json
from enum import StrEnum
from typing import Annotated

import typer
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from agency.core.cli.support import CliContext, console, errors, with_progress
from agency.core.errors import ValidationFailed
from agency.modules.analysis.schemas import AdminAnalysisOut, AnalysisVariant
from agency.modules.analysis.service import analyses
from agency.modules.analysis.settings import AnalysisSettings
from agency.modules.speedtest.api import SpeedResultOut
from agency.net.safe_fetch import FetchError

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
            _analyze_with_progress(
                context.settings_of(AnalysisSettings), domain, chosen, quiet=as_json
            )
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
    settings: AnalysisSettings, domain: str, variant: AnalysisVariant, *, quiet: bool
) -> tuple[AdminAnalysisOut, SpeedResultOut | None, str | None]:
    work = analyses.run_now(domain, variant, settings)
    if quiet:
        return await work
    label = f"Analyzing {domain} ({variant})"
    return await with_progress(work, label, ANALYSIS_EXPECTED_SECONDS)


def analysis_view(
    analysis: AdminAnalysisOut, speed: SpeedResultOut | None, speed_error: str | None
) -> list[RenderableType]:
    """The scores with their labels, the critical issues, the report's sections, what the
    visitor reads it is based on and, for the operator, how it was written (the AI model, or
    why the rules wrote it)."""
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
    if analysis.generated_detail:
        shown.append(Text(analysis.generated_detail, style="dim"))
    return shown
