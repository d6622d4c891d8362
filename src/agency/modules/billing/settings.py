"""The billing module's settings keys: payments (Stripe). Without a secret key, checkout answers
that payments are not set up."""

from __future__ import annotations

from pydantic import Field

from agency.core.settings import Settings


class BillingSettings(Settings):
    """The kernel's keys and the billing module's."""

    stripe_secret_key: str = Field(
        default="",
        description="Stripe secret key (server only). Empty: checkout answers 503 'Payments "
        "are not set up yet.'.",
    )
    stripe_webhook_secret: str = Field(
        default="",
        description="Signing secret of the webhook endpoint `/api/billing/webhook`.",
    )
    stripe_api_base: str = Field(
        default="",
        description="Another Stripe API address (the fake, for tests and demos); empty: Stripe's.",
    )
    retention_webhook_events_days: int = Field(
        default=180,
        ge=0,
        le=36500,
        description="Stripe webhook events, from their arrival (kept for replay and audit).",
    )
