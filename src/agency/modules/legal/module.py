"""What the legal module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.legal import routes, service
from agency.modules.legal.settings import LegalSettings

MODULE = Module(
    name="legal",
    settings=LegalSettings,
    blueprint=routes.blueprint,
    check_settings=service.check_settings,
    html_filter=service.html_filter,
    mail_footer=service.mail_footer,
    readiness=service.readiness,
)
