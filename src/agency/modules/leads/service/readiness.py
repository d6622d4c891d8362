"""Whether the newsletter (Kit) is configured, as `agency doctor` reports it."""

from __future__ import annotations

from agency.core.modules import Readiness
from agency.modules.leads.settings import LeadsSettings


def readiness(settings: LeadsSettings) -> tuple[Readiness, ...]:
    topic = "Newsletter (Kit)"
    if settings.kit_api_key and settings.kit_form_id:
        return (
            Readiness(
                topic, True, False, f"form {settings.kit_form_id}, API {settings.kit_api_version}"
            ),
        )
    missing = [
        name
        for name, value in (
            ("AGENCY_KIT_API_KEY", settings.kit_api_key),
            ("AGENCY_KIT_FORM_ID", settings.kit_form_id),
        )
        if not value
    ]
    return (
        Readiness(
            topic,
            False,
            False,
            "optional: without it, newsletter sign-ups are kept as leads only",
            "set " + " and ".join(missing),
        ),
    )
