"""Config for Tortoise's own CLI (`tortoise -c agency.tortoise_config.TORTOISE_ORM makemigrations`),
used by developers to generate migrations. The program itself builds its config in core.db."""

from agency.core.db import tortoise_config
from agency.registry import MODULES

TORTOISE_ORM = tortoise_config(
    "sqlite://data/makemigrations.db", [m.models for m in MODULES if m.models is not None]
)
