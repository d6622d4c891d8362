"""The signed-in user's notifications."""

from __future__ import annotations

from quart import Blueprint, Response
from quart_schema import document_response, validate_request, validate_response

from agency.core.web.answers import CachedAnswers
from agency.modules.auth.web import login_required, require_account
from agency.modules.notifications import service
from agency.modules.notifications.schemas import NotificationList, NotificationsReadIn, ReadOut

blueprint = Blueprint("notifications", __name__)


# Every dashboard page asks: each process remembers each user's list while no notification has
# been written since, through any process.
# The answer's JSON is what is kept (`core.web.answers`).
_lists = CachedAnswers("notifications.list", (service.REVISION,))


@blueprint.get("/api/notifications")
@login_required
@document_response(NotificationList, 200)
async def get_notifications() -> Response:
    """The signed-in user's notifications, newest first (at most 50), and how many are
    unread."""
    account = await require_account()
    return await _lists.respond(account.id, lambda: service.list_notifications(account.id))


@blueprint.post("/api/notifications/read")
@login_required
@validate_request(NotificationsReadIn)
@validate_response(ReadOut, 200)
async def post_notifications_read(data: NotificationsReadIn) -> ReadOut:
    """Mark the signed-in user's notifications read: those of `ids`, or all without `ids`.
    Ids that are not the user's are ignored. Answers how many stay unread."""
    account = await require_account()
    return ReadOut(unread=await service.mark_read(account.id, data.ids))
