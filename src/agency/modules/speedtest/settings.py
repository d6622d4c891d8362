"""The speedtest module's settings keys: which provider runs a test, and how to reach it. It
extends the leads module's class: a speed test's e-mail is kept as long as a lead."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from agency.core.settings import http_base
from agency.modules.leads.api import LeadsSettings


class SpeedtestSettings(LeadsSettings):
    """The kernel's keys, the leads module's and the speedtest module's."""

    speedtest_provider: Literal["psi", "lighthouse"] = Field(
        default="psi",
        description="`psi` (Google PageSpeed Insights v5) or `lighthouse` (local Lighthouse and "
        "Chromium).",
    )
    pagespeed_api_key: str = Field(
        default="",
        description="PageSpeed Insights API key (server only). Empty: keyless calls share a "
        "small quota.",
    )
    pagespeed_api_base: str = Field(
        default="https://pagespeedonline.googleapis.com",
        description="Another PageSpeed Insights address (the fake, for tests and benchmarks).",
    )
    pagespeed_timeout: float = Field(
        default=60.0,
        gt=0,
        le=600,
        description="Seconds one speed test may take, with either provider.",
    )
    lighthouse_path: str = Field(
        default="lighthouse",
        description="The lighthouse command (a name on `PATH` or a full path).",
    )
    lighthouse_chrome_path: str = Field(
        default="",
        description="Chrome or Chromium for local Lighthouse (`CHROME_PATH`). Empty: "
        "Lighthouse finds one.",
    )
    speedtest_reuse_minutes: int = Field(
        default=60,
        ge=0,
        le=7 * 24 * 60,
        description="A speed test of the same domain and strategy within this many minutes "
        "answers at once from the last result (0: always test anew).",
    )
    speedtest_unsafe_allow_private_targets: bool = Field(
        default=False,
        description="UNSAFE, tests only: let the speed test and the analysis reach loopback and "
        "private addresses (and skip the DNS check). Off, the server refuses any target on its "
        "own machine or network.",
    )

    @field_validator("pagespeed_api_base")
    @classmethod
    def _check_pagespeed_base(cls, value: str) -> str:
        return http_base(value)
