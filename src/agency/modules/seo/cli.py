"""`agency articles ...`: the blog's articles from a terminal; AI ideas and articles written
here and now (in this process, no queue)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Group
from rich.panel import Panel
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from agency.core.cli.support import CliContext, console, errors
from agency.core.errors import AppError
from agency.modules.audit import api as audit_api
from agency.modules.seo.schemas import ArticleOut, GenerateArticleIn, IdeaOut
from agency.modules.seo.service import articles, generations, importing
from agency.modules.seo.service.answers import GenerationFailed
from agency.modules.seo.settings import SeoSettings
from agency.net.ai import AIError

T = TypeVar("T")

app = typer.Typer(help="The blog's articles and the AI article manager.", no_args_is_help=True)


class StatusChoice(StrEnum):
    draft = "draft"
    published = "published"
    archived = "archived"


def _fail(message: str, code: int = 1) -> typer.Exit:
    errors.print(Text(message, style="red"))
    return typer.Exit(code)


def _run(context: CliContext, work: Callable[[], Awaitable[T]]) -> T:
    """Run with the database open; failures become a red message and exit code 1 (2 for input
    that cannot be used)."""
    try:
        return context.run(work)
    except AIError as exc:
        raise _fail(exc.message) from exc
    except GenerationFailed as exc:
        raise _fail(exc.message) from exc
    except AppError as exc:
        raise _fail(exc.message, 2 if exc.status == 400 else 1) from exc


async def _with_spinner(label: str, work: Awaitable[T]) -> T:
    task = asyncio.ensure_future(work)
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=errors,
        transient=True,
    )
    with progress:
        progress.add_task(label, total=None)
        return await task


def article_table(items: list[ArticleOut], title: str) -> Table:
    table = Table(title=title)
    for column in ("id", "title", "slug", "status", "created", "published"):
        table.add_column(column)
    for article in items:
        table.add_row(
            str(article.id),
            article.title,
            article.slug,
            article.status,
            article.created_at.strftime("%Y-%m-%d %H:%M"),
            article.published_at.strftime("%Y-%m-%d %H:%M") if article.published_at else "-",
        )
    return table


def _saved(article: ArticleOut, what: str) -> None:
    console.print(
        f"{what}: [bold]{article.title}[/bold] (id {article.id}, /blog/{article.slug}, "
        f"{article.status})"
    )


@app.command("list")
def list_articles(
    ctx: typer.Context,
    status: Annotated[StatusChoice | None, typer.Option(help="Only this status.")] = None,
    search: Annotated[
        str | None, typer.Option("--search", "-q", help="Title or slug contains this.")
    ] = None,
) -> None:
    """Show the articles, newest first."""
    context: CliContext = ctx.obj
    found = _run(context, lambda: articles.list_articles(status.value if status else None, search))
    console.print(article_table(found, f"{len(found)} article(s)"))


def idea_panel(number: int, idea: IdeaOut) -> Panel:
    body = [Text(idea.description)] if idea.description else []
    if idea.keywords:
        body.append(Text("keywords: " + ", ".join(idea.keywords), style="cyan"))
    body.extend(Text(f"  {n}. {point}") for n, point in enumerate(idea.outline, 1))
    return Panel(Group(*body), title=f"{number}. {idea.title}", title_align="left")


def _require_ai(settings: SeoSettings) -> None:
    try:
        generations.require_ai(settings)
    except AppError as exc:
        raise _fail(f"{exc.message} (set AGENCY_AI_API_KEY)") from exc


@app.command("ideas")
def ideas(
    ctx: typer.Context,
    topic: Annotated[str, typer.Argument(help="What the articles should be about.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the ideas as JSON.")] = False,
) -> None:
    """Ask the AI for three article ideas on a topic."""
    context: CliContext = ctx.obj
    settings = context.settings_of(SeoSettings)
    try:
        cleaned = generations.check_topic(topic)
    except AppError as exc:
        raise _fail(exc.message, 2) from exc
    _require_ai(settings)
    work = generations.ideas_now(cleaned, settings)
    try:
        found = asyncio.run(
            work if as_json else _with_spinner(f"Asking {settings.ai_model} for ideas", work)
        )
    except (AIError, GenerationFailed) as exc:
        raise _fail(exc.message) from exc
    if as_json:
        typer.echo(json.dumps([idea.model_dump() for idea in found], indent=2))
        return
    for number, idea in enumerate(found, 1):
        console.print(idea_panel(number, idea))
    console.print('Write one with: agency articles generate "TITLE"')


@app.command("generate")
def generate(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(help="The article's title (an idea's).")],
    description: Annotated[str, typer.Option(help="What the article is about.")] = "",
    keyword: Annotated[
        list[str] | None, typer.Option("--keyword", "-k", help="A keyword (repeatable).")
    ] = None,
    outline: Annotated[
        list[str] | None, typer.Option("--outline", "-o", help="An outline point (repeatable).")
    ] = None,
) -> None:
    """Have the AI write a full article and save it as a draft."""
    context: CliContext = ctx.obj
    settings = context.settings_of(SeoSettings)
    try:
        idea = generations.check_idea(
            GenerateArticleIn(
                title=title,
                description=description,
                keywords=keyword or [],
                outline=outline or [],
            )
        )
    except (AppError, ValueError) as exc:
        message = exc.message if isinstance(exc, AppError) else "Please check the idea's texts."
        raise _fail(message, 2) from exc
    _require_ai(settings)
    article = _run(
        context,
        lambda: _with_spinner(
            f"{settings.ai_model} is writing '{idea.title}'",
            generations.article_now(idea, settings, created_by=None),
        ),
    )
    _saved(article, "Saved the draft")


@app.command("import")
def import_markdown(
    ctx: typer.Context,
    file: Annotated[
        Path,
        typer.Argument(help="A Markdown file (front matter: title, description, keywords)."),
    ],
) -> None:
    """Save a Markdown file as a draft."""
    context: CliContext = ctx.obj
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(f"Cannot read {file}: {exc}", 2) from exc
    try:
        data = importing.article_from_markdown(text)
    except AppError as exc:
        raise _fail(exc.message, 2) from exc
    except ValueError as exc:  # a field the blog's schema refuses (control characters)
        raise _fail(f"Cannot import {file}: {exc}", 2) from exc
    article = _run(context, lambda: articles.create_article(data, created_by=None))
    _saved(article, "Imported as a draft")


def _status_command(action: articles.Action, done: str) -> Callable[..., None]:
    def command(
        ctx: typer.Context,
        slug: Annotated[str, typer.Argument(help="The article's slug (its /blog/ address).")],
    ) -> None:
        context: CliContext = ctx.obj
        article = _run(
            context,
            lambda: articles.change_status_by_slug(slug, action, actor=audit_api.Actor.cli()),
        )
        _saved(article, done)

    return command


app.command("publish", help="Publish a draft or archived article.")(
    _status_command("publish", "Published")
)
app.command("archive", help="Archive an article.")(_status_command("archive", "Archived"))
app.command("draft", help="Move a published or archived article back to draft.")(
    _status_command("draft", "Moved back to draft")
)
