"""The versioned texts an order is made under: the terms, and a consumer's consent to work
starting within the withdrawal period (§356(4) BGB). Each order stores the versions it was made
with, so a later change of wording never changes what a buyer agreed to.

webui/src/features/billing/order-terms.ts carries the same consent text and version (a test
holds them equal); a new wording takes a new version in both places."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

BuyerType = Literal["consumer", "business"]
CONSUMER: BuyerType = "consumer"
BUSINESS: BuyerType = "business"

TERMS_VERSION = "2026-11-26"
"""The version of the terms of service (/terms) orders are made under."""

WITHDRAWAL_DAYS = 14

EARLY_START_CONSENT_VERSION = "early-start-2026-11-26"
EARLY_START_CONSENT_TEXT = (
    "I want you to start the work before the 14-day withdrawal period ends. I know that I lose "
    "my right of withdrawal once you have fully performed the service."
)

# Every version's text, for the confirmation of an order made under an older one.
EARLY_START_CONSENT_TEXTS = {EARLY_START_CONSENT_VERSION: EARLY_START_CONSENT_TEXT}

MSG_CONSENT_OUTDATED = (
    "The wording of the early-start consent has changed. Please reload the page and tick the "
    "box again."
)


def work_starts_on(
    buyer_type: str, consent_at: datetime | None, ordered_at: datetime
) -> datetime | None:
    """When work may start: None for at once (a business, or a consumer who consented), else
    the end of the withdrawal period."""
    if buyer_type == BUSINESS or consent_at is not None:
        return None
    return ordered_at + timedelta(days=WITHDRAWAL_DAYS)
