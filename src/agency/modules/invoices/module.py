"""What the invoices module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.settings import Settings
from agency.core.userdata import UserData
from agency.modules.invoices import models, routes
from agency.modules.invoices.service import user_data

MODULE: Module[Settings] = Module(
    name="invoices",
    models=models,
    blueprint=routes.blueprint,
    user_data=UserData(export=user_data.export_user, erase=user_data.erase_user),
)
