"""What a module contributes to the program. Each module describes itself in its `module.py`;
`agency.registry` lists the modules, one line each."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

from agency.core.settings import Settings, SettingsCheck
from agency.core.userdata import UserData

JobHandler = Callable[[dict[str, Any]], Awaitable[None]]
# (path of a built HTML file relative to the build, its text) -> the text to serve.
HtmlFilter = Callable[[str, str], str]
# (settings, now) -> rows removed per kind ("auth.sessions": 3, ...): deletes what the module
# keeps only for a while, each kind after its configured time (see `agency.core.retention`).
RetentionHook = Callable[[Settings, datetime], Awaitable[dict[str, int]]]


@dataclass(frozen=True)
class Periodic:
    """Work that runs every `interval`, once per period across every server process.

    name: the schedule's name, also the kind of the job each run is queued as (at most 64
        characters; prefix it with the module's name: "sites.monitor").
    interval: the time between runs (the first run is due at once on a new database).
    run: given the settings, does the work; it runs as a job of the database queue, so a
        failure is retried with back-off.
    """

    name: str
    interval: timedelta
    run: Callable[[Settings], Awaitable[object]]


@dataclass(frozen=True)
class Module:
    """A module's contributions.

    name: the module's name, also its CLI sub-command (`agency <name> ...`).
    models: the module's Tortoise models module, imported statically so that the frozen
        binary and import-linter both see it.
    blueprint: a Quart blueprint (typed loosely so that core does not import Quart).
    cli: a Typer app added as a sub-command.
    job_handlers: background job kinds this module runs, by kind name.
    csrf_exempt: API paths that accept requests without the CSRF guard (payment webhooks).
    user_data: how to export and erase what this module holds about a user.
    prepare: runs in `agency serve` after the migrations, before the workers start (loads
        default data on a fresh install).
    check_settings: reports problems with the settings keys only this module understands, as
        (key, message) pairs; `create_app` and the CLI stop with them as with any bad key.
    html_filter: given the settings and the app's `extensions` (where the module may keep what
        it loads for its routes), returns a function that fills the built web UI's HTML pages at
        start-up; `create_app` chains the modules' filters in registry order.
    frame_origins: origins (`scheme://host[:port]`) the CSP lets pages frame.
    retention: deletes what the module keeps only for a while (expired sessions, old webhook
        events); core runs every module's hook on a schedule and in `agency db prune`.
    periodic: work the module runs on a schedule (see `Periodic`).
    """

    name: str
    models: ModuleType | None = None
    blueprint: Any = None
    cli: Any = None
    cli_name: str | None = None
    job_handlers: dict[str, JobHandler] = field(default_factory=dict)
    csrf_exempt: tuple[str, ...] = ()
    user_data: UserData | None = None
    prepare: Callable[[], Awaitable[object]] | None = None
    check_settings: SettingsCheck | None = None
    html_filter: Callable[[Settings, dict[str, Any]], HtmlFilter] | None = None
    frame_origins: Callable[[Settings], tuple[str, ...]] | None = None
    retention: RetentionHook | None = None
    periodic: tuple[Periodic, ...] = ()
