"""What the split insights held about a person, for "export my data" and "delete my account":
the leads with their e-mail (leads), the e-mail a speed test's report went to (speedtest), and
the website analyses whose report went to the e-mail. The export keeps the key it had,
`insights`, and its shape; the analysis, the top of the three, assembles it."""

from __future__ import annotations

from agency.modules.analysis.models import Analysis
from agency.modules.analysis.service import analyses
from agency.modules.auth import api as auth_api
from agency.modules.leads import api as leads_api
from agency.modules.speedtest import api as speedtest_api

EXPORT_KEY = "insights"


async def export_user(user_id: int) -> object:
    """The account's leads, and the speed tests and analyses whose report went to its e-mail."""
    account = await auth_api.get_account(user_id)
    if account is None:
        return {"leads": [], "speed_tests": [], "analyses": []}
    tests = await speedtest_api.export_for_email(account.email)
    rows = await Analysis.filter(email=account.email).order_by("-created_at")
    return {
        "leads": await leads_api.export_user(user_id),
        "speed_tests": tests,
        "analyses": [(await analyses.out(row)).model_dump(mode="json") for row in rows],
    }


async def erase_user(user_id: int) -> None:
    """The account's leads and analyses go; its speed tests stay as the domain's history,
    without the e-mail."""
    account = await auth_api.get_account(user_id)
    if account is not None:
        await speedtest_api.forget_email(account.email)
        await Analysis.filter(email=account.email).delete()
    await leads_api.erase_user(user_id)
