"""The speed test: start one, and read its state and result."""

from __future__ import annotations

from quart import Blueprint
from quart_schema import validate_request, validate_response

from agency.core.web import settings_of
from agency.modules.auth import web as auth_web
from agency.modules.speedtest.schemas import (
    SpeedTestIn,
    SpeedTestOut,
    SpeedTestStarted,
    TestedThisMonthOut,
)
from agency.modules.speedtest.service import speedtests
from agency.modules.speedtest.settings import SpeedtestSettings

blueprint = Blueprint("speedtest", __name__)


@blueprint.post("/api/speed-tests")
@validate_request(SpeedTestIn)
@validate_response(SpeedTestStarted, 202)
async def post_speed_test(data: SpeedTestIn) -> tuple[SpeedTestStarted, int]:
    """Start a speed test of a domain (validated by the page's rule; never an address on our
    own machine or network). Answers at once: `queued`, or `done` when a recent result of the
    same domain and strategy is reused. Poll `GET /api/speed-tests/{id}` until it is done or
    failed; the report goes to the e-mail. With `newsletter: true` (the opt-in box ticked) the
    e-mail is also subscribed to the newsletter once the test has started; `newsletter` in the
    answer says whether that worked."""
    test = await speedtests.start_speed_test(
        url=data.url,
        email=data.email,
        source=data.source,
        strategy=data.strategy,
        newsletter=data.newsletter,
        client_ip=auth_web.client_ip(),
        settings=settings_of(SpeedtestSettings),
    )
    return test, 202


# The figure changes slowly; browsers and caches in between may keep it this long.
TESTED_MAX_AGE = 300


@blueprint.get("/api/speed-tests/this-month")
@validate_response(TestedThisMonthOut, 200)
async def get_tested_this_month() -> tuple[TestedThisMonthOut, int, dict[str, str]]:
    """How many websites had a completed speed test this calendar month (UTC): the speed-test
    pages' 'websites tested this month'. Public; may be cached for five minutes."""
    figure = await speedtests.tested_this_month()
    return figure, 200, {"Cache-Control": f"public, max-age={TESTED_MAX_AGE}"}


@blueprint.get("/api/speed-tests/<test_id>")
@validate_response(SpeedTestOut, 200)
async def get_speed_test(test_id: str) -> SpeedTestOut:
    """A speed test's state and, once done, its result; `error` holds the message to show
    when it failed."""
    return await speedtests.get_speed_test(test_id)
