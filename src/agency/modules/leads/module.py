"""What the leads module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.leads import models, routes
from agency.modules.leads.service import leads

MODULE = Module(
    name="leads",
    models=models,
    blueprint=routes.blueprint,
    retention=leads.prune_leads,
)
