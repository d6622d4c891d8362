"""What the analysis module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.userdata import UserData
from agency.modules.analysis import models, routes
from agency.modules.analysis.service import analyses, user_data
from agency.modules.analysis.settings import AnalysisSettings

MODULE = Module(
    name="analysis",
    settings=AnalysisSettings,
    models=models,
    blueprint=routes.blueprint,
    settings_job_handlers=lambda settings: {
        analyses.JOB_KIND: analyses.job_handler(settings),
    },
    # "Export my data" keeps the key and shape it had before insights was split in three: the
    # leads, the speed tests and the analyses of a person, under "insights".
    user_data=UserData(
        export=user_data.export_user, erase=user_data.erase_user, key=user_data.EXPORT_KEY
    ),
    retention=analyses.prune,
    job_options=analyses.job_options,
)
