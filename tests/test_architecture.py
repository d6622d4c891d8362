"""The module layout the README promises: every module folder is registered and complete."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import agency
from agency.commands import COMMANDS, GROUPS
from agency.core.cli.lazy import LazyCommand
from agency.core.modules import Module
from agency.registry import MODULES

MODULES_DIR = Path(agency.__file__).parent / "modules"
REQUIRED_FILES = ("__init__.py", "module.py")
# What a module folder may hold besides the required files (README, Architecture -> Modules):
# the use cases are `service.py` or, grown, a `service/` package of one file per use case.
OPTIONAL_FILES = (
    "models.py",  # Tortoise models
    "schemas.py",  # request/response models, and the data handed to other modules
    "service.py",  # the use cases: plain async functions
    "routes.py",  # a Quart blueprint with thin handlers
    "cli.py",  # a Typer app
    "api.py",  # what other modules may call
    "web.py",  # Quart helpers other modules' routes may use (auth's guards)
    "clients.py",  # clients of outside services (billing's Stripe gateway)
    "settings.py",  # the settings keys the module owns (`Module.settings`)
)
SERVICE_PACKAGE = "service"
WEB_PACKAGES = ("quart", "quart_auth", "quart_schema")


def module_folders() -> list[str]:
    return sorted(p.name for p in MODULES_DIR.iterdir() if (p / "__init__.py").is_file())


def test_every_module_folder_is_registered_once() -> None:
    assert sorted(m.name for m in MODULES) == module_folders()
    assert len({m.name for m in MODULES}) == len(MODULES)


def test_the_twelve_modules_exist() -> None:
    assert set(module_folders()) == {
        "auth",
        "catalogue",
        "legal",
        "notifications",
        "billing",
        "support",
        "sites",
        "leads",
        "speedtest",
        "analysis",
        "blog",
        "contracts",
        "seo",
        "content",
        "tax",
        "invoices",
        "audit",
        "overview",
    }


def test_every_module_has_the_required_files_and_a_docstring() -> None:
    for name in module_folders():
        for required in REQUIRED_FILES:
            assert (MODULES_DIR / name / required).is_file(), f"{name}/{required} is missing"
        package = importlib.import_module(f"agency.modules.{name}")
        assert package.__doc__, f"agency.modules.{name} must say what it owns"
        assert isinstance(importlib.import_module(f"agency.modules.{name}.module").MODULE, Module)


def test_models_live_in_their_module() -> None:
    for module in MODULES:
        if module.models is not None:
            assert module.models.__name__ == f"agency.modules.{module.name}.models"


def _module_entries(name: str) -> set[str]:
    return {p.name for p in (MODULES_DIR / name).iterdir() if p.name != "__pycache__"}


def _modules_with(entry: str) -> list[str]:
    return [name for name in module_folders() if (MODULES_DIR / name / entry).exists()]


def _service_files(name: str) -> list[Path]:
    folder = MODULES_DIR / name
    if (folder / SERVICE_PACKAGE).is_dir():
        return sorted((folder / SERVICE_PACKAGE).glob("*.py"))
    return [folder / "service.py"] if (folder / "service.py").is_file() else []


def _imports(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved; `from a import b` counts as
    both `a` and `a.b` (b may be a module)."""
    parts = path.relative_to(MODULES_DIR.parent).parts
    package = ".".join(("agency", *parts[:-1]))  # the package the file is in (__init__: is)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("name", module_folders())
def test_a_module_holds_only_the_files_the_readme_names(name: str) -> None:
    allowed = {*REQUIRED_FILES, *OPTIONAL_FILES, SERVICE_PACKAGE}
    unknown = _module_entries(name) - allowed
    assert not unknown, f"{name}/ holds {sorted(unknown)}: not part of a module's file set"
    folder = MODULES_DIR / name
    assert not ((folder / "service.py").exists() and (folder / SERVICE_PACKAGE).exists()), (
        f"{name}: service.py or service/, not both"
    )


@pytest.mark.parametrize("name", _modules_with(SERVICE_PACKAGE))
def test_a_service_package_is_use_case_files_and_a_docstring(name: str) -> None:
    """No barrel: callers import the use-case file (`from ...service import checkout`)."""
    package = MODULES_DIR / name / SERVICE_PACKAGE
    entries = {p.name for p in package.iterdir() if p.name != "__pycache__"}
    assert "__init__.py" in entries
    assert all(e.endswith(".py") for e in entries), f"{name}/service/ holds {sorted(entries)}"
    body = ast.parse((package / "__init__.py").read_text()).body
    assert len(body) == 1 and isinstance(body[0], ast.Expr), (
        f"{name}/service/__init__.py must hold only a docstring (no code, no re-exports)"
    )
    assert isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)


@pytest.mark.parametrize("name", _modules_with("models.py"))
def test_a_module_with_models_has_schemas_a_service_and_an_api(name: str) -> None:
    entries = _module_entries(name)
    assert "schemas.py" in entries, f"{name} has models but no schemas.py"
    assert _service_files(name), f"{name} has models but no service"
    assert "api.py" in entries, f"{name} has models but no api.py"


@pytest.mark.parametrize("name", module_folders())
def test_an_api_the_docstring_names_exists(name: str) -> None:
    docstring = importlib.import_module(f"agency.modules.{name}").__doc__ or ""
    if f"agency.modules.{name}.api" in docstring:
        assert (MODULES_DIR / name / "api.py").is_file(), f"{name}'s docstring names a missing api"


@pytest.mark.parametrize("name", module_folders())
def test_the_service_never_imports_the_web_framework(name: str) -> None:
    for path in _service_files(name):
        web = {m for m in _imports(path) if m.split(".")[0] in WEB_PACKAGES}
        assert not web, f"{path.relative_to(MODULES_DIR)} imports {sorted(web)}"


@pytest.mark.parametrize("name", module_folders())
def test_routes_cli_and_api_do_not_touch_the_orm(name: str) -> None:
    """Routes and CLI commands call the service; api.py hands out schemas, never ORM rows."""
    models = f"agency.modules.{name}.models"
    for edge in ("routes.py", "cli.py", "api.py"):
        path = MODULES_DIR / name / edge
        if not path.is_file():
            continue
        orm = {m for m in _imports(path) if m == models or m.split(".")[0] == "tortoise"}
        assert not orm, f"{name}/{edge} imports {sorted(orm)}: the service does that"


def _cli_module(entry: LazyCommand) -> str:
    return entry.target.partition(":")[0]


def test_every_module_cli_is_in_the_command_list_once() -> None:
    """`agency` lists the modules' commands by path (agency.commands): a `cli.py` missing there
    would be a command nobody can run, a path to no `cli.py` a command that fails."""
    expected = {f"agency.modules.{name}.cli" for name in _modules_with("cli.py")}
    # One line per Typer app: a cli.py may hold two (invoices: `invoices` and `billing`).
    targets = [entry.target for entry in GROUPS]
    assert len(set(targets)) == len(targets), "agency.commands.GROUPS: one line per app"
    groups = [_cli_module(entry) for entry in GROUPS]
    listed = {*groups, *(_cli_module(entry) for entry in COMMANDS)}
    assert listed == expected, "agency.commands: every cli.py as a group or top-level commands"
    names = [entry.name for entry in (*GROUPS, *COMMANDS)]
    assert len(set(names)) == len(names), f"a command name twice in agency.commands: {names}"


@pytest.mark.parametrize("entry", [*GROUPS, *COMMANDS], ids=lambda entry: entry.name)
def test_a_listed_command_loads_and_its_listed_help_is_its_own(entry: LazyCommand) -> None:
    """What `agency --help` lists (written beside the path) is the first paragraph of the help
    the command gives once imported, so the two cannot drift apart."""
    command = entry.load()
    assert command.name == entry.name
    own = " ".join(inspect.cleandoc(command.help or "").split("\n\n")[0].split())
    assert entry.help == own, f"agency.commands: {entry.name}'s help is {own!r}"


@pytest.mark.parametrize("name", module_folders())
def test_a_module_descriptor_does_not_import_its_cli(name: str) -> None:
    """The server imports every module.py; the CLI (Typer, rich, the commands) is imported only
    by `agency` when a command runs."""
    imported = _imports(MODULES_DIR / name / "module.py")
    assert f"agency.modules.{name}.cli" not in imported, (
        f"{name}/module.py imports its cli: list it in agency.commands instead"
    )


def test_every_kernel_file_is_held_by_the_kernel_contract() -> None:
    """A new file in core/ (outside core/web and core/cli) is kernel and must not import them."""
    import tomllib

    contracts = tomllib.loads((MODULES_DIR.parents[2] / "pyproject.toml").read_text())["tool"][
        "importlinter"
    ]["contracts"]
    kernel = next(c for c in contracts if "agency.core.web" in c.get("forbidden_modules", []))
    core_dir = MODULES_DIR.parent / "core"
    files = {f"agency.core.{p.stem}" for p in core_dir.glob("*.py") if p.stem != "__init__"}
    assert set(kernel["source_modules"]) == files
    assert {p.name for p in core_dir.iterdir() if p.is_dir() and p.name != "__pycache__"} == {
        "web",
        "cli",
    }
