"""What the leads module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.userdata import UserData
from agency.modules.leads import models, routes
from agency.modules.leads.service import consents, leads, readiness
from agency.modules.leads.settings import LeadsSettings

MODULE = Module(
    name="leads",
    settings=LeadsSettings,
    models=models,
    blueprint=routes.blueprint,
    # The leads themselves join the export under "insights" (the analysis module assembles it).
    user_data=UserData(
        export=consents.export_user, erase=consents.erase_user, key="newsletter_consents"
    ),
    retention=leads.prune_leads,
    readiness=readiness.readiness,
)
