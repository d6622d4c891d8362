"""What the speedtest module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.speedtest import models, routes
from agency.modules.speedtest.service import readiness, speedtests
from agency.modules.speedtest.settings import SpeedtestSettings

MODULE = Module(
    name="speedtest",
    settings=SpeedtestSettings,
    models=models,
    blueprint=routes.blueprint,
    settings_job_handlers=lambda settings: {
        speedtests.JOB_KIND: speedtests.job_handler(settings),
    },
    retention=speedtests.prune,
    job_options=speedtests.job_options,
    readiness=readiness.readiness,
)
