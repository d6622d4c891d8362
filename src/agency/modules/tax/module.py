"""What the tax module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.tax import models, routes
from agency.modules.tax.service import checks, vatids
from agency.modules.tax.settings import TaxSettings

MODULE = Module(
    name="tax",
    settings=TaxSettings,
    models=models,
    blueprint=routes.blueprint,
    settings_job_handlers=lambda settings: {vatids.RECHECK_KIND: vatids.recheck_handler(settings)},
    check_settings=checks.check_settings,
    readiness=checks.readiness,
)
