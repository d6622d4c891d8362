"""The deployment files (deploy/) without starting them: docs/deployment.md shows each one
verbatim, systemd accepts the units (`systemd-analyze verify`), the env file example means the
same to systemd and to a shell, and the unit-file reading that tests/deploy/test_deployment.py
relies on (tests/helpers/systemd.py) follows systemd's rules."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.systemd import (
    command_line,
    load_unit,
    parse_environment_file,
    parse_unit,
    unit_environment,
)

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
DOC = ROOT / "docs" / "deployment.md"
FILES = [
    "Caddyfile",
    "systemd/agency-serve@.service",
    "systemd/agency-worker.service",
    "systemd/agency-backup.service",
    "systemd/agency-backup.timer",
    "prometheus.yml",
    "agency.env.example",
]
UNITS = [f for f in FILES if f.startswith("systemd/")]


def fenced_blocks(markdown: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"(?ms)^```[^\n]*\n(.*?)^```$", markdown)]


@pytest.mark.parametrize("name", FILES)
def test_the_docs_show_each_file_verbatim(name: str) -> None:
    blocks = fenced_blocks(DOC.read_text())
    assert (DEPLOY / name).read_text() in blocks, f"docs/deployment.md lacks deploy/{name}"


def test_the_units_run_the_installed_program_with_the_env_file() -> None:
    for name in UNITS:
        unit = load_unit(DEPLOY / name)
        if name.endswith(".timer"):
            assert unit.value("Timer", "Persistent") == "true"
            continue
        assert unit.value("Service", "EnvironmentFile") == "/etc/agency/env"
        assert unit.value("Service", "User") == "agency"
        assert "/srv/agency/.venv/bin/agency" in unit.value("Service", "ExecStart")


def test_serve_instances_leave_jobs_and_migrations_to_others() -> None:
    unit = load_unit(DEPLOY / "systemd" / "agency-serve@.service")
    env = unit_environment(unit, {"/etc/agency/env": ""})
    argv = command_line(unit.value("Service", "ExecStart"), env, "8001")
    assert argv == [
        "/srv/agency/.venv/bin/agency",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "8001",
        "--no-migrate",
    ]
    assert env["AGENCY_RUN_JOBS"] == "false"
    # The env file may not turn jobs back on: its values win over Environment=.
    example = parse_environment_file((DEPLOY / "agency.env.example").read_text())
    assert "AGENCY_RUN_JOBS" not in example


def test_the_backup_unit_names_its_file_by_date_and_prunes_by_age() -> None:
    unit = load_unit(DEPLOY / "systemd" / "agency-backup.service")
    env = unit_environment(unit, {"/etc/agency/env": "BACKUP_DIR=/b\n"})
    start = command_line(unit.value("Service", "ExecStart"), env)
    assert start[:2] == ["/bin/sh", "-c"]
    assert "date -u +%Y-%m-%dT%H%M%S" in start[2]  # %% is systemd's escaped %
    post = command_line(unit.value("Service", "ExecStartPost"), env)
    assert post == ["/usr/bin/find", "/b", "-maxdepth", "1", "-name", "agency-*.backup",
                    "-mtime", "+14", "-delete"]  # fmt: skip


# Slow: it needs systemd-analyze (Debian: systemd), which the fast lane does not assume.
@pytest.mark.slow
def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    # The programs the units start must exist for `verify`: the install path is replaced by
    # one whose .venv is the running one.
    install = tmp_path / "srv-agency"
    install.mkdir()
    (install / ".venv").symlink_to(Path(sys.prefix))
    for name in UNITS:
        text = (DEPLOY / name).read_text().replace("/srv/agency", str(install))
        (tmp_path / Path(name).name).write_text(text)
    names = [str(tmp_path / "agency-serve@8001.service")] + [
        str(tmp_path / Path(n).name) for n in UNITS if "@" not in n
    ]
    result = subprocess.run(
        ["systemd-analyze", "verify", *names], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and not result.stdout + result.stderr, (
        result.stdout + result.stderr
    )


def test_the_env_example_reads_the_same_in_a_shell(tmp_path: Path) -> None:
    """`set -a; . /etc/agency/env` (how docs/deployment.md runs a command by hand) gets the
    variables systemd gets."""
    text = (DEPLOY / "agency.env.example").read_text()
    expected = parse_environment_file(text)
    (tmp_path / "env").write_text(text)
    shell = subprocess.run(
        ["/bin/sh", "-c", f'set -a; . "{tmp_path / "env"}"; env -0'],
        capture_output=True,
        env={"PATH": "/usr/bin:/bin"},
        check=True,
    )
    seen = dict(item.split("=", 1) for item in shell.stdout.decode().split("\0") if "=" in item)
    assert {k: seen.get(k) for k in expected} == expected


def test_the_env_example_names_only_real_settings() -> None:
    from agency.settings import Settings

    text = (DEPLOY / "agency.env.example").read_text()
    keys = re.findall(r"(?m)^#?AGENCY_([A-Z0-9_]+)=", text)  # the seller's lines are commented
    assert len(keys) > 20
    assert [k for k in keys if k.lower() not in Settings.model_fields] == []


# ------------------------------------------------------------ tests/helpers/systemd.py


def test_unit_sections_repeated_keys_and_resets() -> None:
    unit = parse_unit(
        "# comment\n[Service]\nEnvironment=A=1\n; other comment\nEnvironment=B=2\n"
        "ExecStartPost=/bin/a\nExecStartPost=\nExecStartPost=/bin/b\n"
    )
    assert unit.values("Service", "Environment") == ["A=1", "B=2"]
    assert unit.values("Service", "ExecStartPost") == ["/bin/b"]
    with pytest.raises(ValueError):
        parse_unit("Key=outside a section\n")
    with pytest.raises(ValueError):
        parse_unit("[Service]\nExecStart=/bin/a \\\n  b\n")


def test_command_line_variables_and_specifiers() -> None:
    env = {"DIR": "/var/x y", "ARGS": "-a  -b"}
    assert command_line("/bin/p ${DIR}/f $ARGS %i 100%% $DIR/g $$HOME", env, "8001") == [
        "/bin/p",
        "/var/x y/f",
        "-a",
        "-b",
        "8001",
        "100%",
        "$DIR/g",
        "$HOME",
    ]
    assert command_line("""/bin/sh -c 'echo "$X" %%s'""", {}) == ["/bin/sh", "-c", 'echo "$X" %s']
    with pytest.raises(ValueError):
        command_line("/bin/p %n", {})
    with pytest.raises(ValueError):
        command_line("-/bin/p", {})


_ARG = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="$"),
    min_size=1,
)


@given(st.lists(_ARG, min_size=1, max_size=6))
def test_quoted_arguments_come_back_unchanged(argv: list[str]) -> None:
    def quote(arg: str) -> str:
        return '"' + arg.replace("%", "%%").replace("\\", "\\\\").replace('"', '\\"') + '"'

    assert command_line(" ".join(quote(a) for a in argv), {}) == argv


_KEY = st.from_regex(r"[A-Z_][A-Z0-9_]{0,20}", fullmatch=True)
_VALUE = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Zs")), max_size=30
).filter(lambda v: not (len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'"))


@given(st.dictionaries(_KEY, _VALUE, max_size=8), st.booleans())
def test_environment_files_come_back_unchanged(env: dict[str, str], comments: bool) -> None:
    lines = []
    for key, value in env.items():
        if comments:
            lines += ["# a comment", ""]
        lines.append(f"{key}={value}")
    assert parse_environment_file("\n".join(lines)) == env


@given(_KEY, _VALUE.filter(lambda v: "'" not in v))
def test_quoted_environment_values_are_unquoted(key: str, value: str) -> None:
    assert parse_environment_file(f"{key}='{value}'\n") == {key: value}
    assert unit_environment(
        parse_unit(f'[Service]\nEnvironment="{key}=x"\nEnvironmentFile=/e\n'),
        {"/e": f"{key}='{value}'\n"},
    ) == {key: value}
