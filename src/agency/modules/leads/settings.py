"""The leads module's settings keys: the newsletter (Kit, formerly ConvertKit), which the forms'
unticked opt-in box subscribes to, and how long leads are kept. Without a Kit key and a form
id, e-mails are leads only."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from agency.core.settings import Settings, http_base


class LeadsSettings(Settings):
    """The kernel's keys and the leads module's."""

    kit_api_key: str = Field(
        default="",
        description="Kit (ConvertKit) API key (server only). Empty: e-mails are leads only.",
    )
    kit_api_version: Literal["v3", "v4"] = Field(
        default="v3",
        description="`v3` (the key in the body) or `v4` (the `X-Kit-Api-Key` header).",
    )
    kit_form_id: str = Field(
        default="",
        description="The Kit form a ticked newsletter box subscribes to (its number). Empty: "
        "no Kit call.",
    )
    kit_api_base: str = Field(
        default="",
        description="Another Kit address (the fake, for tests). Empty: the version's official "
        "address.",
    )
    retention_leads_days: int = Field(
        default=730,
        ge=1,
        le=36500,
        description="Leads (enquiries from the forms), from when they were sent: 730 days = 24 "
        "months; also the e-mail of speed tests and analyses.",
    )

    @field_validator("kit_api_base")
    @classmethod
    def _check_kit_base(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        return http_base(value) if value else value

    @field_validator("kit_form_id")
    @classmethod
    def _check_form_id(cls, value: str) -> str:
        value = value.strip()
        if value and not value.isdigit():
            raise ValueError("must be the form's number, e.g. 1234567")
        return value
