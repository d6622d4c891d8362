"""What the content module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.content import routes
from agency.modules.content.service import pages
from agency.modules.content.settings import ContentSettings

MODULE = Module(
    name="content",
    settings=ContentSettings,
    blueprint=routes.blueprint,
    check_settings=pages.check_settings,
    html_filter=routes.install,
    frame_origins=pages.frame_origins,
)
