"""Notification use cases: written by other modules through `api.notify`, read and marked read
by their user."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from agency.modules.notifications.models import BODY_MAX, LINK_MAX, TITLE_MAX, Notification
from agency.modules.notifications.schemas import KINDS, NotificationList, NotificationOut
from agency.modules.notifications.settings import NotificationsSettings

LIST_MAX = 50  # the panel shows the newest 50; `unread` counts them all
# The revision (`agency.core.web.revisions`, migration 0039) moved by any write to the
# notifications (added, read, deleted): the list and its unread count are drawn from them alone.
REVISION = "notifications"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


async def notify(
    user_id: int, *, kind: str, title: str, body: str = "", link: str | None = None
) -> None:
    """Add a notification for a user. `kind` is one of `KINDS`; `link` is a path of the web UI
    (it must start with one "/"); a long title or body is shortened, never refused."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind: {kind!r}")
    if link is not None and (
        not link.startswith("/") or link.startswith("//") or len(link) > LINK_MAX
    ):
        raise ValueError(f"a notification's link must be a path of the web UI: {link!r}")
    if user_id <= 0:
        return  # an erased account (anonymised rows carry user id 0)
    await Notification.create(
        user_id=user_id,
        kind=kind,
        title=_clip(" ".join(title.split()), TITLE_MAX) or kind,
        body=_clip(body.strip(), BODY_MAX),
        link=link,
    )


def _out(row: Notification) -> NotificationOut:
    return NotificationOut(
        id=row.id,
        kind=row.kind,
        title=row.title,
        body=row.body,
        link=row.link,
        created_at=row.created_at,
        read=row.read_at is not None,
    )


async def unread_count(user_id: int) -> int:
    return await Notification.filter(user_id=user_id, read_at=None).count()


async def list_notifications(user_id: int) -> NotificationList:
    """The user's newest notifications first, and how many of all of theirs are unread."""
    rows = await Notification.filter(user_id=user_id).order_by("-created_at", "-id").limit(LIST_MAX)
    return NotificationList(
        notifications=[_out(row) for row in rows], unread=await unread_count(user_id)
    )


async def mark_read(user_id: int, ids: list[int] | None) -> int:
    """Mark the user's notifications read (only those of `ids` when given; ids of other users'
    or unknown notifications are ignored); returns how many stay unread."""
    query = Notification.filter(user_id=user_id, read_at=None)
    if ids is not None:
        query = query.filter(id__in=ids) if ids else query.filter(id__in=[0])
    await query.update(read_at=datetime.now(UTC))
    return await unread_count(user_id)


async def export_user(user_id: int) -> Any:
    rows = await Notification.filter(user_id=user_id).order_by("-created_at", "-id")
    return [_out(row).model_dump(mode="json") for row in rows]


async def erase_user(user_id: int) -> None:
    await Notification.filter(user_id=user_id).delete()


async def prune(settings: NotificationsSettings, now: datetime) -> dict[str, int]:
    """Retention: notifications already read are deleted `retention_notifications_days` after
    they were written (180 by default); unread ones stay."""
    cutoff = now - timedelta(days=settings.retention_notifications_days)
    removed = await Notification.filter(read_at__not_isnull=True, created_at__lt=cutoff).delete()
    return {"notifications.read": removed}
