"""What other modules may use of notifications: `notify` a user, and the kinds."""

from agency.modules.notifications.schemas import (
    KINDS,
    PAYMENT_FAILED,
    SCORE_DROPPED,
    SITE_LIVE,
    SUBSCRIPTION_CANCELLED,
    SUPPORT_ANSWERED,
)
from agency.modules.notifications.service import notify, unread_count

__all__ = [
    "KINDS",
    "PAYMENT_FAILED",
    "SCORE_DROPPED",
    "SITE_LIVE",
    "SUBSCRIPTION_CANCELLED",
    "SUPPORT_ANSWERED",
    "notify",
    "unread_count",
]
