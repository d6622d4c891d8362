"""What the notifications module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.userdata import UserData
from agency.modules.notifications import models, routes, service
from agency.modules.notifications.settings import NotificationsSettings

MODULE = Module(
    name="notifications",
    settings=NotificationsSettings,
    models=models,
    blueprint=routes.blueprint,
    user_data=UserData(export=service.export_user, erase=service.erase_user),
    retention=service.prune,
)
