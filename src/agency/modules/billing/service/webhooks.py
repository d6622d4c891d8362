"""Stripe's events: the only truth about payments. Received once, replayed on request.

The rules (../shared/design/security-and-apis.md A1): the signature is checked on the raw body
(by the gateway, before an event gets here); each event is stored with its id unique and applied
in the same transaction as its effects, so a duplicate delivery, even a concurrent one, is a
no-op; subscription state is re-fetched from Stripe, so events in any order converge; our own
failure answers 5xx so Stripe retries, and the event is kept as failed for
`agency stripe replay --failed`. An event about something we do not know (an object Stripe has
not got, a checkout made outside the program, a customer of no user of ours) is kept as ignored,
with the reason, and answered 200: retrying it would never change the answer.

An event whose signature is good but whose shape is not Stripe's (no `data.object`, an object
that is a list, `created` as text, an id that is no Stripe id...) is refused before anything is
read or stored: 400 with the reason, and a warning in the log. Nothing is recorded, so a later
delivery of the genuine event with the same id still applies.
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
from datetime import UTC, datetime
from typing import Any, Literal

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from agency.core import metrics
from agency.core.errors import ValidationFailed
from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.models import WebhookEvent
from agency.modules.billing.service import effects

PROCESSED, FAILED, IGNORED = "processed", "failed", "ignored"
log = logging.getLogger(__name__)

# Stripe's ids are letters, digits and underscores (evt_1Nx..., cs_test_a1..., sub_...); the
# limits are the columns' (billing_webhook_event.id, .type) and a BIGINT's.
STRIPE_ID = re.compile(r"[A-Za-z0-9_]{1,255}", re.ASCII)
MAX_TYPE_LENGTH = 100
MAX_CREATED = 2**63 - 1
# Stripe's events nest a few levels (data.object.items.data[].price.recurring); far deeper is
# not Stripe's, and would only cost stack when stored.
MAX_DEPTH = 32
UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")
MSG_MALFORMED = "The event is not a Stripe event: {reason}."


class MalformedEvent(ValidationFailed):
    """A signed event that is not shaped like Stripe's: answered 400, recorded nowhere."""

    code = "malformed_event"


def check_event(event: object) -> dict[str, Any]:
    """The event, if it is shaped as Stripe sends them and as the handlers read them; else
    MalformedEvent saying what is wrong. The one check before anything reads or stores it."""
    if not isinstance(event, dict):
        raise _malformed("it is not a JSON object")
    if not isinstance(event.get("id"), str) or not STRIPE_ID.fullmatch(event["id"]):
        raise _malformed("its id is not a Stripe id")
    kind = event.get("type")
    if not isinstance(kind, str) or not 0 < len(kind) <= MAX_TYPE_LENGTH:
        raise _malformed(f"its type is not a text of 1 to {MAX_TYPE_LENGTH} characters")
    created = event.get("created")
    if type(created) is not int or not 0 <= created <= MAX_CREATED:
        raise _malformed("its created time is not a number of seconds")
    data = event.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("object"), dict):
        raise _malformed("it has no data.object")
    _check_values(event)
    _check_object(kind, data["object"])
    return event


def _malformed(reason: str) -> MalformedEvent:
    return MalformedEvent(MSG_MALFORMED.format(reason=reason))


def _check_values(event: dict[str, Any]) -> None:
    """Every value is one the database can store: not nested too deep, no NUL or lone surrogate
    in a text (PostgreSQL refuses both), no NaN or infinity (not JSON, refused by jsonb)."""
    pending: list[tuple[object, int]] = [(event, 0)]
    while pending:  # a loop, not recursion: the depth is what is being checked
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise _malformed(f"it is nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key)
                pending.append((item, depth + 1))
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            _check_text(value)
        elif isinstance(value, float) and not math.isfinite(value):
            raise _malformed("it holds a number that is not finite")


def _check_text(text: str) -> None:
    if UNSTORABLE.search(text):
        raise _malformed("it holds a NUL or an unpaired surrogate in a text")


def _check_object(kind: str, obj: dict[str, Any]) -> None:
    """What the handlers of `kind` read of data.object has the type they expect."""
    if kind in effects.HANDLED:
        # The object's own id: always a text, never an expanded object (every handler
        # re-fetches the object by it, or deletes by it).
        _check_reference(obj.get("id"), "data.object.id", optional=False, expandable=False)
    if kind in effects.TAX_ID_EVENTS or kind in effects.CREDIT_NOTE_EVENTS:
        _check_reference(obj.get("customer"), "data.object.customer")
    elif kind in effects.REFUND_EVENTS:
        _check_reference(obj.get("customer"), "data.object.customer")
        _check_reference(obj.get("payment_intent"), "data.object.payment_intent")
    elif kind in effects.INVOICE_EVENTS:
        _check_reference(obj.get("subscription"), "data.object.subscription")
        parent = obj.get("parent")
        if parent is not None and not isinstance(parent, dict):
            raise _malformed("data.object.parent is not an object")
        details = (parent or {}).get("subscription_details")
        if details is not None and not isinstance(details, dict):
            raise _malformed("data.object.parent.subscription_details is not an object")
        subscription = (details or {}).get("subscription")
        _check_reference(subscription, "data.object.parent.subscription_details.subscription")


def _check_reference(
    value: object, where: str, *, optional: bool = True, expandable: bool = True
) -> None:
    """A Stripe object given by id, or (if expandable) expanded: an object with that id; absent
    if optional."""
    if value is None and optional:
        return
    if expandable and isinstance(value, dict):
        value = value.get("id")
    if not isinstance(value, str) or not STRIPE_ID.fullmatch(value):
        raise _malformed(f"{where} is not a Stripe id")


async def receive_event(
    gateway: StripeGateway, event: dict[str, Any], *, small_business: bool = False
) -> str:
    """Apply a verified event once; returns processed, duplicate or ignored. A malformed event
    raises MalformedEvent (400) before anything is stored. `small_business`: the agency charges
    no VAT (§19 UStG), as its invoices then say."""
    try:
        check_event(event)
    except MalformedEvent as exc:
        fields = event if isinstance(event, dict) else {}
        log.warning(
            "stripe event refused: %s",
            exc.message,
            extra={
                "event_id": str(fields.get("id"))[:255],
                "event_type": str(fields.get("type"))[:MAX_TYPE_LENGTH],
            },
        )
        raise
    event_id = event["id"]
    existing = await WebhookEvent.get_or_none(id=event_id)
    if existing is not None and existing.status in (PROCESSED, IGNORED):
        return "duplicate"
    if event.get("type") not in effects.HANDLED:
        await _record(event, IGNORED, None)
        return IGNORED
    try:
        try:
            # Stripe calls, outside the transaction
            changes = await effects.prepare(gateway, event, small_business=small_business)
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


# What the metrics call each outcome (`agency_webhook_events_total{outcome}`).
_METRIC_OUTCOMES: dict[str, Literal["accepted", "duplicate", "ignored"]] = {
    PROCESSED: "accepted",
    "duplicate": "duplicate",
    IGNORED: "ignored",
}


async def receive_delivered(
    gateway: StripeGateway, event: dict[str, Any], *, small_business: bool = False
) -> str:
    """`receive_event` for an event Stripe delivered (the webhook), counted in the metrics by
    outcome: accepted, duplicate, ignored, or failed (malformed, or its effects failed)."""
    try:
        outcome = await receive_event(gateway, event, small_business=small_business)
    except Exception:
        metrics.webhook_event("failed")
        raise
    metrics.webhook_event(_METRIC_OUTCOMES.get(outcome, "accepted"))
    return outcome


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


async def replay(
    gateway: StripeGateway, *, failed_only: bool, ids: list[str], small_business: bool = False
) -> dict[str, str]:
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
            outcomes[stored.id] = await receive_event(
                gateway, stored.payload, small_business=small_business
            )
        except Exception as exc:
            outcomes[stored.id] = f"failed: {exc}"
    return outcomes
