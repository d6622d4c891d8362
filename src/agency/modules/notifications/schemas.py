"""Notification shapes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from agency.core.sql import INT_ID_MAX

# The kinds of notification (the notifications_notification.kind column holds up to 32).
SITE_LIVE = "site_live"
PAYMENT_FAILED = "payment_failed"
SUPPORT_ANSWERED = "support_answered"
SCORE_DROPPED = "score_dropped"
SUBSCRIPTION_CANCELLED = "subscription_cancelled"
KINDS = (SITE_LIVE, PAYMENT_FAILED, SUPPORT_ANSWERED, SCORE_DROPPED, SUBSCRIPTION_CANCELLED)

# A row id: positive and within a 32-bit integer column (a larger number is no row of ours).
NotificationId = Annotated[int, Field(ge=1, le=INT_ID_MAX)]
READ_IDS_MAX = 500


class NotificationOut(BaseModel):
    id: int
    kind: str
    title: str
    body: str
    link: str | None
    created_at: datetime
    read: bool


class NotificationList(BaseModel):
    notifications: list[NotificationOut]
    unread: int


class NotificationsReadIn(BaseModel):
    """Mark these of the user's notifications read; without `ids`, all of them."""

    ids: list[NotificationId] | None = Field(default=None, max_length=READ_IDS_MAX)


class ReadOut(BaseModel):
    unread: int
