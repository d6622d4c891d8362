"""What the audit module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.core.settings import Settings
from agency.modules.audit import models

MODULE: Module[Settings] = Module(
    name="audit",
    models=models,
)
