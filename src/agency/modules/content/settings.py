"""The content module's settings keys: the public site's details shown on pages ({phone},
{email} and the scheduling URL of the specs), the content-engine plans and the Markdown pages.
The plan map's keys are checked against the specs by `service.check_settings`."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, field_validator

from agency.core.settings import Settings
from agency.core.text import valid_email

_PHONE = re.compile(r"^\+?[0-9][0-9 ()./-]{4,30}[0-9]$")


class ContentSettings(Settings):
    """The kernel's keys and the content module's."""

    contact_phone: str = Field(
        default="+49 30 1234 5678",
        description="Phone number shown on the pages (`{phone}` of the specs).",
    )
    contact_email: str = Field(
        default="hello@agency.local",
        description="Contact e-mail shown on the pages (`{email}` of the specs).",
    )
    scheduling_url: str = Field(
        default="",
        description="Booking page framed on /sales-funnel after a click. Empty: e-mail instead.",
    )
    content_engine_plans: dict[str, str] = Field(
        default_factory=dict,
        description="The plan each content-engine route sells, e.g. "
        '`{"/ai-scale-startup3": "ai-scale-plan"}`; routes left out keep the content '
        "module's defaults, which also checks the keys.",
    )
    pages_dir: Path | None = Field(
        default=None,
        description="Folder with the Markdown of /faq, /about, /contact, /careers, /privacy, "
        "/terms and /cookies. Empty: the bundled `config/pages`.",
    )

    @field_validator("contact_phone")
    @classmethod
    def _check_phone(cls, value: str) -> str:
        value = " ".join(value.split())
        if not _PHONE.match(value) or sum(c.isdigit() for c in value) < 6:
            raise ValueError("must be a phone number such as +49 30 1234 5678")
        return value

    @field_validator("contact_email")
    @classmethod
    def _check_contact_email(cls, value: str) -> str:
        value = value.strip()
        if not valid_email(value):
            raise ValueError("must be an e-mail address such as hello@example.com")
        return value

    @field_validator("scheduling_url")
    @classmethod
    def _check_scheduling_url(cls, value: str) -> str:
        value = value.strip()
        if not value:
            return value
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.username:
            raise ValueError("must be an http(s) address such as https://calendly.com/you/30min")
        if any(c in value for c in "\"'<> \\"):
            raise ValueError("must not contain quotes, spaces, angle brackets or backslashes")
        return value
