"""The leads' figures for the owner's overview: leads per source and newsletter opt-ins in a
period, each one aggregate query."""

from __future__ import annotations

from datetime import datetime

from tortoise.functions import Count

from agency.modules.leads.models import Lead, NewsletterConsent
from agency.modules.leads.service.consents import SUBSCRIBED


async def leads_by_source(start: datetime, end: datetime) -> dict[str, int]:
    """How many leads each source (form or page: `free-preview`, `speed-test`, ...) brought in
    [start, end); sources without any are left out."""
    rows = (
        await Lead.filter(created_at__gte=start, created_at__lt=end)
        .annotate(n=Count("id"))
        .group_by("source")
        .values_list("source", "n")
    )
    return {str(source): int(n) for source, n in rows}


async def newsletter_subscriptions(start: datetime, end: datetime) -> int:
    """Ticked opt-in boxes in [start, end) that Kit accepted (outcome `subscribed`)."""
    return await NewsletterConsent.filter(
        created_at__gte=start, created_at__lt=end, outcome=SUBSCRIBED
    ).count()
