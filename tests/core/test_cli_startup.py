"""`agency --help` and `agency version` answer at once: the CLI imports what a command needs
when it runs. A subprocess per check, for a clean `sys.modules`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agency import __version__
from agency.cli import app
from agency.commands import COMMANDS, GROUPS
from agency.core.cli.lazy import LazyCommand

# What the server, the ORM and the SDKs bring: none of it for --help or version. pydantic is
# here for Typer 0.29, which imports it to parse any parameter it is not told to skip
# (`agency.core.cli.lazy._quick_help`); rich for its help panels (the root's help is plain).
HEAVY = (
    "quart",
    "tortoise",
    "stripe",
    "openai",
    "httpx",
    "granian",
    "pydantic",
    "asyncio",
    "rich",
    "agency.registry",
    "agency.modules",
    "agency.core.settings",
    "agency.core.db",
    "agency.app",
)
CORE_COMMANDS = ("serve", "worker", "doctor", "status", "version", "db", "mail")

PROBE = """
import json, sys
run = json.loads(sys.argv[2])
sys.argv = ["agency", *json.loads(sys.argv[1])]
import agency.cli
if run:
    try:
        agency.cli.main()
    except SystemExit:
        pass
heavy = {heavy}
loaded = sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in heavy))
print(json.dumps(loaded), file=sys.stderr)
"""


def imported_by(*args: str, run: bool = True) -> tuple[str, list[str]]:
    """Run `agency ARGS` (or only import the CLI) in a fresh interpreter: (its stdout, the
    HEAVY modules it imported)."""
    code = PROBE.replace("{heavy}", repr(HEAVY))
    result = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args), json.dumps(run)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout, json.loads(result.stderr.strip().splitlines()[-1])


def test_importing_the_cli_imports_no_server_orm_or_sdk() -> None:
    _, loaded = imported_by(run=False)
    assert loaded == []


@pytest.mark.parametrize("args", [("--help",), ("version",), ()], ids=str)
def test_help_and_version_import_nothing_heavy(args: tuple[str, ...]) -> None:
    out, loaded = imported_by(*args)
    assert loaded == [], f"agency {' '.join(args)} imported {loaded}"
    if args == ("version",):
        assert out.strip() == __version__
    else:
        assert "Usage: agency" in out


def test_the_help_lists_every_command_with_its_help() -> None:
    out, _ = imported_by("--help")
    flat = " ".join(out.split())
    for name in CORE_COMMANDS:
        assert f" {name} " in flat, name
    for entry in (*COMMANDS, *GROUPS):
        assert f" {entry.name} {entry.help}" in flat, entry.name
    # The module commands first (as before), then the core commands, then the modules' groups.
    listing = out.split("Commands:")[1].splitlines()
    order = [line.split()[0] for line in listing if line[:2] == "  " and line[2:3] != " "]
    names = [e.name for e in COMMANDS] + list(CORE_COMMANDS)
    assert order == [*names, *(e.name for e in GROUPS)]


@pytest.mark.parametrize("entry", GROUPS, ids=lambda entry: entry.name)
def test_a_module_group_help_is_complete(entry: LazyCommand) -> None:
    """`agency <group> --help` imports the group and shows all of its sub-commands."""
    group = entry.load()
    result = CliRunner().invoke(app, [entry.name, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert entry.help in result.stdout
    for sub in group.commands:  # type: ignore[attr-defined]
        assert sub in result.stdout, (entry.name, sub)
    assert "--install-completion" not in result.stdout  # as `add_typer` made it


@pytest.mark.parametrize("entry", COMMANDS, ids=lambda entry: entry.name)
def test_a_module_command_help_shows_its_options(entry: LazyCommand) -> None:
    command = entry.load()
    result = CliRunner().invoke(app, [entry.name, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"Usage: agency {entry.name}" in " ".join(result.stdout.split())
    for param in command.params:
        for flag in param.opts:
            if flag.startswith("--"):
                assert flag in result.stdout, (entry.name, flag)


def test_a_mistyped_command_is_told_the_module_commands_too() -> None:
    result = CliRunner().invoke(app, ["user"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "No such command 'user'" in result.output
    assert "'users'" in result.output


def test_the_version_command_answers_as_a_user_runs_it(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "agency", "version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == __version__


def test_the_server_loads_no_sdk_until_a_feature_calls_it() -> None:
    """What `agency serve` imports before its first answer: the app and every module, but not
    the SDKs of features a request may never use (openai, stripe, httpx with the rich console
    its own command line pulls in), each loaded by its first call."""
    code = (
        "import json, sys\n"
        "import agency.registry, agency.app\n"
        "print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(result.stdout))
    assert {"quart", "tortoise", "agency"} <= loaded  # the probe does load the server
    assert not loaded & {"openai", "stripe", "httpx", "httpx2", "rich"}
