"""Notifications: written through `api.notify`, read and marked read by their user only,
exported and erased with the account, read ones deleted by retention."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core import retention
from agency.modules.notifications import api, service
from agency.modules.notifications.models import TITLE_MAX, Notification
from agency.settings import Settings
from tests.helpers.http import call, log_in, sign_up


async def _user(client: Any, email: str) -> int:
    status, data = await sign_up(client, email)
    assert status == 201, data
    return int(data["user"]["id"])


async def test_the_list_is_newest_first_with_the_unread_count(client: Any) -> None:
    user_id = await _user(client, "ada@example.com")
    status, data = await call(client, "get", "/api/notifications")
    assert (status, data) == (200, {"notifications": [], "unread": 0})
    await api.notify(user_id, kind=api.SITE_LIVE, title="ada-shop.com is live", link="/dashboard")
    await api.notify(user_id, kind=api.SUPPORT_ANSWERED, title="We answered", body="Line 1\nLine 2")
    status, data = await call(client, "get", "/api/notifications")
    assert status == 200
    assert data["unread"] == 2
    assert [
        (n["kind"], n["title"], n["body"], n["link"], n["read"]) for n in data["notifications"]
    ] == [
        ("support_answered", "We answered", "Line 1\nLine 2", None, False),
        ("site_live", "ada-shop.com is live", "", "/dashboard", False),
    ]


async def test_marking_read_some_then_all(client: Any) -> None:
    user_id = await _user(client, "ada@example.com")
    for n in range(3):
        await api.notify(user_id, kind=api.PAYMENT_FAILED, title=f"Payment {n}")
    _, data = await call(client, "get", "/api/notifications")
    first = data["notifications"][0]["id"]
    assert await call(client, "post", "/api/notifications/read", {"ids": [first]}) == (
        200,
        {"unread": 2},
    )
    _, data = await call(client, "get", "/api/notifications")
    assert [n["read"] for n in data["notifications"]] == [True, False, False]
    assert await call(client, "post", "/api/notifications/read", {"ids": []}) == (
        200,
        {"unread": 2},
    )
    assert await call(client, "post", "/api/notifications/read", {}) == (200, {"unread": 0})
    assert await api.unread_count(user_id) == 0


async def test_a_second_customer_cannot_read_or_mark_the_first_ones(client: Any) -> None:
    ada = await _user(client, "ada@example.com")
    await api.notify(ada, kind=api.SITE_LIVE, title="Ada's site is live")
    grace = await _user(client, "grace@example.com")  # signed in as Grace now
    await api.notify(grace, kind=api.SCORE_DROPPED, title="Grace's score dropped")
    _, data = await call(client, "get", "/api/notifications")
    assert [n["title"] for n in data["notifications"]] == ["Grace's score dropped"]
    ada_row = await Notification.get(user_id=ada)
    # Ada's id is ignored, and marking "all" touches only Grace's.
    assert await call(client, "post", "/api/notifications/read", {"ids": [ada_row.id]}) == (
        200,
        {"unread": 1},
    )
    await call(client, "post", "/api/notifications/read", {})
    assert await api.unread_count(ada) == 1
    await log_in(client, "ada@example.com")
    _, data = await call(client, "get", "/api/notifications")
    assert [(n["title"], n["read"]) for n in data["notifications"]] == [
        ("Ada's site is live", False)
    ]


async def test_notifications_need_a_session(client: Any) -> None:
    assert (await call(client, "get", "/api/notifications"))[0] == 401
    assert (await call(client, "post", "/api/notifications/read", {}))[0] == 401


@pytest.mark.parametrize(
    "body",
    [
        {"ids": [0]},
        {"ids": [-1]},
        {"ids": [2**31]},
        {"ids": ["x"]},
        {"ids": list(range(1, 502))},
        {"ids": 5},
    ],
)
async def test_bad_ids_answer_400(client: Any, body: Any) -> None:
    await _user(client, "ada@example.com")
    status, data = await call(client, "post", "/api/notifications/read", body)
    assert status == 400, data


async def test_notify_refuses_unknown_kinds_and_links_outside_the_web_ui(orm: str) -> None:
    with pytest.raises(ValueError, match="kind"):
        await api.notify(1, kind="party", title="x")
    for link in ["https://evil.example", "//evil.example", "javascript:alert(1)", "/" * 501]:
        with pytest.raises(ValueError, match="link"):
            await api.notify(1, kind=api.SITE_LIVE, title="x", link=link)
    await api.notify(0, kind=api.SITE_LIVE, title="an erased account's")  # nobody: dropped
    assert await Notification.all().count() == 0


async def test_long_titles_are_shortened_not_refused(orm: str) -> None:
    await api.notify(1, kind=api.SITE_LIVE, title="x" * 500, body="y" * 5000)
    row = await Notification.get(user_id=1)
    assert len(row.title) == TITLE_MAX and row.title.endswith("…")
    assert len(row.body) <= 2000


async def test_export_and_erase_with_the_account(client: Any) -> None:
    user_id = await _user(client, "ada@example.com")
    await api.notify(user_id, kind=api.SITE_LIVE, title="Live")
    _, export = await call(client, "get", "/api/account/export")
    assert [n["title"] for n in export["notifications"]] == ["Live"]
    await call(client, "post", "/api/account/delete", {"current_password": "correct horse"})
    assert await Notification.filter(user_id=user_id).count() == 0


async def test_retention_deletes_read_ones_after_their_time(orm: str, tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path, retention_notifications_days=180)
    now = datetime.now(UTC)
    old = now - timedelta(days=181)
    await api.notify(1, kind=api.SITE_LIVE, title="old read")
    await api.notify(1, kind=api.SITE_LIVE, title="old unread")
    await api.notify(1, kind=api.SITE_LIVE, title="new read")
    await Notification.filter(title__startswith="old").update(created_at=old)
    await Notification.filter(title__endswith=" read").update(read_at=now)
    removed = await retention.prune(settings, [service.prune], now)
    assert removed["notifications.read"] == 1
    assert sorted(await Notification.all().values_list("title", flat=True)) == [
        "new read",
        "old unread",
    ]


@given(title=st.text(max_size=400), body=st.text(max_size=3000))
def test_clip_keeps_within_the_columns(title: str, body: str) -> None:
    clipped = service._clip(" ".join(title.split()), TITLE_MAX)
    assert len(clipped) <= TITLE_MAX
    if len(title) <= TITLE_MAX:
        assert clipped == " ".join(title.split())
    assert len(service._clip(body, 2000)) <= 2000
