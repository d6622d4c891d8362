"""Support use cases: a visitor or customer sends a request (stored, e-mailed to the agency); an
admin lists them, replies by e-mail (the customer is also notified) and marks them resolved."""

from __future__ import annotations

import logging
import statistics
from datetime import UTC, datetime
from typing import Any

from tortoise.functions import Min
from tortoise.transactions import in_transaction

from agency.core import mail, ratelimit
from agency.core.errors import NotFound, ValidationFailed
from agency.core.ratelimit import Limit
from agency.core.settings import Settings
from agency.core.sql import fits_int_id
from agency.core.text import valid_email
from agency.modules.audit import api as audit_api
from agency.modules.auth import api as auth_api
from agency.modules.notifications import api as notifications_api
from agency.modules.sites import api as sites_api
from agency.modules.support.models import (
    ANSWERED,
    OPEN,
    RESOLVED,
    STATUSES,
    SupportReply,
    SupportRequest,
)
from agency.modules.support.schemas import (
    AdminSupportRequestOut,
    ReplyOut,
    SupportFigures,
    SupportRequestOut,
)

log = logging.getLogger(__name__)

MSG_NAME = "Please enter your name"
MSG_EMAIL = "Please enter your email address"
MSG_EMAIL_INVALID = "Please enter a valid email address"
MSG_SUBJECT = "Please enter a subject"
MSG_MESSAGE = "Please enter a message"
MSG_WEBSITE = "Please choose one of your websites"
MSG_REPLY = "Please write a reply"
MSG_STATUS = "Status must be open, answered or resolved."
MSG_NOT_FOUND = "Support request not found."
THANKS = "Thank you! We received your request and will reply by email."

REQUESTS_PER_ADDRESS = Limit("support-ip", limit=5, window=60 * 60, per_address=True)
DASHBOARD_SUPPORT = "/dashboard/support"


async def submit_request(
    *,
    account: auth_api.Account | None,
    name: str,
    email: str,
    subject: str,
    message: str,
    website_id: int | None,
    honeypot: str,
    client_ip: str,
    settings: Settings,
) -> str:
    """Store a request and e-mail the agency; returns the confirmation the sender sees.

    A visitor gives a name and e-mail; a signed-in customer's come from the account, and
    `website_id` must be one of their own websites. Every missing field is named at once."""
    problems: dict[str, str] = {}
    if account is None:
        if not name.strip():
            problems["name"] = MSG_NAME
        if not email.strip():
            problems["email"] = MSG_EMAIL
        elif not valid_email(email.strip().lower()):
            problems["email"] = MSG_EMAIL_INVALID
        if website_id is not None:
            problems["website_id"] = MSG_WEBSITE
    if not subject.strip():
        problems["subject"] = MSG_SUBJECT
    if not message.strip():
        problems["message"] = MSG_MESSAGE
    domain: str | None = None
    if account is not None and website_id is not None:
        sites = {site.id: site.domain for site in await sites_api.list_websites(account.id)}
        domain = sites.get(website_id)
        if domain is None:
            problems["website_id"] = MSG_WEBSITE
    if problems:
        raise ValidationFailed(next(iter(problems.values())), fields=problems)
    if honeypot.strip():
        log.info("support form honeypot filled; dropped")
        return THANKS  # a bot is told it worked, and nothing is kept
    await ratelimit.enforce(REQUESTS_PER_ADDRESS, client_ip)
    if account is not None:
        name, email = account.full_name or account.email, account.email
    row = await SupportRequest.create(
        user_id=account.id if account is not None else None,
        name=" ".join(name.split()),
        email=email.strip().lower(),
        subject=" ".join(subject.split()),
        message=message.strip(),
        website_id=website_id if domain else None,
        website_domain=domain,
    )
    if settings.agency_email:
        await mail.send_mail(
            settings.agency_email,
            "support_request",
            {
                "id": row.id,
                "name": row.name,
                "email": row.email,
                "customer": "yes" if row.user_id else "no (a visitor)",
                "website": row.website_domain or "-",
                "subject": row.subject,
                "message": row.message,
                "link": _link(settings, "/dashboard/admin/support"),
            },
            reply_to=row.email,  # the agency's "Reply" answers the customer
        )
    return THANKS


async def _first_name(row: SupportRequest) -> str:
    """Whom the reply greets: the account's first name, else the first word of the name a
    visitor gave; empty (a plain "Hello,") when there is no name, only an e-mail address."""
    if row.user_id is not None:
        account = await auth_api.get_account(row.user_id)
        if account is not None:
            return " ".join(account.first_name.split())
    words = row.name.split()
    return words[0] if words and "@" not in words[0] else ""


def _link(settings: Settings, path: str) -> str:
    return f"{settings.base_url}{path}" if settings.base_url else ""


def _replies(row: SupportRequest) -> list[ReplyOut]:
    replies = sorted(row.replies, key=lambda reply: (reply.created_at, reply.id))
    return [ReplyOut(id=r.id, body=r.body, created_at=r.created_at) for r in replies]


def _out(row: SupportRequest) -> SupportRequestOut:
    return SupportRequestOut(
        id=row.id,
        subject=row.subject,
        message=row.message,
        status=row.status,
        website_id=row.website_id,
        website_domain=row.website_domain,
        created_at=row.created_at,
        replies=_replies(row),
    )


def _admin_out(row: SupportRequest) -> AdminSupportRequestOut:
    return AdminSupportRequestOut(
        **_out(row).model_dump(), user_id=row.user_id, name=row.name, email=row.email
    )


async def list_for_user(user_id: int) -> list[SupportRequestOut]:
    """The user's requests, newest first, with the agency's replies (oldest first)."""
    rows = (
        await SupportRequest.filter(user_id=user_id)
        .order_by("-created_at", "-id")
        .prefetch_related("replies")
    )
    return [_out(row) for row in rows]


async def list_all(status: str | None = None) -> list[AdminSupportRequestOut]:
    """Every request, newest first; only those of one status when given (admins)."""
    if status is not None and status not in STATUSES:
        raise ValidationFailed(MSG_STATUS, fields={"status": MSG_STATUS})
    query = SupportRequest.all()
    if status:
        query = query.filter(status=status)
    rows = await query.order_by("-created_at", "-id").prefetch_related("replies")
    return [_admin_out(row) for row in rows]


async def _get(request_id: int) -> SupportRequest:
    if not fits_int_id(request_id):
        raise NotFound(MSG_NOT_FOUND)
    row = await SupportRequest.get_or_none(id=request_id)
    if row is None:
        raise NotFound(MSG_NOT_FOUND)
    return row


def _audit_label(row: SupportRequest) -> str:
    return f"#{row.id} {row.subject}"


async def reply(
    request_id: int, *, actor: audit_api.Actor, body: str, settings: Settings
) -> AdminSupportRequestOut:
    """An admin's answer: stored, e-mailed to the requester, the request marked answered and
    the customer (when it came from an account) notified; written to the audit log by `actor`
    (the status before and after, and the reply's number) in the same transaction."""
    row = await _get(request_id)
    if not body.strip():
        raise ValidationFailed(MSG_REPLY, fields={"body": MSG_REPLY})
    before = row.status
    async with in_transaction():
        answer = await SupportReply.create(request=row, body=body.strip(), admin_id=actor.user_id)
        row.status = ANSWERED
        await row.save(update_fields=["status", "updated_at"])
        await audit_api.record(
            actor,
            "support.replied",
            target_type="support_request",
            target_id=row.id,
            target_label=_audit_label(row),
            before={"status": before},
            after={"status": ANSWERED, "reply_id": answer.id},
        )
        await mail.send_mail(
            row.email,
            "support_reply",
            {
                "name": await _first_name(row),
                "subject": row.subject,
                "reply": body.strip(),
                "message": row.message,
                "link": _link(settings, DASHBOARD_SUPPORT) if row.user_id else "",
            },
        )
        if row.user_id:
            await notifications_api.notify(
                row.user_id,
                kind=notifications_api.SUPPORT_ANSWERED,
                title=f"We answered: {row.subject}",
                body=body.strip(),
                link=DASHBOARD_SUPPORT,
            )
    await row.fetch_related("replies")
    return _admin_out(row)


async def resolve(request_id: int, *, actor: audit_api.Actor) -> AdminSupportRequestOut:
    """Mark a request resolved (again is harmless); a change is written to the audit log by
    `actor` in the same transaction."""
    row = await _get(request_id)
    if row.status != RESOLVED:
        async with in_transaction():
            won = await SupportRequest.filter(id=row.id, status=row.status).update(
                status=RESOLVED, updated_at=datetime.now(UTC)
            )
            if won:
                await audit_api.record(
                    actor,
                    "support.status_changed",
                    target_type="support_request",
                    target_id=row.id,
                    target_label=_audit_label(row),
                    before={"status": row.status},
                    after={"status": RESOLVED},
                )
        row = await _get(request_id)
    await row.fetch_related("replies")
    return _admin_out(row)


async def _rows_of(user_id: int) -> list[SupportRequest]:
    account = await auth_api.get_account(user_id)
    rows = await SupportRequest.filter(user_id=user_id).prefetch_related("replies")
    if account is not None:  # what they sent as a visitor with the same address
        rows += await SupportRequest.filter(user_id=None, email=account.email).prefetch_related(
            "replies"
        )
    return sorted(rows, key=lambda row: (row.created_at, row.id), reverse=True)


async def export_user(user_id: int) -> Any:
    return [_out(row).model_dump(mode="json") for row in await _rows_of(user_id)]


async def erase_user(user_id: int) -> None:
    ids = [row.id for row in await _rows_of(user_id)]
    if ids:
        await SupportRequest.filter(id__in=ids).delete()


# ---------------------------------------------------------------------------------------------
# The owner's overview


async def open_requests() -> int:
    """Requests waiting for the agency's reply now (status open)."""
    return await SupportRequest.filter(status=OPEN).count()


async def figures(start: datetime, end: datetime) -> SupportFigures:
    """Requests open now, and those first answered in [start, end) with the median time from
    the request to its first reply (two queries; one row per request answered in the period)."""
    answered = (
        await SupportRequest.annotate(first_reply=Min("replies__created_at"))
        .filter(first_reply__gte=start, first_reply__lt=end)
        .values_list("created_at", "first_reply")
    )
    hours = [
        max(0.0, (_aware(first) - _aware(created)).total_seconds() / 3600)
        for created, first in answered
    ]
    return SupportFigures(
        open=await open_requests(),
        answered=len(hours),
        median_first_reply_hours=round(statistics.median(hours), 1) if hours else None,
    )


def _aware(value: Any) -> datetime:
    """An aggregate's time: SQLite hands MIN(...) back as text, PostgreSQL as a datetime."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
