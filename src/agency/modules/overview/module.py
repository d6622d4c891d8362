"""What the overview module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module, Periodic
from agency.core.settings import Settings
from agency.modules.overview import models, routes
from agency.modules.overview.service import snapshots

MODULE: Module[Settings] = Module(
    name="overview",
    models=models,
    blueprint=routes.blueprint,
    periodic=(Periodic(name=snapshots.JOB_KIND, interval=snapshots.INTERVAL, run=snapshots.run),),
)
