"""Stripe's events: the only truth about payments. Received once, replayed on request.

The rules (../shared/design/security-and-apis.md A1): the signature is checked on the raw body
(by the gateway, before an event gets here); each event is stored with its id unique and applied
in the same transaction as its effects, so a duplicate delivery, even a concurrent one, is a
no-op; subscription state is re-fetched from Stripe, so events in any order converge; our own
failure answers 5xx so Stripe retries, and the event is kept as failed for
`agency stripe replay --failed`. An event about something we do not know (an object Stripe has
not got, a checkout made outside the program, a customer of no user of ours) is kept as ignored,
with the reason, and answered 200: retrying it would never change the answer.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.models import WebhookEvent
from agency.modules.billing.service import effects

PROCESSED, FAILED, IGNORED = "processed", "failed", "ignored"
log = logging.getLogger(__name__)


async def receive_event(gateway: StripeGateway, event: dict[str, Any]) -> str:
    """Apply a verified event once; returns processed, duplicate or ignored."""
    event_id = str(event["id"])
    existing = await WebhookEvent.get_or_none(id=event_id)
    if existing is not None and existing.status in (PROCESSED, IGNORED):
        return "duplicate"
    if event.get("type") not in effects.HANDLED:
        await _record(event, IGNORED, None)
        return IGNORED
    try:
        try:
            changes = await effects.prepare(gateway, event)  # Stripe calls, outside the transaction
        except effects.Ignored as reason:
            log.warning(
                "stripe event ignored: %s",
                reason,
                extra={"event_id": event_id, "event_type": event.get("type")},
            )
            await _record(event, IGNORED, str(reason))
            return IGNORED
        async with in_transaction():
            if existing is None:
                await WebhookEvent.create(
                    id=event_id,
                    type=event["type"],
                    created=int(event.get("created") or 0),
                    status=PROCESSED,
                    payload=event,
                    processed_at=datetime.now(UTC),
                )
            else:
                claimed = await WebhookEvent.filter(id=event_id, status=FAILED).update(
                    status=PROCESSED, error=None, processed_at=datetime.now(UTC)
                )
                if not claimed:
                    return "duplicate"
            await changes.apply()
    except IntegrityError:
        return "duplicate"  # the same event, delivered concurrently, won
    except Exception as exc:
        await _record(event, FAILED, f"{type(exc).__name__}: {exc}")
        raise
    return PROCESSED


async def _record(event: dict[str, Any], status: str, error: str | None) -> None:
    values = {
        "type": str(event.get("type")),
        "created": int(event.get("created") or 0),
        "status": status,
        "error": error,
        "payload": event,
    }
    with contextlib.suppress(IntegrityError):  # a concurrent delivery recorded it
        await WebhookEvent.update_or_create(defaults=values, id=str(event["id"]))


async def replay(gateway: StripeGateway, *, failed_only: bool, ids: list[str]) -> dict[str, str]:
    """Apply stored events again (failed ones, or the given ids); returns id -> outcome."""
    query = WebhookEvent.all().order_by("created", "received_at")
    if ids:
        query = query.filter(id__in=ids)
    elif failed_only:
        query = query.filter(status=FAILED)
    outcomes: dict[str, str] = {}
    for stored in await query:
        if stored.status != FAILED:
            await WebhookEvent.filter(id=stored.id).update(status=FAILED)  # allow re-applying
        try:
            outcomes[stored.id] = await receive_event(gateway, stored.payload)
        except Exception as exc:
            outcomes[stored.id] = f"failed: {exc}"
    return outcomes
