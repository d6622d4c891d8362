"""What the auth module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.auth import models, routes
from agency.modules.auth.service import resets, retention

MODULE = Module(
    name="auth",
    models=models,
    blueprint=routes.blueprint,
    job_handlers={resets.RESET_JOB: resets.send_reset_link},
    retention=retention.prune,
)
