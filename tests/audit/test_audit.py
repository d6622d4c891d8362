"""The audit log on SQLite and PostgreSQL: every admin action, done through its real route or
command, is recorded with who, when, what, before and after, in the same transaction as the
change; `GET /api/admin/audit` filters and pages it (newest first, keyset); `agency audit
list` prints it; retention deletes entries after `retention_audit_days`."""

from __future__ import annotations

import asyncio
import json
import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from typer.testing import CliRunner

from agency.cli import app as cli_app
from agency.core import db, retention
from agency.modules.audit import service as audit_service
from agency.modules.audit.api import Actor, record
from agency.modules.audit.models import AuditEntry
from agency.modules.audit.schemas import (
    LIMIT_MAX,
    MSG_BEFORE_ID,
    MSG_LIMIT,
    MSG_SINCE,
    MSG_UNTIL,
    AuditQuery,
)
from agency.modules.auth.models import User
from agency.modules.blog import api as blog_api
from agency.modules.blog.schemas import ArticleIn
from agency.modules.contracts.models import Withdrawal
from agency.modules.sites.models import Website
from agency.modules.sites.service import websites
from agency.modules.support.models import SupportRequest
from agency.registry import MODULES
from agency.settings import Settings
from tests.conftest import MODEL_MODULES, make_settings
from tests.helpers.http import ADMIN_EMAIL, call, signed_up

AUDIT = "/api/admin/audit"


async def entries(client: Any, query: str = "") -> list[dict[str, Any]]:
    status, data = await call(client, "get", AUDIT + query)
    assert status == 200, data
    return list(data["entries"])


async def only(client: Any, action: str) -> dict[str, Any]:
    found = await entries(client, f"?action={action}")
    assert len(found) == 1, found
    return found[0]


# ---------------------------------------------------------------------------------------------
# Each admin action through its route


async def test_a_website_status_change_is_recorded_with_the_admin_before_and_after(
    app: Any, admin: Any
) -> None:
    owner = await signed_up(app, "owner@shop.example")
    site = await websites.create_website(owner.user_id, "shop.example")
    path = f"/api/admin/sites/{site.id}/status"
    status, data = await call(admin, "put", path, {"status": "live"})
    assert status == 200, data
    entry = await only(admin, "site.status_changed")
    assert entry["actor_id"] == admin.user_id
    assert entry["actor_email"] == entry["actor_label"] == ADMIN_EMAIL
    assert entry["action_label"] == "Website status changed"
    assert (entry["target_type"], entry["target_id"], entry["target_label"]) == (
        "site",
        str(site.id),
        "shop.example",
    )
    assert (entry["before"], entry["after"]) == ({"status": "building"}, {"status": "live"})
    at = datetime.fromisoformat(entry["at"])
    assert abs(at - datetime.now(UTC)) < timedelta(minutes=1)
    # The same status again changes nothing and records nothing.
    status, _ = await call(admin, "put", path, {"status": "live"})
    assert status == 200
    assert len(await entries(admin, "?action=site.status_changed")) == 1


async def test_the_change_and_its_record_share_one_transaction(
    app: Any, admin: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = await signed_up(app, "owner@shop.example")
    site = await websites.create_website(owner.user_id, "shop.example")

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("the audit table is gone")

    monkeypatch.setattr(audit_service.AuditEntry, "create", broken)
    status, _ = await call(admin, "put", f"/api/admin/sites/{site.id}/status", {"status": "paused"})
    assert status == 500
    assert (await Website.get(id=site.id)).status == "building"  # rolled back with it


async def test_support_replies_and_resolving_are_recorded(
    app: Any, admin: Any, customer: Any
) -> None:
    row = await SupportRequest.create(
        user_id=customer.user_id,
        name="Ada",
        email="ada@example.com",
        subject="The contact form",
        message="It does not send.",
    )
    status, data = await call(
        admin, "post", f"/api/admin/support/{row.id}/reply", {"body": "Fixed, thanks!"}
    )
    assert status == 200, data
    replied = await only(admin, "support.replied")
    assert replied["actor_email"] == ADMIN_EMAIL
    assert replied["target_type"] == "support_request"
    assert replied["target_label"] == f"#{row.id} The contact form"
    assert replied["before"] == {"status": "open"}
    assert replied["after"] == {"status": "answered", "reply_id": data["replies"][0]["id"]}

    status, _ = await call(admin, "post", f"/api/admin/support/{row.id}/resolve")
    assert status == 200
    resolved = await only(admin, "support.status_changed")
    assert (resolved["before"], resolved["after"]) == (
        {"status": "answered"},
        {"status": "resolved"},
    )
    status, _ = await call(admin, "post", f"/api/admin/support/{row.id}/resolve")
    assert status == 200
    assert len(await entries(admin, "?action=support.status_changed")) == 1  # nothing changed


async def test_article_publish_archive_and_back_to_draft_are_recorded(admin: Any) -> None:
    article = await blog_api.create_article(
        ArticleIn(title="Fast sites sell", content="Body"), created_by=admin.user_id
    )
    for step, action, before, after in (
        ("publish", "article.published", "draft", "published"),
        ("archive", "article.archived", "published", "archived"),
        ("draft", "article.back_to_draft", "archived", "draft"),
    ):
        status, data = await call(admin, "post", f"/api/admin/articles/{article.id}/{step}")
        assert status == 200, data
        entry = await only(admin, action)
        assert entry["target_type"] == "article" and entry["target_label"] == "Fast sites sell"
        assert (entry["before"], entry["after"]) == ({"status": before}, {"status": after})
    # A refused move (409) records nothing.
    status, _ = await call(admin, "post", f"/api/admin/articles/{article.id}/draft")
    assert status == 409
    assert len(await entries(admin, "?target_type=article")) == 3


async def test_a_withdrawal_marked_handled_is_recorded(admin: Any) -> None:
    row = await Withdrawal.create(
        order_id=1,
        user_id=5,
        email="buyer@example.com",
        order_number="A-1001",
        plan_name="Professional",
        ordered_at=datetime.now(UTC),
        deadline=date.today(),
    )
    path = f"/api/admin/contracts/withdrawals/{row.id}/handled"
    status, data = await call(admin, "post", path)
    assert status == 200, data
    entry = await only(admin, "contract.withdrawal_handled")
    assert entry["target_label"] == "Order A-1001"
    assert (entry["before"], entry["after"]) == ({"status": "received"}, {"status": "handled"})
    await call(admin, "post", path)  # again: harmless, not recorded again
    assert len(await entries(admin, "?action=contract.withdrawal_handled")) == 1


# ---------------------------------------------------------------------------------------------
# Filters and paging


async def many(count: int, **kwargs: Any) -> None:
    for n in range(count):
        await record(
            kwargs.get("actor", Actor(1, "boss@agency.example")),
            kwargs.get("action", "site.status_changed"),
            target_type="site",
            target_id=n,
            target_label=f"site-{n}.example",
            before={"status": "building"},
            after={"status": "live"},
        )


async def test_newest_first_in_pages_that_follow_next_before_id(admin: Any) -> None:
    await AuditEntry.all().delete()  # the admin fixture's own role change
    await many(5)
    status, first = await call(admin, "get", AUDIT + "?limit=2")
    assert status == 200
    assert [e["target_id"] for e in first["entries"]] == ["4", "3"]
    assert first["next_before_id"] == first["entries"][-1]["id"]
    _, second = await call(admin, "get", f"{AUDIT}?limit=2&before_id={first['next_before_id']}")
    assert [e["target_id"] for e in second["entries"]] == ["2", "1"]
    _, last = await call(admin, "get", f"{AUDIT}?limit=2&before_id={second['next_before_id']}")
    assert [e["target_id"] for e in last["entries"]] == ["0"]
    assert last["next_before_id"] is None
    _, exact = await call(admin, "get", AUDIT + "?limit=5")
    assert len(exact["entries"]) == 5 and exact["next_before_id"] is None
    keys = [a["key"] for a in first["actions"]]
    assert keys == list(audit_service.ACTIONS)
    assert first["actions"][0] == {"key": "catalogue.plan_updated", "label": "Plan changed"}


async def test_filters_by_action_actor_target_and_days(admin: Any) -> None:
    await AuditEntry.all().delete()
    await many(2)
    await many(1, actor=Actor.cli(), action="user.role_changed")
    await many(1, actor=Actor(2, "Grace@Agency.example"), action="article.published")
    old = await AuditEntry.get(target_id="1", action="site.status_changed")
    old.created_at = datetime(2026, 1, 15, 23, 59, tzinfo=UTC)
    await old.save(update_fields=["created_at"])

    assert len(await entries(admin, "?action=site.status_changed")) == 2
    cli = await entries(admin, "?actor=command+line")
    assert [e["actor_label"] for e in cli] == ["command line"]
    assert cli[0]["actor_id"] is None and cli[0]["actor_email"] is None
    assert [e["actor_email"] for e in await entries(admin, "?actor=grace@")] == [
        "Grace@Agency.example"
    ]
    assert len(await entries(admin, "?actor=AGENCY.EXAMPLE")) == 3
    assert await entries(admin, "?actor=%25") == []  # LIKE's wildcards are plain text
    assert await entries(admin, "?actor=grace_agency") == []
    by_target = await entries(admin, "?target_type=site&target_id=1")
    assert [(e["target_id"], e["action"]) for e in by_target] == [("1", "site.status_changed")]
    january = await entries(admin, "?since=2026-01-15&until=2026-01-15")
    assert [e["target_id"] for e in january] == ["1"]
    assert await entries(admin, "?since=2026-01-16&until=2026-01-31") == []
    assert len(await entries(admin, "?since=2026-01-16")) == 3
    assert [e["target_id"] for e in await entries(admin, "?until=2026-01-15")] == ["1"]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("?since=yesterday", "since", MSG_SINCE),
        ("?since=2026-02-30", "since", MSG_SINCE),
        ("?until=2026-1-5", "until", MSG_UNTIL),
        ("?since=2026-02-02&until=2026-02-01", "until", audit_service.MSG_RANGE),
        ("?limit=0", "limit", MSG_LIMIT),
        ("?limit=201", "limit", MSG_LIMIT),
        ("?limit=ten", "limit", MSG_LIMIT),
        ("?before_id=0", "before_id", MSG_BEFORE_ID),
        ("?before_id=99999999999", "before_id", MSG_BEFORE_ID),
        ("?action=site.deleted", "action", audit_service.MSG_ACTION),
        ("?actor=" + "a" * 255, "actor", None),
        ("?target_type=a%0Ab", "target_type", None),
    ],
)
async def test_bad_filters_answer_400_with_the_field(
    admin: Any, query: str, field: str, message: str | None
) -> None:
    status, data = await call(admin, "get", AUDIT + query)
    assert status == 400, data
    assert field in data["error"]["fields"]
    if message:
        assert data["error"]["message"] == message


# ---------------------------------------------------------------------------------------------
# Query parsing (hypothesis)


@given(st.text(max_size=12))
def test_since_is_a_day_or_a_clear_error(text: str) -> None:
    try:
        query = AuditQuery.model_validate({"since": text})
    except ValidationError as exc:
        assert MSG_SINCE in str(exc)
        return
    if text == "":
        assert query.since is None
    else:
        assert query.since is not None and query.since.isoformat() == text


@given(st.dates())
def test_every_day_reads_back(day: date) -> None:
    assert AuditQuery.model_validate({"since": day.isoformat()}).since == day
    assert AuditQuery.model_validate({"until": day.isoformat()}).until == day


@given(st.one_of(st.integers(), st.text(max_size=14)))
def test_limit_is_1_to_200_in_plain_digits(value: int | str) -> None:
    try:
        query = AuditQuery.model_validate(
            {"limit": value if isinstance(value, str) else str(value)}
        )
    except ValidationError as exc:
        assert MSG_LIMIT in str(exc)
        return
    text = str(value).strip()
    if text == "":
        assert query.limit == 50
    else:
        assert text.isdigit() and 1 <= query.limit <= LIMIT_MAX and query.limit == int(text)


# ---------------------------------------------------------------------------------------------
# Retention


async def test_retention_deletes_entries_after_the_setting(
    app: Any, admin: Any, app_settings: Settings
) -> None:
    await AuditEntry.all().delete()
    await many(2)
    now = datetime.now(UTC)
    stale = await AuditEntry.get(target_id="0")
    stale.created_at = now - timedelta(days=1095, minutes=1)
    await stale.save(update_fields=["created_at"])
    settings = app_settings
    assert settings.retention_audit_days == 1095
    hooks = [m.retention for m in MODULES if m.retention is not None]
    removed = await retention.prune(settings, hooks, now=now)
    assert removed["audit.entries"] == 1
    assert await AuditEntry.all().values_list("target_id", flat=True) == ["1"]
    shorter = settings.model_copy(update={"retention_audit_days": 1})
    assert (await audit_service.prune(shorter, now + timedelta(days=2)))["audit.entries"] == 1


def test_the_retention_period_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENCY_RETENTION_AUDIT_DAYS", "400")
    assert Settings().retention_audit_days == 400
    monkeypatch.delenv("AGENCY_RETENTION_AUDIT_DAYS")
    assert Settings().retention_audit_days == 1095


# ---------------------------------------------------------------------------------------------
# The command line: role changes, site status, articles, and `agency audit list`


def test_commands_are_recorded_as_the_command_line_and_listed(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in [k for k in os.environ if k.startswith("AGENCY_")]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    env = {
        "AGENCY_DATABASE_URL": database_url,
        "AGENCY_SECRET_KEY": "test-secret-key-" + "x" * 32,
        "COLUMNS": "200",
    }
    runner = CliRunner()

    def agency(*args: str, code: int = 0) -> str:
        result = runner.invoke(cli_app, list(args), env=env)
        assert result.exit_code == code, (args, result.output, result.exception)
        return result.output

    async def seed() -> None:
        await db.upgrade(database_url, MODEL_MODULES)
        await db.init_db(database_url, MODEL_MODULES)
        try:
            await User.create(email="grace@agency.example", password_hash="x", role="user")
            await websites.create_website(7, "shop.example")
            await blog_api.create_article(
                ArticleIn(title="Fast sites sell", slug="fast-sites", content="Body"),
                created_by=None,
            )
        finally:
            await db.close_db()

    asyncio.run(seed())
    agency("users", "set-role", "grace@agency.example", "admin")
    agency("users", "set-role", "grace@agency.example", "admin")  # no change: no entry
    agency("sites", "set-status", "shop.example", "live")
    agency("articles", "publish", "fast-sites")

    listed = json.loads(agency("audit", "list", "--json"))
    assert [e["action"] for e in listed] == [
        "article.published",
        "site.status_changed",
        "user.role_changed",
    ]
    assert {e["actor_label"] for e in listed} == {"command line"}
    role = listed[-1]
    assert role["target_label"] == "grace@agency.example"
    assert (role["before"], role["after"]) == ({"role": "user"}, {"role": "admin"})

    table = agency("audit", "list")
    assert "3 audit entries" in table
    assert "Website status changed" in table and "status: building -> live" in table
    assert "role: user -> admin" in table and "command line" in table
    one = json.loads(agency("audit", "list", "--action", "site.status_changed", "--json"))
    assert [e["target_label"] for e in one] == ["shop.example"]
    assert json.loads(agency("audit", "list", "--actor", "someone@else", "--json")) == []
    assert len(json.loads(agency("audit", "list", "--since", "2000-01-01", "--json"))) == 3
    limited = agency("audit", "list", "--limit", "1")
    assert "1 audit entry (more" in limited
    agency("audit", "list", "--action", "nothing.done", code=2)
    agency("audit", "list", "--since", "26/11/2026", code=2)
    agency("audit", "list", "--limit", "0", code=2)


def test_the_settings_default_is_three_years(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, "sqlite://:memory:")
    assert settings.retention_audit_days == 1095
