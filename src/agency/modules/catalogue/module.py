"""What the catalogue module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.settings import Settings
from agency.modules.catalogue import models, routes, service

MODULE: Module[Settings] = Module(
    name="catalogue",
    models=models,
    blueprint=routes.blueprint,
    prepare=service.seed_if_empty,
    # The purchase pages: prerendered per family and plan, filled per request (routes.py).
    server_pages=(service.START_PAGE, service.AI_START_PAGE),
)
