"""What other modules may use of insights (plain functions and data, no Quart): record a lead
that came in through them, read the leads, and how a lead's source reads to people; start a
speed test of a domain and read a domain's latest result and its history (the customer
dashboard's chart), and one test by its id (`get_speed_test`: a customer's test in progress).
Leads and tests cross the module line as schemas (`LeadOut`, `SpeedTestOut`), never as ORM
rows.

After `start_speed_test` a web route wakes the job runner
(`current_app.extensions["agency.jobs"].wake()`), or the test waits for the next poll; a
command line tool may run the queued test in its own process at once (`run_queued_speed_test`,
the job's own body: the job then finds it finished)."""

from agency.modules.insights.schemas import LeadOut, SpeedResultOut, SpeedTestOut
from agency.modules.insights.service.leads import label_of, list_leads, record_lead
from agency.modules.insights.service.speedtests import get_speed_test
from agency.modules.insights.service.speedtests import history as speed_history
from agency.modules.insights.service.speedtests import latest_result as latest_speed_test
from agency.modules.insights.service.speedtests import rating as speed_rating
from agency.modules.insights.service.speedtests import run_speed_test as run_queued_speed_test
from agency.modules.insights.service.speedtests import start_for_domain as start_speed_test

__all__ = [
    "LeadOut",
    "SpeedResultOut",
    "SpeedTestOut",
    "get_speed_test",
    "label_of",
    "latest_speed_test",
    "list_leads",
    "record_lead",
    "run_queued_speed_test",
    "speed_history",
    "speed_rating",
    "start_speed_test",
]
