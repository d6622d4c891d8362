"""What the overview module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.settings import Settings

MODULE: Module[Settings] = Module(
    name="overview",
)
