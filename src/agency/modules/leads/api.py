"""What other modules may use of leads (plain functions and data, no Quart): record a lead that
came in through them (or keep a page's e-mail as one lead per visit, `remember_lead`), read the
leads, how a lead's source reads to people, the e-mail rule and its messages, a form's
newsletter opt-in box (`newsletter_opt_in`: Kit only when the visitor ticked it, and its
`NewsletterOutcome`), what leads hold about a person, the owner's overview's figures (leads
per source, newsletter subscriptions), and its settings class (`LeadsSettings`, which the speed
test extends). Leads cross the module line as `LeadOut`, never as ORM rows."""

from agency.modules.leads.schemas import NEWSLETTER_FIELD, LeadOut, NewsletterOutcome
from agency.modules.leads.service.figures import leads_by_source, newsletter_subscriptions
from agency.modules.leads.service.leads import (
    MSG_EMAIL,
    MSG_EMAIL_INVALID,
    erase_user,
    export_user,
    label_of,
    lead_email,
    list_leads,
    record_lead,
    remember_lead,
)
from agency.modules.leads.service.newsletter import opt_in as newsletter_opt_in
from agency.modules.leads.settings import LeadsSettings

__all__ = [
    "MSG_EMAIL",
    "MSG_EMAIL_INVALID",
    "NEWSLETTER_FIELD",
    "LeadOut",
    "LeadsSettings",
    "NewsletterOutcome",
    "erase_user",
    "export_user",
    "label_of",
    "lead_email",
    "leads_by_source",
    "list_leads",
    "newsletter_opt_in",
    "newsletter_subscriptions",
    "record_lead",
    "remember_lead",
]
