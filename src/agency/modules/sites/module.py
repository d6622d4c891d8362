"""What the sites module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module, Periodic
from agency.core.userdata import UserData
from agency.modules.sites import models, routes
from agency.modules.sites.service import checks, websites
from agency.modules.sites.settings import SitesSettings

MODULE = Module(
    name="sites",
    settings=SitesSettings,
    models=models,
    blueprint=routes.blueprint,
    settings_job_handlers=lambda settings: {
        checks.FOLLOW_KIND: checks.follow_handler(settings),
        checks.LAUNCH_KIND: checks.launch_handler(settings),
    },
    user_data=UserData(export=websites.export_user, erase=websites.erase_user),
    periodic=(
        Periodic(name=checks.MONITOR_KIND, interval=checks.MONITOR_TICK, run=checks.monitor),
    ),
)
