"""What the seo module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.userdata import UserData
from agency.modules.seo import models, routes
from agency.modules.seo.service import generations
from agency.modules.seo.settings import SeoSettings

MODULE = Module(
    name="seo",
    settings=SeoSettings,
    models=models,
    blueprint=routes.blueprint,
    settings_job_handlers=lambda settings: {
        generations.JOB_KIND: generations.job_handler(settings)
    },
    job_options=generations.job_options,
    user_data=UserData(export=generations.export_user, erase=generations.erase_user),
    retention=generations.prune,
)
