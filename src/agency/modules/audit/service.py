"""Writing and reading the audit log."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

from agency.core.errors import ValidationFailed
from agency.modules.audit.models import AuditEntry
from agency.modules.audit.schemas import (
    COMMAND_LINE,
    ActionOut,
    Actor,
    AuditEntryOut,
    AuditFilter,
    AuditPage,
    Change,
)
from agency.modules.audit.settings import AuditSettings

# action -> what it reads as on the audit page.
ACTIONS: dict[str, str] = {
    "catalogue.plan_updated": "Plan changed",
    "catalogue.price_changed": "Price changed",
    "catalogue.plan_hidden": "Plan hidden from sale",
    "catalogue.plan_shown": "Plan back on sale",
    "site.status_changed": "Website status changed",
    "support.replied": "Support reply sent",
    "support.status_changed": "Support request status changed",
    "article.published": "Article published",
    "article.archived": "Article archived",
    "article.back_to_draft": "Article back to draft",
    "user.role_changed": "User role changed",
    "contract.withdrawal_handled": "Withdrawal marked handled",
}

MSG_ACTION = "Unknown action: choose one of the log's actions."
MSG_RANGE = "'until' must not be before 'since'."


async def record(
    actor: Actor,
    action: str,
    *,
    target_type: str,
    target_id: str | int,
    target_label: str = "",
    before: Any = None,
    after: Any = None,
) -> None:
    """Write one entry. `action` must be a key of ACTIONS; `before`/`after` are JSON values
    (dicts of the fields that changed), None when there was nothing before or after."""
    if action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}")
    await AuditEntry.create(
        actor_id=actor.user_id,
        actor_email=(actor.email or None) and str(actor.email)[:254],
        action=action,
        target_type=target_type[:32],
        target_id=str(target_id)[:64],
        target_label=target_label[:200],
        before=before,
        after=after,
    )


def actor_label(entry: AuditEntry) -> str:
    """Who acted, as the page and the command show it."""
    if entry.actor_id is None and not entry.actor_email:
        return COMMAND_LINE
    return entry.actor_email or f"user {entry.actor_id}"


def entry_out(entry: AuditEntry) -> AuditEntryOut:
    return AuditEntryOut(
        id=entry.id,
        at=entry.created_at,
        actor_id=entry.actor_id,
        actor_email=entry.actor_email,
        actor_label=actor_label(entry),
        action=entry.action,
        action_label=ACTIONS.get(entry.action, entry.action),
        target_type=entry.target_type,
        target_id=entry.target_id,
        target_label=entry.target_label,
        before=entry.before,
        after=entry.after,
    )


def _start_of(day: Any) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


async def list_entries(filters: AuditFilter) -> AuditPage:
    """A page of entries, newest first (by entry number, which follows the time of recording),
    matching every filter given; `next_before_id` asks for the older ones after it."""
    if filters.action is not None and filters.action not in ACTIONS:
        raise ValidationFailed(MSG_ACTION, fields={"action": MSG_ACTION})
    if filters.since and filters.until and filters.until < filters.since:
        raise ValidationFailed(MSG_RANGE, fields={"until": MSG_RANGE})
    query = AuditEntry.all()
    if filters.action is not None:
        query = query.filter(action=filters.action)
    actor = (filters.actor or "").strip()
    if actor.lower() == COMMAND_LINE:
        query = query.filter(actor_id=None)
    elif actor:
        query = query.filter(actor_email__icontains=actor)
    if filters.target_type is not None:
        query = query.filter(target_type=filters.target_type)
    if filters.target_id is not None:
        query = query.filter(target_id=filters.target_id)
    if filters.since is not None:
        query = query.filter(created_at__gte=_start_of(filters.since))
    if filters.until is not None:
        query = query.filter(created_at__lt=_start_of(filters.until) + timedelta(days=1))
    if filters.before_id is not None:
        query = query.filter(id__lt=filters.before_id)
    rows = await query.order_by("-id").limit(filters.limit + 1)
    more = len(rows) > filters.limit
    rows = rows[: filters.limit]
    return AuditPage(
        entries=[entry_out(row) for row in rows],
        next_before_id=rows[-1].id if more and rows else None,
        actions=[ActionOut(key=key, label=label) for key, label in ACTIONS.items()],
    )


def changes(before: Any, after: Any) -> list[Change]:
    """The fields of an entry with their values before and after, in a stable order: the
    fields of `before` first, then those only in `after`. A value that is not an object is
    one field named `value`."""
    old = before if isinstance(before, dict) else ({} if before is None else {"value": before})
    new = after if isinstance(after, dict) else ({} if after is None else {"value": after})
    names = list(old) + [name for name in new if name not in old]
    return [Change(field=name, before=old.get(name), after=new.get(name)) for name in names]


async def prune(settings: AuditSettings, now: datetime) -> dict[str, int]:
    """Retention (core runs it hourly and in `agency db prune`): entries are deleted
    `retention_audit_days` after they were recorded (1095: three years)."""
    cutoff = now - timedelta(days=settings.retention_audit_days)
    return {"audit.entries": await AuditEntry.filter(created_at__lt=cutoff).delete()}
