"""What the billing module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.userdata import UserData
from agency.modules.billing import models, routes
from agency.modules.billing.service import confirmation, readiness, retention, status, user_data
from agency.modules.billing.settings import BillingSettings

MODULE = Module(
    name="billing",
    settings=BillingSettings,
    models=models,
    blueprint=routes.blueprint,
    csrf_exempt=(routes.WEBHOOK_PATH,),
    user_data=UserData(
        export=user_data.export_user, erase=user_data.erase_user, leave=user_data.leave_user
    ),
    retention=retention.prune,
    settings_job_handlers=lambda settings: {confirmation.JOB_KIND: confirmation.handler(settings)},
    html_filter=routes.payments_filter,
    check_settings=readiness.check_settings,
    readiness=readiness.readiness,
    status=status.status,
)
