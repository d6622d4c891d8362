"""The sites module's settings keys. It extends the speedtest module's class: a site's checks
are speed tests."""

from __future__ import annotations

from pydantic import Field

from agency.modules.speedtest.api import SpeedtestSettings


class SitesSettings(SpeedtestSettings):
    """The speedtest module's keys (and those below it) and the sites module's."""

    sites_monitor_interval_hours: int = Field(
        default=168,
        ge=1,
        le=24 * 366,
        description="Customers' live websites are speed-tested on a schedule, each this many "
        "hours after its last monitored test (168: weekly); the owner hears of a drop.",
    )
