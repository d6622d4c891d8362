"""Writing and reading the audit log."""

from __future__ import annotations

from typing import Any

from agency.modules.audit.models import AuditEntry
from agency.modules.audit.schemas import Actor

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
    "billing.refunded": "Payment refunded",
    "billing.subscription_canceled": "Subscription cancelled",
}


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
