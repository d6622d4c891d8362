"""Retention of Stripe's webhook events: kept `retention_webhook_events_days` after they arrived
(180 by default, for `agency stripe replay` and audit), then deleted. Orders, subscriptions and
customers are accounting records and are not deleted here."""

from __future__ import annotations

from datetime import datetime, timedelta

from agency.modules.billing.models import WebhookEvent
from agency.modules.billing.settings import BillingSettings


async def prune(settings: BillingSettings, now: datetime) -> dict[str, int]:
    cutoff = now - timedelta(days=settings.retention_webhook_events_days)
    return {"billing.webhook_events": await WebhookEvent.filter(received_at__lt=cutoff).delete()}
