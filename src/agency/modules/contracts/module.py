"""What the contracts module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.settings import Settings
from agency.core.userdata import UserData
from agency.modules.contracts import models, routes, service

MODULE: Module[Settings] = Module(
    name="contracts",
    models=models,
    blueprint=routes.blueprint,
    user_data=UserData(export=service.export_user, erase=service.erase_user),
)
