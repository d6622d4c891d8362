"""Commands named by a dotted path and imported when run, so that `agency --help` and
`agency version` answer without importing the server, the ORM or the SDKs.

`agency.commands` names every module's command this way; `agency.cli` builds its root group
with `lazy_group(...)`. Listing a lazy command (`agency --help`) shows the help text written
beside its path; running it, or asking for its own help (`agency users --help`), imports it.
`tests/test_architecture.py` checks that each path loads and that the listed help is the
first paragraph of the real command's help.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Any

import typer
from typer import _click as click  # the Click that Typer vendors: its Command and Context
from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True)
class LazyCommand:
    """A command of `agency`, imported only when it runs.

    name: the command's name (`agency <name> ...`).
    target: "package.module:attribute": a Typer app (a group of sub-commands) or a function
        (a single command, as `typer.Typer().command()` would make it).
    help: what `agency --help` lists beside the name: the first paragraph of the command's
        own help (the app's `help=`, or the function's docstring).
    """

    name: str
    target: str
    help: str

    def load(self) -> click.Command:
        """The command as Click runs it (imports its module)."""
        module_name, _, attribute = self.target.partition(":")
        obj = getattr(importlib.import_module(module_name), attribute)
        if isinstance(obj, typer.Typer):
            command: click.Command = typer.main.get_group(obj)  # as `add_typer` makes it
        else:
            single = typer.Typer(add_completion=False)
            single.command(name=self.name)(obj)
            command = typer.main.get_command(single)
        command.name = self.name
        return command

    def placeholder(self) -> click.Command:
        """What the listing shows: the name and the help, nothing imported."""
        return TyperCommand(self.name, help=self.help, short_help=self.help)


def _quick_help(option: Any) -> Any:
    """The help flag, given the default False: Typer (0.29) runs a flag's missing value (None)
    through a pydantic TypeAdapter, so parsing any command line would import pydantic (0.2 to
    0.4 s) just to find that `--help` was not given; a bool needs no coercion."""
    if option is not None and option.default is None:
        option.default = False
    return option


class QuickCommand(TyperCommand):
    """A command whose `--help` flag costs no import (for `agency version`)."""

    def get_help_option(self, ctx: click.Context) -> Any:
        return _quick_help(super().get_help_option(ctx))


class LazyGroup(TyperGroup):
    """A Typer group with lazy commands besides its own (`lazy_group` sets them): the lazy
    commands are listed first (`lazy_commands`, in their order), then the group's own commands
    and sub-groups, then the lazy sub-groups (`lazy_groups`). Until one runs, a lazy command is
    a placeholder in `commands` (its name and help); resolving it imports the real one."""

    lazy_commands: tuple[LazyCommand, ...] = ()
    lazy_groups: tuple[LazyCommand, ...] = ()

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self._lazy = {c.name: c for c in (*self.lazy_commands, *self.lazy_groups)}
        self.commands = {
            **{c.name: c.placeholder() for c in self.lazy_commands},
            **self.commands,
            **{c.name: c.placeholder() for c in self.lazy_groups},
        }

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        # Click calls this only to run a command or show its own help: the one place that
        # imports a lazy command (the listing in `agency --help` reads the placeholders).
        lazy = self._lazy.pop(args[0], None) if args else None
        if lazy is not None:
            self.commands[lazy.name] = lazy.load()
        return super().resolve_command(ctx, args)

    def get_help_option(self, ctx: click.Context) -> Any:
        return _quick_help(super().get_help_option(ctx))

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Plain text, not Typer's rich panels: those import rich and markdown-it and lay out
        # the panels, 0.2 s of CPU, more than the rest of `agency --help`. The sub-commands'
        # own help stays rich.
        click.Command.format_help(self, ctx, formatter)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            # Typer prints its rich help while raising NoArgsIsHelpError and then shows nothing
            # more; with the plain help, print it here: on stdout, exit code 2, as before.
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(2)
        return super().parse_args(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Each command's first paragraph in full (Click would cut it at the first sentence).
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                text = command.short_help or inspect.cleandoc(command.help or "")
                rows.append((name, " ".join(text.split("\n\n")[0].split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def lazy_group(
    commands: tuple[LazyCommand, ...] = (), groups: tuple[LazyCommand, ...] = ()
) -> type[LazyGroup]:
    """A `LazyGroup` class with these lazy commands, for `typer.Typer(cls=...)`."""
    return type("AgencyGroup", (LazyGroup,), {"lazy_commands": commands, "lazy_groups": groups})
