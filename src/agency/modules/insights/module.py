"""What the insights module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.userdata import UserData
from agency.modules.insights import models, routes
from agency.modules.insights.service import analyses, speedtests, user_data

MODULE = Module(
    name="insights",
    models=models,
    blueprint=routes.blueprint,
    settings_job_handlers=lambda settings: {
        speedtests.JOB_KIND: speedtests.job_handler(settings),
        analyses.JOB_KIND: analyses.job_handler(settings),
    },
    user_data=UserData(export=user_data.export_user, erase=user_data.erase_user),
    retention=user_data.prune,
    job_options=lambda settings: {
        **speedtests.job_options(settings),
        **analyses.job_options(settings),
    },
)
