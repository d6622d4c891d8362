"""The auth module's settings keys: how long sessions and reset links are kept."""

from __future__ import annotations

from pydantic import Field

from agency.core.settings import Settings


class AuthSettings(Settings):
    """The kernel's keys and the auth module's."""

    retention_sessions_days: int = Field(
        default=0,
        ge=0,
        le=36500,
        description="Sessions, counted from their expiry (0: deleted at the first hourly run "
        "after it).",
    )
    retention_password_resets_days: int = Field(
        default=1,
        ge=0,
        le=36500,
        description="Password-reset links, counted from their use or expiry, whichever comes "
        "first.",
    )
