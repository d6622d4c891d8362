"""What other modules may use of insights (plain functions and data, no Quart): record a lead
that came in through them, read the leads, and how a lead's source reads to people. Leads
cross the module line as `LeadOut` (a schema), never as ORM rows."""

from agency.modules.insights.schemas import LeadOut
from agency.modules.insights.service.leads import label_of, list_leads, record_lead

__all__ = ["LeadOut", "label_of", "list_leads", "record_lead"]
