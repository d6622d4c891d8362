"""What the content module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.content import routes, service
from agency.modules.content.settings import ContentSettings

MODULE = Module(
    name="content",
    settings=ContentSettings,
    blueprint=routes.blueprint,
    check_settings=service.check_settings,
    html_filter=routes.install,
    frame_origins=service.frame_origins,
)
