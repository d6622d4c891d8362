"""Data kept only as long as needed: rows past their time go, younger ones stay (SQLite and
PostgreSQL), through the hourly schedule and `agency db prune`."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from agency.core import db, jobs, mail, operations, ratelimit, retention
from agency.core.web import job_runner
from agency.modules.auth.models import PasswordReset, Session, User
from agency.modules.billing.models import WebhookEvent
from agency.modules.leads.models import Lead
from agency.registry import MODULES
from agency.settings import Settings
from tests.conftest import MODEL_MODULES, make_settings, run_agency

NOW = datetime.now(UTC)
HOOKS = [m.retention for m in MODULES if m.retention is not None]


@pytest.fixture(autouse=True)
def now() -> None:
    """Each test's rows are aged from when it starts (the scheduled run uses the clock)."""
    global NOW
    NOW = datetime.now(UTC)


def ago(**delta: float) -> datetime:
    return NOW - timedelta(**delta)


async def job(status: str, updated: datetime) -> int:
    job_id = await jobs.enqueue("test.kind")
    # A queryset update writes the given time (auto_now applies to Model.save only).
    await jobs.Job.filter(id=job_id).update(status=status, updated_at=updated)
    return job_id


async def outbound(status: str, created: datetime, sent: datetime | None = None) -> int:
    row = await mail.OutboundMail.create(to="a@example.com", subject="s", text="t", status=status)
    await mail.OutboundMail.filter(id=row.id).update(created_at=created, sent_at=sent)
    return int(row.id)


async def counter(key: str, updated: datetime) -> None:
    await ratelimit.RateCounter.create(key=key, times="", updated_at=int(updated.timestamp()))


async def runner(worker_id: str, seen: datetime) -> None:
    await operations.JobRunnerBeat.create(
        worker_id=worker_id, host="h", pid=1, role="worker", started_at=seen, seen_at=seen
    )


async def session(user: User, key: str, expires: datetime) -> None:
    await Session.create(id=key, user=user, expires_at=expires)


async def reset(user: User, key: str, expires: datetime, used: datetime | None = None) -> None:
    await PasswordReset.create(user=user, token_hash=key, expires_at=expires, used_at=used)


async def event(key: str, received: datetime) -> None:
    await WebhookEvent.create(id=key, type="invoice.paid", created=0, status="done", payload={})
    await WebhookEvent.filter(id=key).update(received_at=received)


async def lead(email: str, created: datetime) -> None:
    row = await Lead.create(source="clinic-consultation", email=email)
    await Lead.filter(id=row.id).update(created_at=created)


async def fill() -> dict[str, Any]:
    """One row past its time and one just inside it, of every kind, at the default periods."""
    keep: dict[str, Any] = {
        "jobs": [await job(jobs.DONE, ago(days=13)), await job(jobs.FAILED, ago(days=29))],
        "mail": [
            await outbound(mail.SENT, ago(days=40), sent=ago(days=29)),
            await outbound(mail.OUTBOX, ago(days=29)),
        ],
    }
    keep["jobs"] += [await job(jobs.QUEUED, ago(days=60)), await job(jobs.RUNNING, ago(days=60))]
    await job(jobs.DONE, ago(days=15))
    await job(jobs.FAILED, ago(days=31))
    await outbound(mail.SENT, ago(days=31), sent=ago(days=31))
    await outbound(mail.OUTBOX, ago(days=31))
    await outbound(mail.QUEUED, ago(days=31))
    await counter("old", ago(days=2, hours=1))
    await counter("young", ago(days=1, hours=23))
    await runner("h:1:gone", ago(days=1, minutes=1))
    await runner("h:2:quiet", ago(hours=23))
    user = await User.create(email="kept@example.com", password_hash="x")
    await session(user, "expired", ago(minutes=1))
    await session(user, "live", ago(hours=-1))
    await reset(user, "used-old", expires=ago(hours=-1), used=ago(days=1, minutes=1))
    await reset(user, "expired-old", expires=ago(days=1, minutes=1))
    await reset(user, "used-young", expires=ago(days=-1), used=ago(hours=23))
    await reset(user, "expired-young", expires=ago(hours=23))
    await reset(user, "live", expires=ago(minutes=-30))
    await event("evt_old", ago(days=181))
    await event("evt_young", ago(days=179))
    await lead("old@example.com", ago(days=730, minutes=1))
    await lead("young@example.com", ago(days=729, hours=23))
    return keep


async def assert_only_young_rows_left(keep: dict[str, Any]) -> None:
    assert sorted(await jobs.Job.all().values_list("id", flat=True)) == sorted(keep["jobs"])
    assert sorted(await mail.OutboundMail.all().values_list("id", flat=True)) == sorted(
        keep["mail"]
    )
    assert await ratelimit.RateCounter.all().values_list("key", flat=True) == ["young"]
    assert await operations.JobRunnerBeat.all().values_list("worker_id", flat=True) == ["h:2:quiet"]
    assert await Session.all().values_list("id", flat=True) == ["live"]
    assert sorted(await PasswordReset.all().values_list("token_hash", flat=True)) == [
        "expired-young",
        "live",
        "used-young",
    ]
    assert await WebhookEvent.all().values_list("id", flat=True) == ["evt_young"]
    assert await Lead.all().values_list("email", flat=True) == ["young@example.com"]
    assert await User.filter(email="kept@example.com").exists()  # accounts are not retention data


EXPECTED = {
    "jobs.done": 1,
    "jobs.failed": 1,
    "mail.sent": 1,
    "mail.failed": 2,
    "ratelimit.counters": 1,
    "jobs.runners": 1,
    "auth.sessions": 1,
    "auth.password_resets": 2,
    "billing.webhook_events": 1,
    "insights.leads": 1,
    "leads.newsletter_consents": 0,  # tests/leads/test_newsletter_consent_records.py checks it
    "insights.speed_test_emails": 0,  # tests/speedtest/test_speedtests.py fills and checks it
    "insights.analyses": 0,  # tests/analysis/test_analyses.py fills and checks it
    "notifications.read": 0,  # tests/notifications/ fills and checks it
    "seo.generations": 0,  # tests/seo/ fills and checks it
    "audit.entries": 0,  # tests/audit/ fills and checks it
}


async def test_rows_past_their_time_go_and_younger_ones_stay(orm: str, tmp_path: Path) -> None:
    keep = await fill()
    removed = await retention.prune(make_settings(tmp_path, orm), HOOKS, now=NOW)
    assert removed == EXPECTED
    await assert_only_young_rows_left(keep)
    assert set((await retention.prune(make_settings(tmp_path, orm), HOOKS, now=NOW)).values()) == {
        0
    }


async def test_periods_are_settings(orm: str, tmp_path: Path) -> None:
    await job(jobs.DONE, ago(days=3))
    await event("evt_recent", ago(days=8))
    await counter("recent", ago(days=1, hours=23))
    await lead("last-month@example.com", ago(days=31))
    await lead("this-month@example.com", ago(days=29))
    settings = make_settings(
        tmp_path,
        orm,
        retention_jobs_done_days=2,
        retention_webhook_events_days=7,
        retention_rate_limits_days=1,
        retention_leads_days=30,
    )
    removed = await retention.prune(settings, HOOKS, now=NOW)
    assert removed["jobs.done"] == 1
    assert removed["billing.webhook_events"] == 1
    assert removed["ratelimit.counters"] == 1
    assert removed["insights.leads"] == 1
    assert await Lead.all().values_list("email", flat=True) == ["this-month@example.com"]


def test_retention_settings_come_from_the_environment(monkeypatch: Any) -> None:
    monkeypatch.setenv("AGENCY_RETENTION_WEBHOOK_EVENTS_DAYS", "365")
    monkeypatch.setenv("AGENCY_RETENTION_LEADS_DAYS", "365")
    assert Settings().retention_webhook_events_days == 365
    assert Settings().retention_leads_days == 365
    assert Settings().retention_jobs_done_days == 14
    monkeypatch.delenv("AGENCY_RETENTION_LEADS_DAYS")
    assert Settings().retention_leads_days == 730  # 24 months, as the privacy page says


async def test_the_server_schedules_retention_hourly_and_runs_it(
    database_url: str, tmp_path: Path
) -> None:
    app = create_app(make_settings(tmp_path, database_url))
    async with app.test_app():
        runner: jobs.JobRunner = job_runner(app)
        assert runner.schedules[retention.JOB_KIND] == timedelta(hours=1)
        keep = await fill()
        # Other modules schedule work of their own (sites.monitor): only retention's is read here.
        schedules = {retention.JOB_KIND: runner.schedules[retention.JOB_KIND]}
        assert await jobs.schedule_due(schedules) == [retention.JOB_KIND]
        keep["jobs"] += await jobs.Job.filter(kind=retention.JOB_KIND).values_list("id", flat=True)
        assert await runner.drain() == 1
        assert await jobs.schedule_due(schedules) == []  # not due for another hour
        await assert_only_young_rows_left(keep)


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_agency_db_prune_deletes_at_once_and_prints_what_per_kind(tmp_path: Path) -> None:
    assert run_agency(tmp_path, "db", "upgrade").returncode == 0
    url = f"sqlite://{tmp_path / 'data' / 'agency.db'}"

    async def seed() -> None:
        await db.init_db(url, MODEL_MODULES)
        try:
            await fill()
        finally:
            await db.close_db()

    asyncio.run(seed())
    result = run_agency(tmp_path, "db", "prune")
    assert result.returncode == 0, result.stderr
    assert f"{sum(EXPECTED.values())} row(s) deleted" in result.stdout
    rows = {line.split()[1]: line.split()[3] for line in result.stdout.splitlines() if "│" in line}
    assert rows == {kind: str(count) for kind, count in EXPECTED.items()}


def test_the_configuration_reference_and_the_privacy_page_state_the_default_periods() -> None:
    from agency.core.paths import config_dir

    defaults = {
        name: field.default
        for name, field in Settings.model_fields.items()
        if name.startswith("retention_")
    }
    reference = (Path(__file__).parents[2] / "docs" / "configuration.md").read_text()
    for name, default in defaults.items():
        row = [line for line in reference.splitlines() if f"| `AGENCY_{name.upper()}` |" in line]
        assert len(row) == 1 and f"| `{default}` |" in row[0], name
    privacy = (config_dir() / "pages" / "privacy.md").read_text()
    words = {1: "one day", 2: "two days"}
    phrases = {
        "retention_jobs_done_days": "{} days after they finished",
        "retention_jobs_failed_days": "{} days if they failed",
        "retention_mail_sent_days": "{} days after sending",
        "retention_mail_failed_days": "{} days after they were written",
        "retention_password_resets_days": "{} after the link was used or expired",
        "retention_rate_limits_days": "{} after your last attempt",
        "retention_webhook_events_days": "{} days after they arrived",
        "retention_leads_days": "{} days) after they were sent",
        "retention_notifications_days": "{} days after they were written, once you have read them",
        "retention_audit_days": "{} days after the change",
    }
    # The article manager's generations hold what admins typed (topics, ideas), nothing of a
    # visitor's or customer's: docs/configuration.md states their period, the privacy page need not.
    assert set(phrases) == set(defaults) - {
        "retention_sessions_days",
        "retention_ai_generations_days",
    }
    for name, phrase in phrases.items():
        default = defaults[name]
        amount = words[default] if "{} days" not in phrase and default in words else default
        assert phrase.format(amount) in privacy, name
    assert defaults["retention_sessions_days"] == 0  # the page: deleted when they expire
    assert "otherwise when they expire" in privacy
    months = defaults["retention_leads_days"] * 12 / 365
    assert months == int(months)  # the page says it in months too
    assert f"{int(months)} months ({defaults['retention_leads_days']} days)" in privacy
