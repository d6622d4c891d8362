"""The speed-test and analysis pages' limits hold against an outside probe's tricks, through the
HTTP API on SQLite and PostgreSQL: 15 addresses of one IPv6 /64 are one visitor, 25 ports of one
host are one domain, and one mailbox gets at most 3 reports a day, speed tests' and analyses'
together, however its address is spelt: the tests and analyses
still run and show on the page, only the e-mail is left out. The reports are counted where they
are queued, in the `outbound_mail` table."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core import mail
from agency.core.text import valid_email
from agency.core.web import job_runner
from agency.modules.analysis.models import Analysis
from agency.modules.analysis.service import analyses
from agency.modules.speedtest.models import SpeedTest
from agency.modules.speedtest.service import speedtests
from agency.settings import Settings
from tests.analysis import test_analyses as analysis_tests
from tests.fakes.customer_site import CustomerSite
from tests.fakes.pagespeed import FakePageSpeed
from tests.speedtest import test_speedtests as speed_tests

MAILBOX = "ann.lee@gmail.com"
# One mailbox, spelt as a visitor could: case, a +tag, Gmail's dots and second domain.
SPELLINGS = [
    "ann.lee@gmail.com",
    "Ann.Lee@Gmail.com",
    "annlee+1@gmail.com",
    "a.n.n.l.e.e+report@googlemail.com",
    "ANNLEE@GMAIL.COM",
]


@pytest.fixture
def app_settings(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, customer_site: CustomerSite
) -> Settings:
    """This module's `app` (tests/conftest.py) is behind one trusted proxy (X-Forwarded-For is
    the client), with the fake PageSpeed, the local customer site for analyses, and no reuse of
    speed results."""
    return analysis_tests.settings_for(
        tmp_path, database_url, psi, customer_site, speedtest_reuse_minutes=0
    )


async def speed_test(app: Any, url: str, ip: str, email: str = "owner@shop.example") -> int:
    body = {"url": url, "email": email, "source": "clinic-speed-test", "strategy": "mobile"}
    status, _, _ = await speed_tests.call(app, "post", "/api/speed-tests", body, ip)
    return int(status)


async def test_addresses_of_one_ipv6_network_are_one_visitor(app: Any) -> None:
    """The probe: 15 addresses of one /64 got 15 x 202 against a limit of 10."""
    limit = speedtests.TESTS_PER_ADDRESS.limit
    statuses = [
        await speed_test(app, f"site-{n}.example", f"2001:db8:aa:bb::{n:x}") for n in range(15)
    ]
    assert statuses == [202] * limit + [429] * (15 - limit)
    # An IPv4 visitor written IPv4-mapped is that visitor; the next /64 is someone else.
    assert await speed_test(app, "next.example", "2001:db8:aa:bc::1") == 202
    for n in range(limit):
        assert await speed_test(app, f"v4-{n}.example", "192.0.2.1") == 202
    assert await speed_test(app, "v4-more.example", "::ffff:192.0.2.1") == 429


async def test_the_ports_of_one_host_are_one_domain(app: Any) -> None:
    """The probe: 25 ports of one host got 25 x 202 against a limit of 20 per domain."""
    limit = speedtests.TESTS_PER_DOMAIN.limit
    statuses = [
        await speed_test(app, f"busy.example:{8000 + n}", f"198.51.100.{n}") for n in range(25)
    ]
    assert statuses == [202] * limit + [429] * (25 - limit)
    assert await speed_test(app, "BUSY.example", "203.0.113.1") == 429
    assert await speed_test(app, "quiet.example:8000", "203.0.113.1") == 202


@given(
    host=st.from_regex(
        r"[a-z][a-z0-9]{0,10}(\.[a-z][a-z0-9]{0,10}){0,2}\.[a-z]{2,6}", fullmatch=True
    ),
    port=st.integers(1, 65535),
    upper=st.booleans(),
    scheme=st.sampled_from(["", "http://", "https://"]),
)
def test_a_host_is_one_limit_subject_whatever_the_port_or_case(
    host: str, port: int, upper: bool, scheme: str
) -> None:
    typed = host.upper() if upper else host
    plain = speedtests.target_for("clinic-speed-test", host)
    with_port = speedtests.target_for("clinic-speed-test", f"{scheme}{typed}:{port}/path")
    assert with_port.domain == f"{host}:{port}"  # the history keeps the port
    subject = speedtests.domain_subject(with_port.hostname)
    assert subject == speedtests.domain_subject(plain.hostname) == host
    assert speedtests.domain_subject(f"{host.upper()}.") == host


def test_ipv6_literal_hosts_of_one_network_are_one_domain() -> None:
    first = speedtests.target_for("clinic-speed-test", "[2001:db8:1:2::1]:8080")
    second = speedtests.target_for("clinic-speed-test", "[2001:db8:1:2::ff]")
    assert speedtests.domain_subject(first.hostname) == speedtests.domain_subject(second.hostname)


@given(st.sampled_from(SPELLINGS))
def test_one_mailbox_is_one_recipient_however_spelt(spelling: str) -> None:
    assert speedtests.recipient_subject(spelling) == "annlee@gmail.com"


@given(
    local=st.from_regex(r"[a-z0-9][a-z0-9.]{0,12}[a-z0-9]", fullmatch=True),
    tag=st.from_regex(r"[a-z0-9]{0,8}", fullmatch=True),
    domain=st.sampled_from(["example.com", "shop.example", "mail.example.org"]),
)
def test_a_tag_or_case_never_makes_a_new_recipient_elsewhere(
    local: str, tag: str, domain: str
) -> None:
    plain = f"{local}@{domain}"
    tagged = f"{local.upper()}+{tag}@{domain.upper()}"
    assert speedtests.recipient_subject(tagged) == speedtests.recipient_subject(plain) == plain


@given(st.text(max_size=60))
def test_any_text_is_a_recipient_subject_without_raising(text: str) -> None:
    subject = speedtests.recipient_subject(text)
    assert isinstance(subject, str)
    if valid_email(text.strip().lower()):
        assert "@" in subject


async def test_a_mailbox_gets_at_most_three_reports_a_day(app: Any) -> None:
    """Five speed tests for one mailbox (five spellings, five visitors, five domains): all five
    run and show their result, three reports are e-mailed."""
    ids = []
    for n, spelling in enumerate(SPELLINGS):
        body = {"url": f"shop-{n}.example", "email": spelling, "source": "speed-test"}
        status, data, _ = await speed_tests.call(
            app, "post", "/api/speed-tests", body, f"203.0.113.{n}"
        )
        assert status == 202, data
        ids.append(data["id"])
    await job_runner(app.app).drain()
    for test_id in ids:
        status, data, _ = await speed_tests.call(app, "get", f"/api/speed-tests/{test_id}")
        assert status == 200 and data["status"] == "done" and data["result"]["score"] >= 0
    sent = await mail.OutboundMail.all()
    assert len(sent) == speedtests.REPORTS_PER_RECIPIENT.limit == 3
    # Three of the five (the jobs run concurrently: which three is not fixed), once each.
    reported = [d for m in sent for d in (f"shop-{n}.example" for n in range(5)) if d in m.subject]
    assert len(set(reported)) == 3 and {m.to for m in sent} <= {s.lower() for s in SPELLINGS}
    # Another mailbox is not held back by the first.
    assert await speed_test(app, "other.example", "198.51.100.1") == 202
    await job_runner(app.app).drain()
    assert await mail.OutboundMail.filter(to="owner@shop.example").count() == 1


async def test_analyses_share_the_mailbox_allowance(app: Any) -> None:
    """Two speed reports, then three analyses for the same mailbox: one analysis report is
    e-mailed, every analysis is done and readable, and none is sent twice later."""
    for n in range(2):
        body = {"url": f"shop-{n}.example", "email": SPELLINGS[n], "source": "speed-test"}
        status, _, _ = await speed_tests.call(
            app, "post", "/api/speed-tests", body, f"203.0.113.{n}"
        )
        assert status == 202
    ids = []
    for n in range(3):
        status, data = await analysis_tests.start(
            app, analysis_tests.DOMAIN, email=SPELLINGS[2 + n], ip=f"198.51.100.{n}"
        )
        assert status == 202, data
        ids.append(data["id"])
    for analysis_id in ids:
        done = await analysis_tests.finish(app, analysis_id)
        assert done["status"] == "done" and done["report"]["overview"]
    sent = Counter(
        "analysis" if analysis_tests.DOMAIN in m.subject else "speed"
        for m in await mail.OutboundMail.all()
    )
    assert sent == {"speed": 2, "analysis": 1}, sent
    assert await Analysis.filter(report_sent=True).count() == 3  # handled: never retried
    assert await SpeedTest.filter(status="done").count() >= 2
    assert analyses.REPORT_TEMPLATE == "analysis_report"
