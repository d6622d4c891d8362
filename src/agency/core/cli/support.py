"""What module CLI commands get as `ctx.obj`: settings and a way to run code with the
database open. The root `agency` command creates it; modules never import the registry."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import cached_property
from types import ModuleType
from typing import Any, TypeVar

from rich.console import Console

from agency.core import db
from agency.core.logging import configure_logging
from agency.core.settings import S, Settings, SettingsError, as_settings, load_settings_as

T = TypeVar("T")
console = Console()
errors = Console(stderr=True)
PROGRESS_TICK_SECONDS = 0.05


class CliFailure(Exception):
    """A command failed with a message for the user (exit code 1, no traceback)."""


class CliContext:
    def __init__(
        self,
        model_modules: Sequence[ModuleType] | Callable[[], Sequence[ModuleType]],
        settings_class: type[Settings] | Callable[[], type[Settings]] = Settings,
        configure: Callable[[Settings], None] | None = None,
        **overrides: Any,
    ) -> None:
        # A function is called when a command first opens the database (`agency` passes one,
        # so that commands which never do, and `--help`, import no module). The same for the
        # settings class: the program's one (`agency.settings`) is composed from the modules'.
        self._model_modules = model_modules
        self._settings_class = settings_class
        # Given the settings once loaded: what the program sets up for every command (the
        # e-mail footer, so that a command's mail reads like the server's).
        self._configure = configure
        self.overrides = overrides

    @cached_property
    def model_modules(self) -> list[ModuleType]:
        found = self._model_modules
        return list(found() if callable(found) else found)

    @cached_property
    def settings(self) -> Settings:
        try:
            found = self._settings_class
            cls: type[Settings] = found if isinstance(found, type) else found()
            given = {k: v for k, v in self.overrides.items() if v is not None}
            settings = load_settings_as(cls, **given)
        except SettingsError as exc:
            errors.print(f"[red]{exc}[/red]")
            raise SystemExit(2) from exc
        configure_logging(settings.log_level, settings.log_format)
        if self._configure is not None:
            self._configure(settings)
        return settings

    def settings_of(self, cls: type[S]) -> S:
        """The settings as a module's own class (`SpeedtestSettings`, ...)."""
        return as_settings(cls, self.settings)

    def run(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run `work()` with the database open (migrated first, so a fresh install works)."""

        async def main() -> T:
            url = self.settings.effective_database_url
            await db.upgrade(url, self.model_modules)
            await db.init_db(url, self.model_modules)
            try:
                return await work()
            finally:
                await db.close_db()

        return asyncio.run(main())


async def with_progress(work: Awaitable[T], label: str, expected_seconds: float) -> T:
    """Await `work` behind a rich bar that fills over `expected_seconds` (held at 95 % until
    the work ends): the speed test and the analysis show the same progress."""
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

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
            await asyncio.wait({task}, timeout=PROGRESS_TICK_SECONDS)
        progress.update(bar, completed=100)
    return task.result()
