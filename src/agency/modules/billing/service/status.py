"""What `agency status` shows of billing: the last Stripe webhook event received (when, its
type, how it ended), never its payload."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agency.modules.billing.models import WebhookEvent
from agency.modules.billing.settings import BillingSettings


async def status(_settings: BillingSettings) -> Mapping[str, Any]:
    event = await WebhookEvent.all().order_by("-received_at").first()
    if event is None:
        return {"last_webhook": None}
    return {
        "last_webhook": {
            "received_at": event.received_at.isoformat(),
            "type": event.type,
            # processed, ignored or failed (a failed one is applied again when Stripe resends)
            "outcome": event.status,
        }
    }
