"""What other modules may use of leads: `agency.modules.leads.api`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from agency.core import mail
from agency.core.web import job_runner
from agency.modules.leads import api as leads_api


async def test_another_module_records_a_lead_and_reads_it_back(app: Any) -> None:
    recorded = await leads_api.record_lead(
        source="free-preview",
        email=" Ann@Homes.example ",
        name=" Ann ",
        domain="ann-homes.com",
        notify="team@agency.test",
    )
    assert isinstance(recorded, leads_api.LeadOut)
    assert (recorded.email, recorded.name, recorded.message) == ("ann@homes.example", "Ann", None)
    assert recorded.source_label == "Real Estate Website Rebuild"
    await job_runner(app.app).drain()
    [notice] = await mail.OutboundMail.all()
    assert notice.to == "team@agency.test" and "ann@homes.example" in notice.subject

    await leads_api.record_lead(source="partner-page", email="bob@example.com")
    assert await mail.OutboundMail.all().count() == 1  # no address to notify: no e-mail
    newest_first = await leads_api.list_leads()
    assert [lead.source for lead in newest_first] == ["partner-page", "free-preview"]
    assert [lead.email for lead in await leads_api.list_leads("free-preview")] == [
        "ann@homes.example"
    ]
    assert await leads_api.list_leads(since=datetime.now(UTC) + timedelta(days=1)) == []
    assert leads_api.label_of("partner-page") == "partner-page"
