"""What other modules may use of the speed test (plain functions and data, no Quart): start a
speed test of a domain and read a domain's latest result and its history (the customer
dashboard's chart), and one test by its id (`get_speed_test`: a customer's test in progress);
for the analysis, the page rule (`target_for`), a test started without an e-mail of its own
(`begin`), one run in this process (`run_now`), the report allowance of a mailbox, what the
tests hold about an e-mail, the websites tested this month, the visitors' tests of a period
for the owner's overview (`visitor_tests`, as `ToolRuns`), and the settings class
(`SpeedtestSettings`, which sites and the analysis extend). Tests cross the module line as
schemas (`SpeedTestOut`, `SpeedResultOut`), never as ORM rows.

`start_speed_test` queues the test's job, which wakes this process's job runner once it is
committed (`jobs.enqueue`); a command line tool may run the queued test in its own process at
once (`run_queued_speed_test`, the job's own body: the job then finds it finished)."""

from agency.modules.speedtest.schemas import URL_MAX, SpeedResultOut, SpeedTestOut
from agency.modules.speedtest.service.figures import ToolRuns, visitor_tests
from agency.modules.speedtest.service.speed_providers import MSG_GENERIC, SpeedTestFailed
from agency.modules.speedtest.service.speedtests import (
    MSG_DOMAIN,
    MSG_UNKNOWN_SOURCE,
    Target,
    begin,
    export_for_email,
    forget_email,
    get_speed_test,
    report_allowed,
    run_limit,
    run_now,
    target_for,
)
from agency.modules.speedtest.service.speedtests import history as speed_history
from agency.modules.speedtest.service.speedtests import latest_result as latest_speed_test
from agency.modules.speedtest.service.speedtests import rating as speed_rating
from agency.modules.speedtest.service.speedtests import run_speed_test as run_queued_speed_test
from agency.modules.speedtest.service.speedtests import start_for_domain as start_speed_test
from agency.modules.speedtest.service.speedtests import (
    tested_this_month as websites_tested_this_month,
)
from agency.modules.speedtest.settings import SpeedtestSettings

__all__ = [
    "MSG_DOMAIN",
    "MSG_GENERIC",
    "MSG_UNKNOWN_SOURCE",
    "URL_MAX",
    "SpeedResultOut",
    "SpeedTestFailed",
    "SpeedTestOut",
    "SpeedtestSettings",
    "Target",
    "ToolRuns",
    "begin",
    "export_for_email",
    "forget_email",
    "get_speed_test",
    "latest_speed_test",
    "report_allowed",
    "run_limit",
    "run_now",
    "run_queued_speed_test",
    "speed_history",
    "speed_rating",
    "start_speed_test",
    "target_for",
    "visitor_tests",
    "websites_tested_this_month",
]
