"""The notifications module's settings keys."""

from __future__ import annotations

from pydantic import Field

from agency.core.settings import Settings


class NotificationsSettings(Settings):
    """The kernel's keys and the notifications module's."""

    retention_notifications_days: int = Field(
        default=180,
        ge=0,
        le=36500,
        description="Notifications already read, from when they were written (unread ones are "
        "kept).",
    )
