"""The audit module's settings key: how long the audit log is kept."""

from __future__ import annotations

from pydantic import Field

from agency.core.settings import Settings


class AuditSettings(Settings):
    """The kernel's keys and the audit module's."""

    retention_audit_days: int = Field(
        default=1095,
        ge=1,
        le=36500,
        description="The audit log of admin actions (who changed what, before and after), from "
        "when each action was recorded: 1095 days = 3 years.",
    )
