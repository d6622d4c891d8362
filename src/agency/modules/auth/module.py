"""What the auth module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.auth import models, routes
from agency.modules.auth.service import resets, retention
from agency.modules.auth.settings import AuthSettings

MODULE = Module(
    name="auth",
    settings=AuthSettings,
    models=models,
    blueprint=routes.blueprint,
    job_handlers={resets.RESET_JOB: resets.send_reset_link},
    retention=retention.prune,
)
