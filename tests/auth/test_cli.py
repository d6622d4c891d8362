"""`agency users ...` and `agency mail outbox` as an admin runs them (real subprocesses)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_agency

# Every test runs the `agency` command in a subprocess: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow


def agency(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_agency(cwd, *args, stdin=stdin)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    created = agency(
        tmp_path,
        "users",
        "create",
        "Root@Example.com",
        "--admin",
        "--first-name",
        "Rita",
        "--last-name",
        "Root",
        stdin="pw123456\npw123456\n",
    )
    assert created.returncode == 0, created.stderr
    assert "created admin root@example.com" in created.stdout
    return tmp_path


def test_create_list_and_set_role(workdir: Path) -> None:
    listed = agency(workdir, "users", "list")
    assert "root@example.com" in listed.stdout and "Rita Root" in listed.stdout
    assert "admin" in listed.stdout
    demoted = agency(workdir, "users", "set-role", "root@example.com", "user")
    assert demoted.returncode == 0 and "root@example.com is now user" in demoted.stdout
    unknown = agency(workdir, "users", "set-role", "nobody@example.com", "admin")
    assert (
        unknown.returncode == 1 and "No user with the e-mail nobody@example.com." in unknown.stderr
    )
    bad_role = agency(workdir, "users", "set-role", "root@example.com", "owner")
    assert bad_role.returncode == 1 and "use 'user' or 'admin'" in bad_role.stderr


def test_create_refuses_a_taken_email_and_a_short_password(workdir: Path) -> None:
    taken = agency(workdir, "users", "create", "root@example.com", stdin="pw123456\npw123456\n")
    assert taken.returncode == 1 and "This email is already registered." in taken.stderr
    short = agency(workdir, "users", "create", "new@example.com", stdin="123\n123\n")
    assert short.returncode == 1 and "Password must be at least 6 characters" in short.stderr


def test_sessions_revoke(workdir: Path) -> None:
    revoked = agency(workdir, "users", "sessions", "revoke", "root@example.com")
    assert revoked.returncode == 0 and "ended 0 session(s) of root@example.com" in revoked.stdout
    unknown = agency(workdir, "users", "sessions", "revoke", "nobody@example.com")
    assert unknown.returncode == 1
    assert unknown.stderr.strip() == "No user with the e-mail nobody@example.com."


def test_mail_outbox_when_empty(workdir: Path) -> None:
    outbox = agency(workdir, "mail", "outbox")
    assert outbox.returncode == 0 and "the outbox is empty" in outbox.stdout
