"""What insights holds about a person, for "export my data", "delete my account" and the
retention job: the leads with their e-mail, the e-mail a speed test's report went to, and the
website analyses whose report went to the e-mail."""

from __future__ import annotations

from datetime import datetime, timedelta

from agency.core.settings import Settings
from agency.modules.auth import api as auth_api
from agency.modules.insights.models import Analysis, SpeedTest
from agency.modules.insights.service import analyses, leads, speedtests


async def export_user(user_id: int) -> object:
    """The account's leads, and the speed tests and analyses whose report went to its e-mail."""
    account = await auth_api.get_account(user_id)
    if account is None:
        return {"leads": [], "speed_tests": [], "analyses": []}
    tests = await SpeedTest.filter(email=account.email).order_by("-created_at")
    rows = await Analysis.filter(email=account.email).order_by("-created_at")
    return {
        "leads": await leads.export_user(user_id),
        "speed_tests": [
            {**speedtests.out(test).model_dump(mode="json"), "email": test.email} for test in tests
        ],
        "analyses": [(await analyses.out(row)).model_dump(mode="json") for row in rows],
    }


async def erase_user(user_id: int) -> None:
    """The account's leads and analyses go; its speed tests stay as the domain's history,
    without the e-mail."""
    account = await auth_api.get_account(user_id)
    if account is not None:
        await SpeedTest.filter(email=account.email).update(email=None)
        await Analysis.filter(email=account.email).delete()
    await leads.erase_user(user_id)


async def prune(settings: Settings, now: datetime) -> dict[str, int]:
    """Retention: leads, the e-mail on speed tests and the analyses (which carry the e-mail) go
    `retention_leads_days` after they were given (the tests stay, as the domain's history)."""
    cutoff = now - timedelta(days=settings.retention_leads_days)
    forgotten = await SpeedTest.filter(created_at__lt=cutoff, email__not_isnull=True).update(
        email=None
    )
    removed = await Analysis.filter(created_at__lt=cutoff).delete()
    return {
        **await leads.prune_leads(settings, now),
        "insights.speed_test_emails": forgotten,
        "insights.analyses": removed,
    }
