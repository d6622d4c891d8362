"""Whether speed tests have what they need, as `agency doctor` reports it."""

from __future__ import annotations

import shutil

from agency.core.modules import Readiness
from agency.modules.speedtest.settings import SpeedtestSettings


def readiness(settings: SpeedtestSettings) -> tuple[Readiness, ...]:
    if settings.speedtest_provider == "lighthouse":
        topic = "Speed tests (local Lighthouse)"
        if shutil.which(settings.lighthouse_path) is None:
            return (
                Readiness(
                    topic,
                    False,
                    False,
                    f"optional: {settings.lighthouse_path!r} is not found, so speed tests fail",
                    "install Lighthouse or set AGENCY_LIGHTHOUSE_PATH, or set "
                    "AGENCY_SPEEDTEST_PROVIDER=psi",
                ),
            )
        return (Readiness(topic, True, False, f"lighthouse at {settings.lighthouse_path}"),)
    topic = "Speed tests (PageSpeed Insights)"
    if settings.pagespeed_api_key:
        return (Readiness(topic, True, False, "API key set"),)
    return (
        Readiness(
            topic,
            False,
            False,
            "optional: without a key, speed tests share Google's small keyless quota and fail "
            "once it is used up",
            "set AGENCY_PAGESPEED_API_KEY",
        ),
    )
