"""`agency status` through the real command, on SQLite and PostgreSQL, over known rows: the
queue per kind, the runners' heartbeats, the outbox, the last webhook, retention and backup
runs; it exits 1 while something needs attention and 0 once nothing does."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tortoise import connections
from tortoise.migrations.recorder import MigrationRecorder

from agency.core import jobs, mail, operations
from agency.modules.billing.models import WebhookEvent
from agency.ops.status import safe_url
from tests.conftest import run_agency, with_database

NOW = datetime.now(UTC)


def env(tmp_path: Path, database_url: str, **more: str) -> dict[str, str]:
    return {
        "AGENCY_DATABASE_URL": database_url,
        "AGENCY_DATA_DIR": str(tmp_path / "data"),
        "AGENCY_SECRET_KEY": "s" * 40,
        "AGENCY_LOG_LEVEL": "warning",
        **more,
    }


def status(tmp_path: Path, database_url: str, *args: str, **more: str) -> tuple[int, Any]:
    done = run_agency(tmp_path, "status", *args, **env(tmp_path, database_url, **more))
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout) if "--json" in args else done.stdout


async def job(kind: str, status: str, run_at: datetime) -> None:
    await jobs.Job.create(kind=kind, status=status, run_at=run_at)


async def outbound(status: str) -> None:
    await mail.OutboundMail.create(to="a@example.com", subject="s", text="t", status=status)


async def webhook(event_id: str, type_: str, status: str, received: datetime) -> None:
    await WebhookEvent.create(id=event_id, type=type_, created=0, status=status, payload={})
    await WebhookEvent.filter(id=event_id).update(received_at=received)


async def seed() -> None:
    now = datetime.now(UTC)
    await job("mail.send", jobs.QUEUED, now - timedelta(minutes=20))
    await job("mail.send", jobs.QUEUED, NOW - timedelta(minutes=1))
    await job("mail.send", jobs.FAILED, NOW - timedelta(days=1))
    await job("sites.monitor", jobs.QUEUED, NOW + timedelta(hours=1))  # not due: not late
    await job("sites.monitor", jobs.RUNNING, NOW)
    await job("retention", jobs.DONE, NOW - timedelta(minutes=10))
    await jobs.Schedule.create(
        name="retention",
        last_run_at=NOW - timedelta(minutes=10),
        next_run_at=NOW + timedelta(minutes=50),
    )
    for state in (mail.QUEUED, mail.OUTBOX, mail.OUTBOX, mail.SENT, mail.FAILED):
        await outbound(state)
    await webhook("evt_old", "checkout.session.completed", "processed", NOW - timedelta(hours=2))
    await webhook("evt_new", "invoice.paid", "failed", NOW - timedelta(minutes=5))
    await operations.JobRunnerBeat.create(
        worker_id="worker-host:4242:1",
        host="worker-host",
        pid=4242,
        role="worker",
        started_at=NOW - timedelta(hours=1),
        seen_at=datetime.now(UTC),
    )
    await operations.record_backup(True, "postgres", 123456, 2.5)


async def settle() -> None:
    """What an operator does: the queue catches up, Stripe resends the failed event."""
    await jobs.Job.filter(kind="mail.send", status=jobs.QUEUED).update(run_at=datetime.now(UTC))
    await WebhookEvent.filter(id="evt_new").update(status="processed")
    await operations.JobRunnerBeat.filter(worker_id="worker-host:4242:1").update(
        seen_at=datetime.now(UTC)
    )


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_status_shows_the_known_rows_and_what_needs_attention(
    tmp_path: Path, database_url: str
) -> None:
    with_database(database_url, seed)
    code, report = status(tmp_path, database_url, "--json")
    assert code == 1
    assert report["version"]
    assert report["database"]["reachable"] is True
    assert report["database"]["backend"] == ("sqlite" if "sqlite" in database_url else "postgres")
    assert report["migrations"]["pending"] == []
    assert report["migrations"]["applied"] == len(
        [p for p in os.listdir(Path(jobs.__file__).parent.parent / "migrations") if p[:4].isdigit()]
    )
    kinds = report["jobs"]["kinds"]
    assert {kind: (f["queued"], f["running"], f["failed"]) for kind, f in kinds.items()} == {
        "mail.send": (2, 0, 1),
        "sites.monitor": (1, 1, 0),
    }
    assert 20 * 60 <= kinds["mail.send"]["oldest_due_seconds"] < 30 * 60
    assert kinds["sites.monitor"]["oldest_due_seconds"] == 0
    assert (report["jobs"]["queued"], report["jobs"]["failed"]) == (3, 1)
    assert report["runners"]["alive"] == 1
    [runner] = report["runners"]["list"]
    assert (runner["host"], runner["pid"], runner["role"]) == ("worker-host", 4242, "worker")
    assert report["mail"] == {"waiting": 3, "sent": 1, "failed": 1}
    last = report["modules"]["billing"]["last_webhook"]
    assert (last["type"], last["outcome"]) == ("invoice.paid", "failed")
    assert report["retention"]["last_outcome"] == "done"
    assert report["retention"]["last_run_at"] is not None
    backup = report["backup"]
    assert (backup["ok"], backup["size"], backup["backend"]) == (True, 123456, "postgres")
    assert report["attention"] == [
        "jobs wait longer than 0:15:00: mail.send",
        "billing: the last webhook event failed (invoice.paid)",
    ]

    with_database(database_url, settle)
    code, report = status(tmp_path, database_url, "--json")
    assert (code, report["attention"]) == (0, [])
    code, text = status(tmp_path, database_url)
    assert code == 0
    assert "3 waiting, 1 sent, 1 failed" in text
    assert "invoice.paid: processed" in text
    assert "123,456 bytes" in text
    assert "nothing needs attention" in text


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_status_says_when_no_runner_is_alive_and_a_migration_is_pending(
    tmp_path: Path, database_url: str
) -> None:
    async def dead_runner_and_a_migration_undone() -> tuple[str, str]:
        await operations.JobRunnerBeat.create(
            worker_id="gone:1:1",
            host="gone",
            pid=1,
            role="serve",
            started_at=NOW - timedelta(days=1),
            seen_at=datetime.now(UTC) - operations.ALIVE_WITHIN - timedelta(seconds=5),
        )
        recorder = MigrationRecorder(connections.get("default"))
        key = max(await recorder.applied_migrations(), key=lambda applied: applied.name)
        await recorder.record_unapplied(key.app_label, key.name)
        return key.app_label, key.name

    last = with_database(database_url, dead_runner_and_a_migration_undone)
    try:
        code, report = status(tmp_path, database_url, "--json")
    finally:

        async def redo() -> None:
            await MigrationRecorder(connections.get("default")).record_applied(*last)

        with_database(database_url, redo)  # the PostgreSQL database serves the next tests
    assert code == 1
    assert report["runners"] == {"alive": 0, "list": []}
    assert report["migrations"]["pending"] == [".".join(last)]
    assert report["attention"] == [
        "1 migration(s) pending: run `agency db upgrade`",
        "no job runner is alive (no `agency serve` running jobs, no worker)",
    ]


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_status_when_the_database_does_not_answer(tmp_path: Path) -> None:
    url = "postgres://agency:hunter2-secret@127.0.0.1:9/agency"  # the discard port: refused
    code, report = status(tmp_path, url, "--json")
    assert code == 1
    assert report["database"] == {
        "url": "postgres://agency@127.0.0.1:9/agency",
        "backend": "postgres",
        "reachable": False,
        "error": "ConnectionRefusedError",
    }
    assert report["attention"] == ["the database does not answer (ConnectionRefusedError)"]
    code, text = status(tmp_path, url)
    assert "hunter2" not in text
    assert "does not answer" in text


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_a_backup_run_is_recorded_and_shown(tmp_path: Path) -> None:
    database = f"sqlite://{tmp_path / 'data' / 'agency.db'}"
    assert run_agency(tmp_path, "db", "upgrade", **env(tmp_path, database)).returncode == 0
    target = tmp_path / "copy.db"
    done = run_agency(tmp_path, "db", "backup", str(target), **env(tmp_path, database))
    assert done.returncode == 0, done.stderr
    _, report = status(tmp_path, database, "--json")
    assert report["backup"]["ok"] is True
    assert report["backup"]["size"] == target.stat().st_size
    again = run_agency(tmp_path, "db", "backup", str(target), **env(tmp_path, database))
    assert again.returncode == 1  # the file exists
    _, report = status(tmp_path, database, "--json")
    assert (report["backup"]["ok"], report["backup"]["size"]) == (False, None)
    assert "the last backup failed" in report["attention"]
    assert str(target) not in json.dumps(report)


passwords = st.text(alphabet=st.characters(codec="ascii", exclude_characters="@/?#[]"), min_size=1)


@given(
    user=st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True),
    password=passwords,
    host=st.from_regex(r"[a-z][a-z0-9.-]{0,20}", fullmatch=True),
    port=st.none() | st.integers(1, 65535),
    query=st.sampled_from(["", "?sslmode=require", "?password=x"]),
)
def test_a_database_url_is_shown_without_its_password(
    user: str, password: str, host: str, port: int | None, query: str
) -> None:
    from urllib.parse import quote

    netloc = f"{user}:{quote(password, safe='')}@{host}" + (f":{port}" if port else "")
    shown = safe_url(f"postgres://{netloc}/agency{query}")
    assert shown == f"postgres://{user}@{host}" + (f":{port}" if port else "") + "/agency"
