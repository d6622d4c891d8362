"""What the leads module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.leads import models, routes
from agency.modules.leads.service import leads, readiness
from agency.modules.leads.settings import LeadsSettings

MODULE = Module(
    name="leads",
    settings=LeadsSettings,
    models=models,
    blueprint=routes.blueprint,
    retention=leads.prune_leads,
    readiness=readiness.readiness,
)
