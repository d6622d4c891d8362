"""What the insights module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.userdata import UserData
from agency.modules.insights import cli, models, routes, service

MODULE = Module(
    name="insights",
    models=models,
    blueprint=routes.blueprint,
    cli=cli.app,
    cli_name="leads",
    user_data=UserData(export=service.export_user, erase=service.erase_user),
    retention=service.prune_leads,
)
