"""What a module contributes to the program. Each module describes itself in its `module.py`;
`agency.registry` lists the modules, one line each."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from agency.core.userdata import UserData

JobHandler = Callable[[dict[str, Any]], Awaitable[None]]


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
