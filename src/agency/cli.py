"""The `agency` command: serve the site, manage the database, and every module's commands.

Start-up is kept short: importing this file loads Typer and nothing of the server (no Quart,
Tortoise, SDKs or modules). Each command imports what it needs when it runs, and the modules'
commands are named by path in `agency.commands` and imported on use (`agency.core.cli.lazy`);
`tests/core/test_cli_startup.py` keeps it so.
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from agency import __version__
from agency.commands import COMMANDS, GROUPS
from agency.core.cli.lazy import QuickCommand, lazy_group

if TYPE_CHECKING:
    from types import ModuleType

    from rich.console import Console

    from agency.core.cli.support import CliContext
    from agency.core.settings import Settings

log = logging.getLogger("agency.worker")
app = typer.Typer(
    name="agency",
    help="Run and manage the agency site: web server, database and the modules' admin tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=lazy_group(commands=COMMANDS, groups=GROUPS),
)
db_app = typer.Typer(help="Database commands.", no_args_is_help=True)
app.add_typer(db_app, name="db")
mail_app = typer.Typer(help="Outgoing e-mail.", no_args_is_help=True)
app.add_typer(mail_app, name="mail")
# Commands that need neither the settings nor the database: they answer at once.
NO_CONTEXT = frozenset({"version"})


def _stderr() -> Console:
    from rich.console import Console

    return Console(stderr=True)


@app.callback()
def root(ctx: typer.Context) -> None:
    """Run and manage the agency site: web server, database and the modules' admin tools."""
    if ctx.invoked_subcommand in NO_CONTEXT:
        return
    from agency.core.cli.support import CliContext

    ctx.obj = CliContext(model_modules, settings_class=settings_class, configure=configure_mail)


@contextmanager
def _starting() -> Iterator[None]:
    """Start-up without the cyclic garbage collector: importing and building the app allocates
    hundreds of thousands of objects that live as long as the process, and the collector
    scanning them again and again during the imports was about a tenth of `agency serve`'s
    start. After it, what was built is frozen (never scanned again, and a forked worker keeps
    sharing those pages with its parent) and collection resumes for what requests allocate."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


# The youngest generation's threshold while serving (Python's default: 700).
SERVING_GC_THRESHOLD = 10_000


async def _settle_gc() -> None:
    """What the worker built on starting (database clients, Tortoise's models, the job runner)
    lives as long as it: frozen, as `_starting` freezes the imports, so that full collections
    no longer walk it. And requests leave no reference cycles behind (`core.web.routing`), so
    a young collection finds nothing to free: at 700 it ran every ten requests or so, only to
    walk the objects of the requests under way; at 10,000 it runs about fourteen times less
    often (about 5 % of a signed-in read's CPU, measured in-process)."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(SERVING_GC_THRESHOLD, middle, old)


def settings_or_exit(**overrides: Any) -> Settings:
    from agency.core.logging import configure_logging
    from agency.core.settings import SettingsError
    from agency.settings import check_modules, load_settings

    try:
        settings = load_settings(**{k: v for k, v in overrides.items() if v is not None})
        check_modules(settings)
    except SettingsError as exc:
        _stderr().print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    configure_logging(settings.log_level, settings.log_format)
    return settings


def settings_class() -> type[Settings]:
    """The program's settings class (every module's keys): importing it imports the modules."""
    from agency.settings import Settings

    return Settings


def configure_mail(settings: Settings) -> None:
    """Mail a command sends ends with the modules' footer, as the server's does."""
    from agency.core import mail
    from agency.settings import mail_footer

    mail.set_footer(mail_footer(settings))


def model_modules() -> list[ModuleType]:
    from agency.registry import MODULES

    return [m.models for m in MODULES if m.models is not None]


def apply_migrations(settings: Settings) -> list[str]:
    import asyncio

    from agency.core import db

    settings.ensure_data_dir()
    return asyncio.run(db.upgrade(settings.effective_database_url, model_modules()))


def prepare_modules(settings: Settings) -> None:
    """Each module's start-up step (e.g. the shipped catalogue on a fresh install)."""
    import asyncio

    from agency.core import db
    from agency.registry import MODULES

    steps = [m.prepare for m in MODULES if m.prepare is not None]
    if not steps:
        return

    async def run() -> None:
        await db.init_db(settings.effective_database_url, model_modules())
        try:
            for step in steps:
                await step()
        finally:
            await db.close_db()

    asyncio.run(run())


@app.command()
def serve(
    host: Annotated[
        str | None, typer.Option(help="Address to listen on [default: 127.0.0.1].")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on [default: 8000].")] = None,
    workers: Annotated[
        int | None, typer.Option(help="Server processes; each serves requests [default: 1].")
    ] = None,
    migrate: Annotated[
        bool, typer.Option(help="Apply pending database migrations before serving.")
    ] = True,
) -> None:
    """Serve the web site and the API (applies pending migrations first)."""
    with _starting():
        from granian.constants import Interfaces
        from granian.server import Server

        from agency.app import create_app
        from agency.core.logging import configure_logging

        console = _stderr()
        settings = settings_or_exit(host=host, port=port, workers=workers)
        settings.effective_secret_key()  # created once here, before the workers start
        if migrate:
            for name in apply_migrations(settings):
                console.print(f"applied migration {name}")
        prepare_modules(settings)

    def load_app(_target: str) -> Any:
        # Runs in each worker process: every worker builds its own app and connections.
        with _starting():
            configure_logging(settings.log_level, settings.log_format)
            served = create_app(settings)
        # After the app's own start-up hooks (the database, the job runner), registered first.
        served.before_serving(_settle_gc)
        return served

    console.print(
        f"agency {__version__} serving on http://{settings.host}:{settings.port} "
        f"with {settings.workers} worker(s); database {_describe(settings)}"
    )
    server = Server(
        target="agency",
        address=settings.host,
        port=settings.port,
        interface=Interfaces.ASGI,
        workers=settings.workers,
        log_access=False,
        log_level=_granian_level(settings.log_level),
        respawn_failed_workers=True,
    )
    server.serve(target_loader=load_app)


@app.command()
def worker(
    concurrency: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=1024,
            help="Jobs run at once, of the kinds without a limit of their own "
            "[default: AGENCY_JOBS_CONCURRENCY, 16].",
        ),
    ] = None,
    migrate: Annotated[
        bool,
        typer.Option(help="Apply pending database migrations first (else refuse to start)."),
    ] = False,
    grace: Annotated[
        float,
        typer.Option(
            min=0,
            help="On SIGTERM or SIGINT, seconds running jobs get to finish before they are "
            "put back in the queue for another worker.",
        ),
    ] = 30.0,
    metrics_listen: Annotated[
        str | None,
        typer.Option(
            metavar="HOST:PORT",
            help="Also answer Prometheus' scrapes of this machine's metrics at "
            "http://HOST:PORT/metrics (with AGENCY_METRICS_TOKEN, as `agency serve`), for a "
            "machine without a server.",
        ),
    ] = None,
) -> None:
    """Run background jobs and schedules (e-mail, speed tests, retention) without serving HTTP.
    Any number of workers, on any machine sharing the database, may run beside the servers;
    set AGENCY_RUN_JOBS=false on the servers to leave the jobs to the workers."""
    import asyncio

    console = _stderr()
    with _starting():
        settings = settings_or_exit(jobs_concurrency=concurrency)
    listen = _metrics_address(metrics_listen, settings) if metrics_listen is not None else None
    if migrate:
        for name in apply_migrations(settings):
            console.print(f"applied migration {name}")
    else:
        pending = asyncio.run(_pending_migrations(settings))
        if pending:
            console.print(
                f"[red]the database is not up to date ({len(pending)} migration(s) pending: "
                f"{', '.join(pending)}); run `agency db upgrade` or `agency serve` first, "
                "or start the worker with --migrate[/red]"
            )
            raise typer.Exit(1)
    asyncio.run(_run_worker(settings, grace, listen))


def _metrics_address(text: str, settings: Settings) -> tuple[str, int]:
    """`--metrics-listen`'s host and port; exits 2 when it is not HOST:PORT or no token is set
    (the address would answer every scrape 404)."""
    from agency.core.web.prometheus import parse_listen

    try:
        address = parse_listen(text)
    except ValueError as exc:
        _stderr().print(f"--metrics-listen: {exc}", style="red", markup=False, highlight=False)
        raise typer.Exit(2) from exc
    if not settings.metrics_token:
        _stderr().print("[red]--metrics-listen needs AGENCY_METRICS_TOKEN (metrics are off)[/red]")
        raise typer.Exit(2)
    return address


async def _pending_migrations(settings: Settings) -> list[str]:
    from tortoise import Tortoise
    from tortoise.migrations.executor import MigrationExecutor

    from agency.core import db

    settings.ensure_data_dir()
    config = db.tortoise_config(settings.effective_database_url, model_modules())
    await Tortoise.init(config=config, init_connections=False)
    try:
        executor = MigrationExecutor(Tortoise.get_connection("default"), config["apps"])
        return [
            f"{step.migration.app_label}.{step.migration.name}" for step in await executor.plan()
        ]
    finally:
        await db.close_db()


async def _run_worker(
    settings: Settings, grace: float, metrics_listen: tuple[str, int] | None = None
) -> None:
    import asyncio
    import signal

    from agency.app import create_app
    from agency.core import metrics
    from agency.core.web import job_runner
    from agency.core.web.prometheus import serve_metrics

    # The app is built as for serving (handlers, schedules, the modules' job options, an app
    # context for handlers that read `current_app`) but serves nothing.
    metrics.set_role(metrics.WORKER)
    with _starting():
        app = create_app(settings.model_copy(update={"run_jobs": False}))
    runner = job_runner(app)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    await app.startup()
    scrapes: asyncio.Server | None = None
    try:
        async with app.app_context():
            runner.start()
        if metrics_listen is not None:
            host, port = metrics_listen
            scrapes = await serve_metrics(
                host, port, settings.metrics_token, lambda: runner.handlers.keys()
            )
            shown = f"[{host}]" if ":" in host else host
            log.info("agency worker: metrics at http://%s:%d/metrics", shown, port)
        log.info(
            "agency worker %s started as %s: %d job kind(s), concurrency %d; database %s",
            __version__,
            runner.worker_id,
            len(runner.handlers),
            runner.concurrency,
            _describe(settings),
        )
        await stopping.wait()
        log.info("agency worker stopping: %d job(s) running", runner.running)
        await runner.stop(grace=grace)
    finally:
        if scrapes is not None:
            scrapes.close()
            await scrapes.wait_closed()
        await app.shutdown()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
    log.info("agency worker stopped")


def _describe(settings: Settings) -> str:
    url = settings.effective_database_url
    if url.startswith("sqlite"):
        return url
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2]}"  # never print the password


def _granian_level(level: str) -> Any:
    from granian.log import LogLevels

    return LogLevels(level)  # our level names are granian's too


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Apply every pending migration and exit."""
    console = _stderr()
    settings = settings_or_exit()
    applied = apply_migrations(settings)
    for name in applied:
        console.print(f"applied migration {name}")
    console.print(f"database is up to date ({len(applied)} migration(s) applied)")


@db_app.command("prune")
def db_prune(ctx: typer.Context) -> None:
    """Delete now what is kept only for a while (the hourly retention job does the same):
    finished jobs, old e-mail, expired sessions and reset links, old rate-limit counters and
    webhook events, each after its AGENCY_RETENTION_* days."""
    from rich.table import Table

    from agency.core import retention
    from agency.core.cli.support import console as out
    from agency.registry import MODULES

    context: CliContext = ctx.obj
    hooks = [m.retention for m in MODULES if m.retention is not None]
    removed = context.run(lambda: retention.prune(context.settings, hooks))
    table = Table(title=f"{sum(removed.values())} row(s) deleted")
    table.add_column("kind")
    table.add_column("deleted", justify="right")
    for kind, count in removed.items():
        table.add_row(kind, str(count))
    out.print(table)


@db_app.command("backup")
def db_backup(
    file: Annotated[Path, typer.Argument(help="Where to write the backup.")],
    overwrite: Annotated[bool, typer.Option(help="Replace FILE if it exists.")] = False,
) -> None:
    """Write a consistent copy of the database to FILE while the server keeps running
    (SQLite: its online backup API; PostgreSQL: pg_dump's custom format)."""
    import time

    from agency.ops import backup

    console = _stderr()
    settings = settings_or_exit()
    url = settings.effective_database_url
    started = time.monotonic()

    def note(ok: bool, size: int | None) -> None:
        # Recorded in the database itself, for `agency status`; a backup never fails for it.
        why = backup.record_run(url, ok, size, time.monotonic() - started)
        if why is not None:
            console.print(f"(the run was not recorded in the database: {why})", markup=False)

    try:
        result = backup.backup(url, file, overwrite=overwrite)
    except backup.BackupError as exc:
        console.print(str(exc), style="red", markup=False, soft_wrap=True)
        note(False, None)
        raise typer.Exit(1) from exc
    note(True, result.size)
    console.print(
        f"backed up {_describe(settings)} to {result.path} "
        f"({result.tables} tables, {result.size:,} bytes)",
        markup=False,
        soft_wrap=True,
    )


@db_app.command("restore")
def db_restore(
    file: Annotated[Path, typer.Argument(help="A file written by `agency db backup`.")],
) -> None:
    """Load a backup into the configured database, which must be empty (no tables): a new
    SQLite file, or a new PostgreSQL database (pg_restore). Start the server afterwards."""
    from agency.ops import backup

    console = _stderr()
    settings = settings_or_exit()
    settings.ensure_data_dir()
    try:
        result = backup.restore(settings.effective_database_url, file)
    except backup.BackupError as exc:
        console.print(str(exc), style="red", markup=False, soft_wrap=True)
        raise typer.Exit(1) from exc
    console.print(
        f"restored {file} into {_describe(settings)} ({result.tables} tables)",
        markup=False,
        soft_wrap=True,
    )


@mail_app.command("outbox")
def mail_outbox(
    ctx: typer.Context,
    limit: Annotated[int, typer.Option(help="Show at most this many messages.")] = 20,
    show_body: Annotated[bool, typer.Option("--body", help="Print each message's text.")] = False,
) -> None:
    """Messages not delivered (yet): kept here when no SMTP server is configured."""
    from rich.table import Table

    from agency.core import jobs, mail
    from agency.core.cli.support import console as out

    context: CliContext = ctx.obj

    async def pending() -> list[mail.OutboundMail]:
        # Deliver what is due first, so the outbox shows where each message stands.
        await jobs.JobRunner({mail.JOB_KIND: mail.Mailer(context.settings).deliver}).drain()
        return await mail.outbox(limit)

    messages = context.run(pending)
    if not messages:
        out.print("the outbox is empty")
        return
    table = Table(title=f"{len(messages)} message(s) not delivered")
    for column in ("id", "created", "to", "subject", "status", "last error"):
        table.add_column(column)
    for message in messages:
        table.add_row(
            str(message.id),
            message.created_at.strftime("%Y-%m-%d %H:%M"),
            message.to,
            message.subject,
            message.status,
            message.last_error or "",
        )
    out.print(table)
    if show_body:
        for message in messages:
            out.print(f"\n[bold]#{message.id} {message.subject}[/bold]\n{message.text}")


@app.command()
def doctor() -> None:
    """List what an operator must still configure (seller details, e-mail, payments, AI,
    speed tests, newsletter), each with its next step; exits 1 while something production
    needs is missing."""
    from rich.table import Table

    from agency.core.cli.support import console as out
    from agency.core.settings import SettingsError
    from agency.ops import doctor as checkup
    from agency.registry import MODULES
    from agency.settings import load_settings

    try:
        settings = load_settings()
    except SettingsError as exc:
        _stderr().print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc
    items = checkup.report(settings, MODULES)
    table = Table(title=f"What agency needs (AGENCY_ENV={settings.env})", show_lines=True)
    for column in ("", "what", "state", "next step"):
        table.add_column(column)
    for item in items:
        if item.ready:
            mark, style = "OK", "green"
        elif item.required:
            mark, style = "MISSING", "red"
        else:
            mark, style = "OPTIONAL", "yellow"
        need = "production needs it" if item.required else "optional"
        table.add_row(
            f"[{style}]{mark}[/{style}]",
            f"{item.topic}\n({need})",
            item.detail,
            item.next_step,
        )
    out.print(table)
    missing = checkup.missing_for_production(items)
    if missing:
        out.print(
            f"[red]{len(missing)} thing(s) production needs are missing: "
            f"{', '.join(item.topic for item in missing)}[/red]"
        )
        raise typer.Exit(1)
    out.print("[green]ready for production[/green]")


@app.command()
def status(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of the table.")
    ] = False,
) -> None:
    """What an operator looks at first: version, database, migrations, job queue and runners,
    mail outbox, last webhook, last retention and backup run, and what `agency doctor` reports.
    Exits 1 when something needs attention (listed last), 2 on bad settings."""
    import asyncio
    import json

    from agency.ops import status as state
    from agency.registry import MODULES

    settings = settings_or_exit()
    report = asyncio.run(state.gather(settings, MODULES))
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        _print_status(report)
    if report["attention"]:
        raise typer.Exit(1)


def _print_status(report: dict[str, Any]) -> None:
    from rich.markup import escape
    from rich.table import Table

    from agency.core.cli.support import console as out

    def ok(good: bool, text: str) -> str:
        return f"[green]{escape(text)}[/green]" if good else f"[red]{escape(text)}[/red]"

    def names(items: list[str], most: int = 4) -> str:
        shown = items if len(items) <= most else [*items[:most], f"... ({len(items) - most} more)"]
        return escape(", ".join(shown))

    database = report["database"]
    table = Table(title=f"agency {report['version']} (AGENCY_ENV={report['env']})")
    table.add_column("what")
    table.add_column("state")
    table.add_row(
        "database",
        f"{escape(database['url'])} ({database['backend']}): "
        + ok(database["reachable"], "answers" if database["reachable"] else "does not answer"),
    )
    rows: list[tuple[str, str]] = []
    if database["reachable"]:
        migrations, queue, runners = report["migrations"], report["jobs"], report["runners"]
        outbox, runs, backup = report["mail"], report["retention"], report["backup"]
        if migrations is not None:
            pending = migrations["pending"]
            text = f"{migrations['applied']} applied, " + ok(not pending, f"{len(pending)} pending")
            rows.append(("migrations", text + (f": {names(pending)}" if pending else "")))
        if queue is not None:
            lines = [
                f"{queue['queued']} queued, {queue['running']} running, {queue['failed']} failed"
            ]
            lines += [
                f"  {escape(kind)}: {f['queued']} queued, {f['running']} running, "
                f"{f['failed']} failed, oldest due {f['oldest_due_seconds']:.0f} s"
                for kind, f in queue["kinds"].items()
            ]
            rows.append(("job queue", "\n".join(lines)))
        if runners is not None:
            lines = [ok(runners["alive"] > 0, f"{runners['alive']} alive")]
            lines += [
                f"  {escape(r['role'])} on {escape(r['host'])}, pid {r['pid']}, seen {r['seen_at']}"
                for r in runners["list"]
            ]
            rows.append(("job runners", "\n".join(lines)))
        if outbox is not None:
            text = f"{outbox['waiting']} waiting, {outbox['sent']} sent, {outbox['failed']} failed"
            rows.append(("mail outbox", text))
        for name, facts in report["modules"].items():
            webhook = (facts or {}).get("last_webhook", ...)
            if webhook is ...:
                continue
            text = (
                "none yet"
                if webhook is None
                else f"{webhook['received_at']} {escape(str(webhook['type']))}: "
                + ok(webhook["outcome"] != "failed", str(webhook["outcome"]))
            )
            rows.append((f"last webhook ({name})", text))
        if runs is not None:
            text = (
                "not yet"
                if runs["last_run_at"] is None
                else f"{runs['last_run_at']} ({escape(str(runs['last_outcome']))}), "
                f"next {runs['next_run_at']}"
            )
            rows.append(("last retention run", text))
        if backup is not None or "backup" not in report.get("errors", {}):
            text = (
                "none recorded (`agency db backup`)"
                if backup is None
                else f"{backup['finished_at']}: "
                + ok(backup["ok"], "ok" if backup["ok"] else "failed")
                + (f", {backup['size']:,} bytes" if backup["size"] is not None else "")
            )
            rows.append(("last backup", text))
        for name, kind in report.get("errors", {}).items():
            rows.append((escape(name), f"[red]could not be read ({escape(kind)})[/red]"))
    checkup = report["doctor"]
    missing = checkup["missing_for_production"]
    text = f"{len(checkup['ready'])} ready, " + ok(
        not missing, f"{len(missing)} missing for production"
    )
    rows.append(("agency doctor", text + (f": {names(missing)}" if missing else "")))
    for what, state in rows:
        table.add_row(what, state)
    out.print(table)
    if report["attention"]:
        out.print("[red]needs attention:[/red]")
        for item in report["attention"]:
            out.print(f"[red]- {escape(item)}[/red]")
    else:
        out.print("[green]nothing needs attention[/green]")


@app.command(cls=QuickCommand)
def version() -> None:
    """Print the program's version."""
    typer.echo(__version__)


def main() -> None:
    if getattr(sys, "frozen", False):  # the one-file binary: its worker processes start here
        import multiprocessing

        multiprocessing.freeze_support()
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
