"""The newsletter consents: every ticked opt-in box that reached the server is recorded (the
e-mail, the form, the version of the box's wording, the time and what Kit made of it), so the
agency can demonstrate the consent (GDPR Art. 7(1)). A record is written whatever Kit answers.

The box's wording lives here and in webui/src/components/ui/newsletter-consent.ts (tests keep
them equal, and the box renders that text); a new wording takes a new version in both places."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from agency.modules.auth import api as auth_api
from agency.modules.leads.models import NewsletterConsent
from agency.modules.leads.schemas import NewsletterConsentOut
from agency.modules.leads.settings import LeadsSettings

NEWSLETTER_CONSENT_VERSION = "newsletter-2026-11-26"
NEWSLETTER_CONSENT_TEXT = (
    "Also send me the newsletter: tips and offers by e-mail, unsubscribe at any time "
    "(privacy policy)."
)
# Every version's wording, so a record made under an older one still shows what was ticked.
NEWSLETTER_CONSENT_TEXTS = {NEWSLETTER_CONSENT_VERSION: NEWSLETTER_CONSENT_TEXT}

Outcome = Literal["subscribed", "refused", "not_configured"]
SUBSCRIBED: Outcome = "subscribed"
REFUSED: Outcome = "refused"  # Kit refused, or did not answer
NOT_CONFIGURED: Outcome = "not_configured"  # no Kit key and form: nobody was subscribed


async def record(email: str, form: str, outcome: Outcome) -> None:
    """Record a ticked box (the e-mail already checked by the form's own rule)."""
    await NewsletterConsent.create(
        email=email, form=form, wording_version=NEWSLETTER_CONSENT_VERSION, outcome=outcome
    )


def _out(row: NewsletterConsent) -> NewsletterConsentOut:
    # Imported here: the leads service records consents through the newsletter's opt-in box.
    from agency.modules.leads.service.leads import label_of

    return NewsletterConsentOut(
        email=row.email,
        form=row.form,
        form_label=label_of(row.form),
        wording_version=row.wording_version,
        wording=NEWSLETTER_CONSENT_TEXTS.get(row.wording_version, ""),
        outcome=row.outcome,
        created_at=row.created_at,
    )


async def list_consents(email: str | None = None) -> list[NewsletterConsentOut]:
    """The consents, newest first; only one address's when given."""
    query = NewsletterConsent.all()
    if email:
        query = query.filter(email=email.strip().lower())
    return [_out(row) for row in await query.order_by("-created_at", "-id")]


async def export_user(user_id: int) -> object:
    """The consents given with the account's e-mail."""
    account = await auth_api.get_account(user_id)
    if account is None:
        return []
    return [c.model_dump(mode="json") for c in await list_consents(account.email)]


async def erase_user(user_id: int) -> None:
    account = await auth_api.get_account(user_id)
    if account is not None:
        await NewsletterConsent.filter(email=account.email).delete()


async def prune(settings: LeadsSettings, now: datetime) -> int:
    """Consents follow the leads' retention (`retention_leads_days` after they were given)."""
    cutoff = now - timedelta(days=settings.retention_leads_days)
    return await NewsletterConsent.filter(created_at__lt=cutoff).delete()
