"""The speed test through the HTTP API, on SQLite and PostgreSQL: each page's validation, the
job to done or failed with the spec's messages (against the fake PageSpeed Insights over HTTP),
reuse, limits, the address rule (with a stubbed resolver: no DNS), the lead, the report e-mail,
the newsletter (fake Kit), `agency speedtest` and what the speedtest api hands other modules."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.app import create_app
from agency.core import jobs, mail
from agency.core.errors import ValidationFailed
from agency.core.web import job_runner, settings_of
from agency.modules.analysis.service import analyses
from agency.modules.leads import api as leads_api
from agency.modules.leads.models import Lead
from agency.modules.leads.service import leads
from agency.modules.speedtest import api as speedtest_api
from agency.modules.speedtest.models import SpeedTest
from agency.modules.speedtest.service import speed_providers, speedtests
from agency.modules.speedtest.service.speed_providers import (
    MSG_GENERIC,
    MSG_INVALID_RESPONSE,
    MSG_QUOTA,
    MSG_RUN_FAILED,
    MSG_UNREACHABLE,
)
from agency.modules.speedtest.settings import SpeedtestSettings
from agency.net import addresses
from agency.settings import Settings
from tests.conftest import make_settings, run_agency
from tests.fakes.kit import run_fake_kit
from tests.fakes.pagespeed import FakePageSpeed, run_fake_pagespeed, score_for, success_body
from tests.helpers.http import HEADERS, PASSWORD, sign_up

EMAIL = "owner@shop.example"
DOMAIN_MESSAGE = "Please enter a valid domain (e.g., example.com)"
SOURCES = ["speed-test", "clinic-speed-test", "coach-speed-test"]


class Resolver:
    """A stub DNS: name -> addresses, recording every name asked for (tests send no DNS)."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.asked: list[str] = []

    async def __call__(self, host: str) -> Sequence[str]:
        self.asked.append(host)
        if host not in self.table:
            raise addresses.Unresolvable(host)
        return self.table[host]


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> Resolver:
    resolver = Resolver({})
    monkeypatch.setattr(addresses, "system_resolver", resolver)
    return resolver


def settings_for(tmp_path: Path, database_url: str, psi: FakePageSpeed, **extra: Any) -> Any:
    values: dict[str, Any] = {
        "pagespeed_api_base": psi.base_url,
        "pagespeed_timeout": 1.0,
        "speedtest_unsafe_allow_private_targets": True,
        "base_url": "http://agency.example",
        "trusted_proxies": 1,
    }
    values.update(extra)
    return make_settings(tmp_path, database_url, **values)


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, psi: FakePageSpeed) -> Settings:
    """The settings of this module's `app` (tests/conftest.py): the fake PageSpeed, one proxy."""
    return settings_for(tmp_path, database_url, psi)


async def call(
    app: Any, method: str, path: str, body: Any = None, ip: str = "203.0.113.7"
) -> tuple[int, Any, Any]:
    headers = {**HEADERS, "X-Forwarded-For": ip}
    response = await getattr(app.test_client(), method)(path, json=body, headers=headers)
    data = await response.get_json() if response.content_length else None
    return response.status_code, data, response.headers


async def start(app: Any, url: str, **extra: Any) -> tuple[int, Any]:
    body = {"url": url, "email": EMAIL, "source": "speed-test", **extra}
    status, data, _ = await call(app, "post", "/api/speed-tests", body, extra.pop("ip", "1.2.3.4"))
    return status, data


async def finish(app: Any, test_id: str) -> Any:
    """Run the queued jobs (the test's and its e-mail's) and read the test back."""
    await job_runner(app.app).drain()
    status, data, _ = await call(app, "get", f"/api/speed-tests/{test_id}")
    assert status == 200
    return data


def expected(host: str, strategy: str = "mobile") -> dict[str, Any]:
    """The figures the fake's answer carries, read from it as the spec says (§7)."""
    score = score_for(host, strategy)
    audits = success_body(f"https://{host}", strategy, score)["lighthouseResult"]["audits"]
    return {
        "score": score,
        "speed_index_ms": js_round(audits["speed-index"]["numericValue"]),
        "total_blocking_time_ms": js_round(audits["total-blocking-time"]["numericValue"]),
        "largest_contentful_paint_ms": js_round(audits["largest-contentful-paint"]["numericValue"]),
    }


def js_round(value: float) -> int:
    """Math.round, as the spec's page rounded (halves up, not to even)."""
    return math.floor(value + 0.5)


async def prune_all(settings: Any, now: datetime) -> dict[str, int]:
    """The retention hooks of the three modules insights was split into, as one dict."""
    return {
        **await leads.prune_leads(settings, now),
        **await speedtests.prune(settings, now),
        **await analyses.prune(settings, now),
    }


# ---------------------------------------------------------------------------------------------
# Validation, page by page (spec §5)


@pytest.mark.parametrize(
    ("source", "url", "email", "field", "message"),
    [
        ("speed-test", "", EMAIL, "url", "Please enter a website URL"),
        ("speed-test", "   ", "", "url", "Please enter a website URL"),
        ("speed-test", "example.com", "", "email", "Please enter your email address"),
        ("speed-test", "not a domain", "", "email", "Please enter your email address"),
        (
            "speed-test",
            "localhost",
            EMAIL,
            "url",
            "Please enter a valid domain (e.g., example.com)",
        ),
        (
            "speed-test",
            "example.c0m",
            EMAIL,
            "url",
            "Please enter a valid domain (e.g., example.com)",
        ),
        ("speed-test", "example.com/pricing", EMAIL, "url", speedtests.MSG_DOMAIN),
        ("speed-test", "ftp://example.com", EMAIL, "url", speedtests.MSG_DOMAIN),
        ("speed-test", "example.com", "owner@", "email", "Please enter a valid email address"),
        ("clinic-speed-test", "", EMAIL, "url", "Please enter a website URL"),
        ("clinic-speed-test", "clinic.example", " ", "email", "Please enter your email address"),
        ("clinic-speed-test", "two words", EMAIL, "url", speedtests.MSG_DOMAIN),
        ("coach-speed-test", "https://", EMAIL, "url", speedtests.MSG_DOMAIN),
        ("coach-speed-test", "user@coach.example", EMAIL, "url", speedtests.MSG_DOMAIN),
        ("coach-speed-test", "coach.example:99999", EMAIL, "url", speedtests.MSG_DOMAIN),
        ("coach-speed-test", "coach.example", "a b@c.de", "email", speedtests.MSG_EMAIL_INVALID),
    ],
)
async def test_each_page_refuses_with_the_spec_message(
    app: Any, source: str, url: str, email: str, field: str, message: str
) -> None:
    body = {"url": url, "email": email, "source": source}
    status, data, _ = await call(app, "post", "/api/speed-tests", body)
    assert status == 400, data
    assert data["error"]["message"] == message
    assert data["error"]["fields"] == {field: message}
    assert await SpeedTest.all().count() == 0 and await Lead.all().count() == 0


@pytest.mark.parametrize(
    ("source", "url", "domain", "tested"),
    [
        ("speed-test", "https://www.Example.com/", "example.com", "https://example.com"),
        (
            "speed-test",
            "HTTP://shop.example.co.uk",
            "shop.example.co.uk",
            "http://shop.example.co.uk",
        ),
        (
            "clinic-speed-test",
            "www.clinic.example/team?x=1",
            "www.clinic.example",
            "https://www.clinic.example",
        ),
        (
            "coach-speed-test",
            "https://coach.example:8443/",
            "coach.example:8443",
            "https://coach.example:8443",
        ),
    ],
)
async def test_each_page_cleans_the_domain_its_way(
    app: Any, source: str, url: str, domain: str, tested: str
) -> None:
    status, data = await start(app, url, source=source)
    assert status == 202, data
    assert (data["status"], data["domain"], data["strategy"]) == ("queued", domain, "mobile")
    assert data["result"] is None and data["error"] is None
    row = await SpeedTest.get(public_id=data["id"])
    assert (row.url, row.source, row.email) == (tested, source, EMAIL)


async def test_unknown_page_and_strategy_are_refused(app: Any) -> None:
    for body in (
        {"url": "example.com", "email": EMAIL, "source": "elsewhere"},
        {"url": "example.com", "email": EMAIL, "source": "speed-test", "strategy": "tablet"},
    ):
        status, _, _ = await call(app, "post", "/api/speed-tests", body)
        assert status == 400
    assert await SpeedTest.all().count() == 0


_LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?", fullmatch=True)
_TLD = st.from_regex(r"[a-z]{2,10}", fullmatch=True)
_HOSTS = st.builds(
    lambda labels, tld: ".".join([*labels, tld]), st.lists(_LABEL, min_size=1, max_size=3), _TLD
)


@given(
    host=_HOSTS,
    scheme=st.sampled_from(["", "http://", "https://", "HTTPS://"]),
    www=st.sampled_from(["", "www.", "WWW."]),
    slash=st.sampled_from(["", "/"]),
    upper=st.booleans(),
)
def test_the_generic_rule_accepts_any_labelled_host_however_typed(
    host: str, scheme: str, www: str, slash: str, upper: bool
) -> None:
    typed = scheme + www + (host.upper() if upper else host) + slash
    target, email = speedtests.check_request("speed-test", typed, " Owner@Shop.Example ")
    assert target.domain == host
    assert target.url == ("http://" if scheme == "http://" else "https://") + host
    assert email == "owner@shop.example"
    # The clinic and coach pages strip only the scheme: www. stays part of the host.
    lenient, _ = speedtests.check_request("clinic-speed-test", typed, EMAIL)
    assert lenient.domain == (www.lower() + host)


@given(
    host=_HOSTS,
    junk=st.sampled_from(["/path", " x", "?q=1", ":80", "#top", "_", "..", "/a/"]),
)
def test_the_generic_rule_refuses_anything_but_a_host(host: str, junk: str) -> None:
    assert not speedtests.valid_generic_domain(host + junk) or junk == "/"
    with pytest.raises(ValidationFailed) as refused:
        speedtests.check_request("speed-test", host + junk, EMAIL)
    assert refused.value.fields == {"url": speedtests.MSG_DOMAIN}


@given(host=_HOSTS.filter(lambda h: "." in h).map(lambda h: h.rsplit(".", 1)[0] + ".1"))
def test_a_numeric_top_level_part_is_not_a_domain(host: str) -> None:
    assert not speedtests.valid_generic_domain(host)


@given(raw=st.text(max_size=80), source=st.sampled_from(SOURCES))
def test_any_url_is_a_testable_host_or_a_validation_error(raw: str, source: str) -> None:
    try:
        target = speedtests.target_for(source, raw)
    except ValidationFailed as refused:
        assert set(refused.fields) == {"url"}
        return
    assert target.domain and target.domain == target.domain.lower()
    assert not any(c.isspace() or c in "/?#@" for c in target.domain)
    assert len(target.domain) <= 261
    assert target.url in (f"https://{target.domain}", f"http://{target.domain}")
    host = target.hostname
    assert addresses.parse_ip_literal(host) is not None or speedtests.valid_host(host)


@given(score=st.integers(min_value=0, max_value=100))
def test_the_rating_follows_the_spec_thresholds(score: int) -> None:
    rating = speedtests.rating(score)
    assert (rating == "Excellent") == (score >= 90)
    assert (rating == "Needs Improvement") == (70 <= score < 90)
    assert (rating == "Poor") == (score < 70)


@given(a=st.integers(0, 100), b=st.integers(0, 100))
def test_a_better_score_never_rates_worse(a: int, b: int) -> None:
    order = ["Poor", "Needs Improvement", "Excellent"]
    low, high = sorted((a, b))
    assert order.index(speedtests.rating(low)) <= order.index(speedtests.rating(high))


# ---------------------------------------------------------------------------------------------
# The job, against the fake PageSpeed Insights


async def test_a_test_runs_to_done_with_the_figures_and_the_report(
    app: Any, psi: FakePageSpeed
) -> None:
    status, queued = await start(app, "slow.example")
    assert status == 202 and queued["status"] == "queued"
    done = await finish(app, queued["id"])
    assert done["status"] == "done" and done["error"] is None
    result = done["result"]
    want = expected("slow.example")
    assert {k: result[k] for k in want} == want
    assert result["rating"] == "Poor" and result["provider"] == "psi"
    assert result["cumulative_layout_shift"] is not None
    assert result["first_contentful_paint_ms"] is not None
    assert {m["name"] for m in result["field_data"]} >= {"LCP", "CLS"}
    savings = [o["savings_ms"] for o in result["opportunities"]]
    assert 1 <= len(savings) <= 3 and savings == sorted(savings, reverse=True)
    [asked] = psi.requests
    assert (asked.url, asked.strategy) == ("https://slow.example", "mobile")

    [report] = await mail.OutboundMail.filter(to=EMAIL)
    assert "slow.example" in report.subject and f"{result['score']}/100" in report.subject
    for text in (report.text, report.html or ""):
        assert "Poor" in text
        # As the result page writes them (test_figure_cases.py: one rounding for both).
        assert speedtests.seconds_text(result["speed_index_ms"]) in text
        assert speedtests.milliseconds_text(result["total_blocking_time_ms"]) in text
        assert speedtests.seconds_text(result["largest_contentful_paint_ms"]) in text
        assert speedtests.layout_shift_text(result["cumulative_layout_shift"]) in text
        assert "Largest contentful paint" in text and "Chrome users" in text
        for opportunity in result["opportunities"]:
            assert opportunity["title"] in text
        # A service e-mail: the report asked for, no advertising of the packages.
        assert "/start" not in text and "Fix My Website Now" not in text
        assert "Your site is too slow" in text and "it signs you up for nothing" in text


async def test_a_fast_site_without_field_data_reports_what_there_is(app: Any) -> None:
    _, queued = await start(app, "nofield.example", strategy="desktop")
    done = await finish(app, queued["id"])
    assert done["strategy"] == "desktop" and done["result"]["field_data"] == []
    assert done["result"]["score"] == score_for("nofield.example", "desktop")
    [report] = await mail.OutboundMail.filter(to=EMAIL)
    assert "Chrome users" not in report.text and "Needs Improvement" in report.text


@pytest.mark.parametrize(
    ("host", "message", "fake_calls"),
    [
        ("down.example", MSG_UNREACHABLE, 1),
        ("nocategory.example", MSG_INVALID_RESPONSE, 1),
        ("garbage.example", MSG_INVALID_RESPONSE, 1),
        ("quota.example", MSG_QUOTA, 1),
        (
            "oops.example",
            "Lighthouse returned error: Something went wrong.",
            1,
        ),
        ("badgateway.example", MSG_RUN_FAILED, 2),  # worth one more try
        ("hang.example", MSG_GENERIC, 2),  # past the timeout, twice
    ],
)
async def test_failures_end_failed_with_the_spec_message(
    app: Any, psi: FakePageSpeed, host: str, message: str, fake_calls: int
) -> None:
    _, queued = await start(app, host)
    data = await finish(app, queued["id"])
    if fake_calls > 1:  # the retry waits for its back-off: make it due now
        assert data["status"] == "queued"
        await jobs.Job.filter(kind=speedtests.JOB_KIND).update(run_at=datetime.now(UTC))
        data = await finish(app, queued["id"])
    assert data["status"] == "failed" and data["result"] is None
    assert data["error"] == message
    assert len(psi.requests) == fake_calls
    assert await jobs.Job.filter(kind=speedtests.JOB_KIND, status=jobs.FAILED).count() == 1
    assert await mail.OutboundMail.filter(to=EMAIL).count() == 0  # no report without a result


async def test_an_unexpected_error_fails_with_the_generic_message(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(speed_providers, "provider_for", broken)
    _, queued = await start(app, "fast.example")
    data = await finish(app, queued["id"])
    assert (data["status"], data["error"]) == ("failed", MSG_GENERIC)


async def test_a_result_is_reused_for_the_same_domain_and_strategy(
    app: Any, psi: FakePageSpeed
) -> None:
    _, first = await start(app, "mid.example")
    first = await finish(app, first["id"])
    status, second = await start(app, "https://www.mid.example/", email="two@shop.example")
    assert status == 202 and second["status"] == "done" and second["id"] != first["id"]
    assert second["result"] == first["result"]
    assert len(psi.requests) == 1
    _, desktop = await start(app, "mid.example", strategy="desktop")
    assert desktop["status"] == "queued"
    await job_runner(app.app).drain()
    assert [m.to for m in await mail.OutboundMail.filter(to__not="x").order_by("id")] == [
        EMAIL,
        "two@shop.example",
        EMAIL,
    ]
    # Reused answers repeat a measurement: the history holds the two real ones.
    assert [t.id for t in await speedtest_api.speed_history("mid.example")] == [first["id"]]
    latest = await speedtest_api.latest_speed_test("mid.example")
    assert latest is not None and latest.id == second["id"]


async def test_reuse_ends_after_the_window_and_can_be_turned_off(
    tmp_path: Path, database_url: str, psi: FakePageSpeed
) -> None:
    settings = settings_for(tmp_path, database_url, psi, speedtest_reuse_minutes=0)
    async with create_app(settings).test_app() as app:
        _, first = await start(app, "mid.example")
        await finish(app, first["id"])
        _, again = await start(app, "mid.example")
        assert again["status"] == "queued"
    settings = settings_for(tmp_path, database_url, psi, speedtest_reuse_minutes=5)
    async with create_app(settings).test_app() as app:
        await SpeedTest.all().update(finished_at=datetime.now(UTC) - timedelta(minutes=6))
        _, late = await start(app, "mid.example")
        assert late["status"] == "queued"


async def test_tests_are_limited_per_address_and_per_domain(app: Any) -> None:
    for n in range(speedtests.TESTS_PER_ADDRESS.limit):
        status, _ = await start(app, f"site-{n}.example", ip="198.51.100.1")
        assert status == 202
    status, data, headers = await call(
        app,
        "post",
        "/api/speed-tests",
        {"url": "one-more.example", "email": EMAIL, "source": "speed-test"},
        "198.51.100.1",
    )
    assert status == 429 and data["error"]["message"].startswith("Too many attempts.")
    assert int(headers["Retry-After"]) > 0
    # Another visitor is not held back by the first; one domain is, whoever asks.
    for n in range(speedtests.TESTS_PER_DOMAIN.limit):
        status, data = await start(
            app, "busy.example", ip=f"10.0.{n}.1", strategy="mobile" if n % 2 else "desktop"
        )
        assert status == 202 and data["status"] == "queued"
    status, data = await start(app, "busy.example", ip="10.9.9.9")
    assert status == 429


async def test_the_e_mail_is_one_lead_of_its_page_with_the_domain(app: Any) -> None:
    status, data = await start(app, "coach.example", source="coach-speed-test")
    assert status == 202
    assert data["notice"] == (
        "Your speed report will arrive at owner@shop.example in about 60 seconds."
    )
    assert data["newsletter"] is None
    await start(app, "coach.example", source="coach-speed-test", ip="1.2.3.5")
    [lead] = await Lead.all()
    assert (lead.email, lead.source, lead.domain) == (EMAIL, "coach-speed-test", "coach.example")
    assert leads_api.label_of(lead.source) == "Speed test (coaches)"
    await start(app, "coach.example", source="speed-test")
    assert await Lead.filter(source="speed-test", domain="coach.example").count() == 1


async def test_a_test_left_unfinished_reads_failed_and_a_crashed_run_runs_again(
    app: Any,
) -> None:
    _, stuck = await start(app, "fast.example")
    await SpeedTest.filter(public_id=stuck["id"]).update(
        created_at=datetime.now(UTC) - speedtests.STALE_AFTER - timedelta(minutes=1)
    )
    _, data, _ = await call(app, "get", f"/api/speed-tests/{stuck['id']}")
    assert (data["status"], data["error"]) == ("failed", MSG_GENERIC)
    await job_runner(app.app).drain()  # its job, late, changes nothing
    _, data, _ = await call(app, "get", f"/api/speed-tests/{stuck['id']}")
    assert data["status"] == "failed"

    # A runner died mid-test: the row says running, the job's lease ran out; it runs again.
    _, crashed = await start(app, "mid.example")
    earlier = datetime.now(UTC) - timedelta(minutes=3)
    await SpeedTest.filter(public_id=crashed["id"]).update(status="running", started_at=earlier)
    await jobs.Job.filter(kind=speedtests.JOB_KIND, status=jobs.QUEUED).update(
        status=jobs.RUNNING, attempts=1, locked_by="dead:1:1", locked_until=earlier
    )
    data = await finish(app, crashed["id"])
    assert data["status"] == "done" and data["result"]["score"] == score_for(
        "mid.example", "mobile"
    )


async def test_the_server_runs_the_test_in_the_background_and_the_page_polls_it(
    tmp_path: Path, database_url: str, psi: FakePageSpeed
) -> None:
    """As in production: the server's own job runner (woken by the POST) runs the test while
    the page polls; the report e-mail follows."""
    psi.delay = 0.3
    settings = settings_for(tmp_path, database_url, psi, run_jobs=True)
    async with create_app(settings).test_app() as app:
        status, queued = await start(app, "score-72.example")
        assert status == 202 and queued["status"] == "queued"
        seen = []
        for _ in range(200):
            _, data, _ = await call(app, "get", f"/api/speed-tests/{queued['id']}")
            if not seen or seen[-1] != data["status"]:
                seen.append(data["status"])
            if data["status"] in ("done", "failed"):
                break
            await asyncio.sleep(0.05)
        assert seen[-1] == "done" and "running" in seen, seen
        assert data["result"]["score"] == 72 and data["result"]["rating"] == "Needs Improvement"
        for _ in range(100):
            if await mail.OutboundMail.filter(to=EMAIL).exists():
                break
            await asyncio.sleep(0.05)
        assert await mail.OutboundMail.filter(to=EMAIL).count() == 1


async def test_a_runner_that_stops_mid_test_puts_it_back_for_the_next(
    app: Any, psi: FakePageSpeed
) -> None:
    psi.delay = 2.0
    _, queued = await start(app, "fast.example")
    settings = settings_of(SpeedtestSettings, app.app)
    run = asyncio.create_task(speedtests.run_speed_test(settings, queued["id"]))
    for _ in range(100):
        if psi.requests:
            break
        await asyncio.sleep(0.02)
    assert (await SpeedTest.get(public_id=queued["id"])).status == "running"
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert (await SpeedTest.get(public_id=queued["id"])).status == "queued"
    psi.delay = 0
    await speedtests.run_speed_test(settings, queued["id"])
    assert (await SpeedTest.get(public_id=queued["id"])).status == "done"


async def test_two_runners_at_once_run_a_test_once(app: Any, psi: FakePageSpeed) -> None:
    psi.delay = 0.3
    _, queued = await start(app, "fast.example")
    settings = settings_of(SpeedtestSettings, app.app)
    await asyncio.gather(
        speedtests.run_speed_test(settings, queued["id"]),
        speedtests.run_speed_test(settings, queued["id"]),
    )
    assert len(psi.requests) == 1
    row = await SpeedTest.get(public_id=queued["id"])
    assert row.status == "done"
    assert await mail.OutboundMail.filter(to=EMAIL).count() == 1
    await speedtests.run_speed_test(settings, queued["id"])  # a late re-run: nothing happens
    assert len(psi.requests) == 1


# ---------------------------------------------------------------------------------------------
# The address rule (no DNS: the resolver is a stub)


@pytest.fixture
async def guarded(tmp_path: Path, database_url: str, psi: FakePageSpeed, dns: Resolver) -> Any:
    settings = settings_for(
        tmp_path, database_url, psi, speedtest_unsafe_allow_private_targets=False
    )
    app = create_app(settings)
    async with app.test_app() as test_app:
        yield test_app


@pytest.mark.parametrize(
    ("source", "url", "resolves_to"),
    [
        ("speed-test", "intranet.example", ["10.1.2.3"]),
        ("speed-test", "metadata.example", ["169.254.169.254"]),
        ("speed-test", "mixed.example", ["93.184.216.34", "127.0.0.1"]),
        ("speed-test", "mapped.example", ["::ffff:192.168.1.1"]),
        ("speed-test", "cgnat.example", ["100.64.0.1"]),
        ("clinic-speed-test", "127.0.0.1", None),
        ("clinic-speed-test", "http://2130706433/", None),
        ("coach-speed-test", "0x7f.1", None),
        ("coach-speed-test", "0177.0.0.1:8080", None),
        ("coach-speed-test", "[::1]", None),
        ("coach-speed-test", "[fd00::1]:443", None),
    ],
)
async def test_addresses_on_our_machine_or_network_are_refused(
    guarded: Any, dns: Resolver, source: str, url: str, resolves_to: list[str] | None
) -> None:
    if resolves_to is not None:
        dns.table[url] = resolves_to
    status, data = await start(guarded, url, source=source)
    assert status == 400, data
    assert data["error"]["fields"] == {"url": "This address cannot be tested."}
    assert dns.asked == ([url] if resolves_to is not None else [])  # literals are not looked up
    assert await SpeedTest.all().count() == 0


async def test_a_public_name_is_tested_and_an_unknown_one_is_refused(
    guarded: Any, dns: Resolver
) -> None:
    dns.table["fast.example"] = ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]
    status, data = await start(guarded, "fast.example")
    assert status == 202 and data["status"] == "queued"
    status, data = await start(guarded, "nowhere.example")
    assert status == 400 and data["error"]["fields"] == {"url": MSG_UNREACHABLE}
    assert dns.asked == ["fast.example", "nowhere.example"]


async def test_local_lighthouse_looks_the_name_up_again_before_it_runs(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, dns: Resolver
) -> None:
    """A name that pointed at a public address when the test was asked for, and at our own
    machine when it runs (DNS rebinding), is refused before any browser starts."""
    settings = settings_for(
        tmp_path,
        database_url,
        psi,
        speedtest_unsafe_allow_private_targets=False,
        speedtest_provider="lighthouse",
        lighthouse_path=str(tmp_path / "no-lighthouse-here"),
    )
    async with create_app(settings).test_app() as app:
        dns.table["rebind.example"] = ["93.184.216.34"]
        dns.table["gone.example"] = ["93.184.216.34"]
        _, rebound = await start(app, "rebind.example")
        _, gone = await start(app, "gone.example")
        dns.table["rebind.example"] = ["127.0.0.1"]
        del dns.table["gone.example"]
        data = await finish(app, rebound["id"])
        assert (data["status"], data["error"]) == ("failed", "This address cannot be tested.")
        data = await finish(app, gone["id"])
        assert (data["status"], data["error"]) == ("failed", MSG_UNREACHABLE)
        assert dns.asked.count("rebind.example") == 2


# ---------------------------------------------------------------------------------------------
# The newsletter: only with the opt-in box (tests/leads/test_newsletter_consent.py has the rest)


@pytest.mark.parametrize("version", ["v3", "v4"])
async def test_the_box_subscribes_with_kit_and_no_box_does_not(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, version: str
) -> None:
    with run_fake_kit() as kit:
        settings = settings_for(
            tmp_path,
            database_url,
            psi,
            kit_api_base=kit.base_url,
            kit_api_key=kit.api_key,
            kit_form_id=kit.form_id,
            kit_api_version=version,
        )
        async with create_app(settings).test_app() as app:
            status, data = await start(app, "unticked.example")
            assert status == 202 and data["newsletter"] is None
            assert kit.requests == []
            status, data = await start(app, "ticked.example", newsletter=True)
            assert status == 202, data
            assert data["newsletter"] == {
                "subscribed": True,
                "message": "You're subscribed to the newsletter.",
            }
            assert kit.on_form(EMAIL)
            assert await Lead.filter(email=EMAIL).count() == 1


async def test_a_kit_failure_is_said_and_the_test_runs(
    tmp_path: Path, database_url: str, psi: FakePageSpeed
) -> None:
    with run_fake_kit() as kit:
        settings = settings_for(
            tmp_path,
            database_url,
            psi,
            kit_api_base=kit.base_url,
            kit_api_key="wrong-key",
            kit_form_id=kit.form_id,
        )
        async with create_app(settings).test_app() as app:
            status, data = await start(app, "kit-down.example", newsletter=True)
            assert status == 202 and data["status"] == "queued"
            assert data["newsletter"]["subscribed"] is False
            assert data["newsletter"]["message"].startswith("Error subscribing to ConvertKit: ")
            assert len(data["newsletter"]["message"]) > len("Error subscribing to ConvertKit: ")
            done = await finish(app, data["id"])
            assert done["status"] == "done"
            assert await Lead.filter(email=EMAIL).count() == 1


# ---------------------------------------------------------------------------------------------
# The visitor's data: export, erasure, retention


async def test_an_account_exports_and_erases_its_speed_tests(app: Any) -> None:
    client = app.test_client()
    assert (await sign_up(client, email=EMAIL))[0] == 201
    _, queued = await start(app, "fast.example")
    await finish(app, queued["id"])
    response = await client.get("/api/account/export", headers=HEADERS)
    exported = (await response.get_json())["insights"]
    [test] = exported["speed_tests"]
    assert (test["id"], test["domain"], test["email"]) == (queued["id"], "fast.example", EMAIL)
    assert [lead["email"] for lead in exported["leads"]] == [EMAIL]
    response = await client.post(
        "/api/account/delete", json={"current_password": PASSWORD}, headers=HEADERS
    )
    assert response.status_code == 204
    row = await SpeedTest.get(public_id=queued["id"])
    assert row.email is None and row.score is not None  # the history stays, without the e-mail
    assert await Lead.all().count() == 0


async def test_the_e_mail_on_a_speed_test_goes_after_the_leads_time(app: Any) -> None:
    settings = settings_of(SpeedtestSettings, app.app)
    _, old = await start(app, "fast.example")
    _, young = await start(app, "mid.example", email="young@shop.example")
    now = datetime.now(UTC)
    past = now - timedelta(days=settings.retention_leads_days, minutes=1)
    await SpeedTest.filter(public_id=old["id"]).update(created_at=past)
    await Lead.filter(email=EMAIL).update(created_at=past)
    removed = await prune_all(settings, now)
    assert removed == {
        "insights.leads": 1,
        "insights.speed_test_emails": 1,
        "insights.analyses": 0,
        "leads.newsletter_consents": 0,
    }
    emails = {t.public_id: t.email for t in await SpeedTest.all()}
    assert emails == {old["id"]: None, young["id"]: "young@shop.example"}
    assert (await prune_all(settings, now))["insights.speed_test_emails"] == 0


# ---------------------------------------------------------------------------------------------
# What other modules use: speedtest.api


async def test_another_module_starts_a_test_and_reads_the_history(app: Any) -> None:
    settings = settings_of(SpeedtestSettings, app.app)
    started = await speedtest_api.start_speed_test("Fast.Example", "mobile", settings)
    assert started.status == "queued" and started.domain == "fast.example"
    await job_runner(app.app).drain()
    latest = await speedtest_api.latest_speed_test("fast.example")
    assert latest is not None and latest.result is not None
    assert latest.result.score == score_for("fast.example", "mobile")
    assert await speedtest_api.latest_speed_test("fast.example", "desktop") is None
    row = await SpeedTest.get(public_id=started.id)
    assert (row.source, row.email) == ("dashboard", None)
    assert await mail.OutboundMail.all().count() == 0  # no e-mail given: no report
    with pytest.raises(ValidationFailed):
        await speedtest_api.start_speed_test("not a host", "mobile", settings)


# ---------------------------------------------------------------------------------------------
# agency speedtest


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_the_cli_runs_a_test_and_prints_a_table_or_json(tmp_path: Path) -> None:
    with run_fake_pagespeed() as fake:
        env = {
            "AGENCY_PAGESPEED_API_BASE": fake.base_url,
            "AGENCY_DATA_DIR": str(tmp_path / "data"),
        }
        shown = run_agency(tmp_path, "speedtest", "slow.example", **env)
        assert shown.returncode == 0, shown.stderr
        want = expected("slow.example")
        assert f"{want['score']}/100" in shown.stdout and "Poor" in shown.stdout
        assert f"{want['speed_index_ms']:,} ms" in shown.stdout

        printed = run_agency(
            tmp_path, "speedtest", "https://mid.example/", "--json", "--strategy", "desktop", **env
        )
        assert printed.returncode == 0, printed.stderr
        result = json.loads(printed.stdout)
        assert result["score"] == score_for("mid.example", "desktop")
        assert result["rating"] == "Needs Improvement" and result["provider"] == "psi"
        assert fake.requests[-1].strategy == "desktop"

        failed = run_agency(tmp_path, "speedtest", "down.example", **env)
        assert failed.returncode == 1 and MSG_UNREACHABLE in " ".join(failed.stderr.split())
        bad = run_agency(tmp_path, "speedtest", "not a domain", **env)
        assert bad.returncode == 2 and speedtests.MSG_DOMAIN in bad.stderr
