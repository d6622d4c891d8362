"""The analysis module's settings keys. It extends the speedtest module's class (an analysis
runs a speed test and keeps its e-mail as a lead) and the AI provider's (`agency.net`)."""

from __future__ import annotations

from pydantic import Field, ValidationInfo, field_validator

from agency.modules.speedtest.api import SpeedtestSettings
from agency.net.settings import AiSettings


class AnalysisSettings(SpeedtestSettings, AiSettings):
    """The speedtest module's keys, the AI provider's and the analysis module's."""

    analysis_unsafe_fetch_overrides: dict[str, str] = Field(
        default_factory=dict,
        description="UNSAFE, tests only (accepted only with "
        "`speedtest_unsafe_allow_private_targets`): domains the analysis fetches from another "
        'base URL, e.g. `{"customer-site.com": "http://127.0.0.1:8123"}`, so a test can use a '
        "domain that passes the pages' strict rule.",
    )

    @field_validator("analysis_unsafe_fetch_overrides")
    @classmethod
    def _check_fetch_overrides(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        if value and not info.data.get("speedtest_unsafe_allow_private_targets"):
            raise ValueError("needs speedtest_unsafe_allow_private_targets = true (tests only)")
        checked: dict[str, str] = {}
        for domain, base in value.items():
            if not base.startswith(("http://", "https://")):
                raise ValueError(
                    f"{domain}: must be an http(s) address such as http://127.0.0.1:8123"
                )
            checked[domain.strip().lower()] = base.strip().rstrip("/")
        return checked
