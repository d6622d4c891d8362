"""What the seo module contributes to the program (see `agency.core.modules.Module`)."""

from agency.core.modules import Module
from agency.modules.seo import models

MODULE = Module(name="seo", models=models)
