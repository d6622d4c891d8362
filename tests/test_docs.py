"""The documentation cannot drift from the code: the configuration reference is generated from
the settings, the architecture page names every module and the layers of the import-linter
contracts, and the README stays short and free of history."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from agency.registry import MODULES
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ARCHITECTURE = DOCS / "architecture.md"
README = ROOT / "README.md"
# "issue 12", "issue-12", "before issue 13": history belongs in git, not in the documents.
NARRATION = re.compile(r"\bissue[ -]?#?\d+", re.IGNORECASE)


@pytest.fixture(scope="module")
def gen_config_doc() -> ModuleType:
    return load_script(ROOT / "scripts" / "gen_config_doc.py")


def test_configuration_doc_matches_the_settings(gen_config_doc: ModuleType) -> None:
    assert gen_config_doc.main(["--check"]) == 0, "run scripts/gen-config-doc"


def test_the_check_fails_on_a_stale_configuration_doc(
    gen_config_doc: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "configuration.md"
    stale.write_text(
        (DOCS / "configuration.md").read_text().replace("`AGENCY_PORT`", "`AGENCY_PORTS`")
    )
    assert gen_config_doc.main(["--check", "--output", str(stale)]) == 1
    assert "out of date" in capsys.readouterr().err
    assert gen_config_doc.main(["--output", str(stale)]) == 0  # regenerating fixes it
    assert gen_config_doc.main(["--check", "--output", str(stale)]) == 0


def test_configuration_doc_has_every_setting() -> None:
    from agency.settings import Settings

    text = (DOCS / "configuration.md").read_text()
    for name in Settings.model_fields:
        assert f"| `AGENCY_{name.upper()}` | `{name}` |" in text, name


def test_architecture_names_every_registered_module() -> None:
    text = ARCHITECTURE.read_text()
    table = re.findall(r"^\| `([a-z_]+)` \| (\d+) \|", text, re.MULTILINE)
    assert {name for name, _layer in table} == {module.name for module in MODULES}


def _layer_contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def test_architecture_lists_the_import_linter_contracts() -> None:
    text = " ".join(ARCHITECTURE.read_text().split())
    contracts = _layer_contracts()
    assert contracts
    for contract in contracts:
        assert str(contract["name"]) in text, contract["name"]
        if contract["type"] == "layers":
            layers = contract["layers"]
            assert isinstance(layers, list)
            chain = " > ".join(f"`{layer}`" for layer in layers)
            assert chain in text, f"{contract['name']}: docs/architecture.md lacks {chain}"


def test_the_module_table_follows_the_module_layers() -> None:
    """The table's layer numbers are the contract's layers, counted from the bottom."""
    modules = next(c for c in _layer_contracts() if c.get("containers") == ["agency.modules"])
    layers = modules["layers"]
    assert isinstance(layers, list)
    expected = {
        name.strip(): len(layers) - index
        for index, layer in enumerate(layers)
        for name in str(layer).split("|")
    }
    table = re.findall(r"^\| `([a-z_]+)` \| (\d+) \|", ARCHITECTURE.read_text(), re.MULTILINE)
    assert {name: int(layer) for name, layer in table} == expected


def test_readme_stays_short() -> None:
    lines = len(README.read_text().splitlines())
    assert lines <= 300, f"README.md has {lines} lines: move detail into docs/"


def test_readme_links_every_document() -> None:
    text = README.read_text()
    for path in sorted(DOCS.rglob("*.md")):
        assert str(path.relative_to(ROOT)) in text, f"README.md does not link {path}"


def test_no_history_narration_in_the_documents() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in [README, *sorted(DOCS.rglob("*.md"))]
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if NARRATION.search(line)
    ]
    assert not found, "history belongs in git, not in the documents:\n" + "\n".join(found)


def test_relative_links_in_the_documents_resolve() -> None:
    broken = []
    for path in [README, *sorted(DOCS.rglob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (path.parent / target).exists():
                broken.append(f"{path.relative_to(ROOT)} -> {target}")
    assert not broken, "\n".join(broken)
