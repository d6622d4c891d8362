"""The `agency` command as a user runs it (a real subprocess)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agency import __version__
from tests.conftest import run_agency

# Every test runs the `agency` command in a subprocess: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run_agency(cwd, *args, **env)


def test_version(tmp_path: Path) -> None:
    result = run(["version"], tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == __version__


def test_db_upgrade_creates_the_database_then_has_nothing_to_do(tmp_path: Path) -> None:
    first = run(["db", "upgrade"], tmp_path)
    assert first.returncode == 0, first.stderr
    assert "applied migration models.0001_init" in first.stderr
    assert (tmp_path / "data" / "agency.db").is_file()
    second = run(["db", "upgrade"], tmp_path)
    assert second.returncode == 0
    assert "(0 migration(s) applied)" in second.stderr


def test_bad_configuration_is_reported_not_a_traceback(tmp_path: Path) -> None:
    result = run(["db", "upgrade"], tmp_path, AGENCY_WORKERS="lots")
    assert result.returncode == 2
    assert "AGENCY_WORKERS" in result.stderr
    assert "Traceback" not in result.stderr


def test_help_lists_commands(tmp_path: Path) -> None:
    result = run(["--help"], tmp_path)
    assert result.returncode == 0
    for command in ("serve", "db", "version"):
        assert command in result.stdout
