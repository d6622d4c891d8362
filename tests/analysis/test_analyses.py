"""The AI website analysis through the HTTP API, on SQLite and PostgreSQL: each page's
checks in the spec's order with its messages, the strict domain rule (hypothesis), limits, the
lead stored first, the job to done with the rules report and with the fake OpenAI, a provider
failure falling back to the rules, a site that cannot be fetched, the address rule at the POST
and at fetch time (a stub resolver: no DNS), the report e-mail, the speed test beside it, crash
safety, and `agency analyze`.

The visitor's site is the local customer site (`tests/fakes/customer_site.py`), reached through
`analysis_unsafe_fetch_overrides` with the unsafe private-targets setting (as in E2E); speed
tests go to the fake PageSpeed Insights."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.app import create_app
from agency.core import mail
from agency.core.errors import ValidationFailed
from agency.core.settings import SettingsError
from agency.core.web import job_runner, settings_of
from agency.modules.analysis.models import Analysis
from agency.modules.analysis.schemas import PageFactsOut
from agency.modules.analysis.service import analyses, analysis_scores
from agency.modules.analysis.settings import AnalysisSettings
from agency.modules.leads.models import Lead
from agency.modules.leads.service import leads
from agency.modules.leads.service.leads import MSG_EMAIL_INVALID
from agency.modules.speedtest.api import SpeedResultOut
from agency.modules.speedtest.models import SpeedTest
from agency.modules.speedtest.service import speedtests
from agency.net import addresses
from agency.settings import Settings, load_settings
from tests.conftest import make_settings, run_agency
from tests.fakes.customer_site import RICH_FACTS, CustomerSite
from tests.fakes.openai_server import run_fake_openai
from tests.fakes.pagespeed import FakePageSpeed, run_fake_pagespeed, score_for
from tests.helpers.http import HEADERS, PASSWORD, sign_up, signed_up

EMAIL = "owner@customer-site.com"
DOMAIN = "customer-site.com"  # passes the pages' strict rule; fetched from the local site
BARE = "bare-site.com"
DOWN = "down-site.com"  # fetched from a closed port
SLOW_PSI = "slow.example"  # the fake PageSpeed's 45
FAILING_PSI = "down.example"  # the fake PageSpeed's FAILED_DOCUMENT_REQUEST
PAGES = {
    "ai-analysis": "general",
    "business-analysis": "lead",
    "technical-analysis": "technical",
    "agency-analysis": "agency",
}
DOMAIN_MESSAGE = "Please enter a valid domain (e.g., example.com)"

REPORT = {
    "overview": "A dental clinic in Berlin with online booking through Calendly, a contact form "
    "and a phone number; the page could explain its prices better.",
    "salesFunnel": {
        "stages": [
            {
                "name": "Awareness",
                "description": "Found by people searching for a dentist in Berlin Mitte.",
                "improvements": ["Describe the third image for screen readers."],
            }
        ]
    },
    "customerJourney": {
        "touchpoints": [
            {
                "stage": "Booking",
                "description": "Visitors book a check-up in the Calendly widget.",
                "opportunities": ["Send a reminder the day before the visit."],
            }
        ]
    },
    "aiOpportunities": {
        "customerSupport": ["Answer the common questions about treatments at any hour."],
        "seo": ["Write a page for each treatment."],
        "personalization": ["Greet returning patients by name."],
    },
}


@pytest.fixture(autouse=True)
def quick_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyses, "SPEED_POLL_SECONDS", 0.05)


def overrides(site: CustomerSite) -> dict[str, str]:
    return {
        DOMAIN: f"{site.base_url}/",
        BARE: f"{site.base_url}/bare",
        DOWN: "http://127.0.0.1:1/",
        SLOW_PSI: f"{site.base_url}/",
        FAILING_PSI: f"{site.base_url}/",
        "huge-site.com": f"{site.base_url}/huge",
        "json-site.com": f"{site.base_url}/data.json",
        "slow-site.com": f"{site.base_url}/slow",
    }


def settings_for(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, site: CustomerSite, **extra: Any
) -> Any:
    values: dict[str, Any] = {
        "pagespeed_api_base": psi.base_url,
        "pagespeed_timeout": 1.0,
        "speedtest_unsafe_allow_private_targets": True,
        "analysis_unsafe_fetch_overrides": overrides(site),
        "base_url": "http://agency.example",
        "trusted_proxies": 1,
    }
    values.update(extra)
    return make_settings(tmp_path, database_url, **values)


@pytest.fixture
def app_settings(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, customer_site: CustomerSite
) -> Settings:
    """The settings of this module's `app` (tests/conftest.py): the fake PageSpeed and the
    local customer site, behind one proxy."""
    return settings_for(tmp_path, database_url, psi, customer_site)


async def call(
    app: Any, method: str, path: str, body: Any = None, ip: str = "203.0.113.7"
) -> tuple[int, Any, Any]:
    headers = {**HEADERS, "X-Forwarded-For": ip}
    response = await getattr(app.test_client(), method)(path, json=body, headers=headers)
    data = await response.get_json() if response.content_length else None
    return response.status_code, data, response.headers


async def start(
    app: Any, url: str, source: str = "ai-analysis", email: str = EMAIL, ip: str = "1.2.3.4"
) -> tuple[int, Any]:
    body = {"url": url, "email": email, "source": source}
    status, data, _ = await call(app, "post", "/api/analyses", body, ip)
    return status, data


async def finish(app: Any, analysis_id: str) -> Any:
    """Run the queued jobs (the analysis, its speed test, the e-mails) and read it back."""
    await job_runner(app.app).drain()
    status, data, _ = await call(app, "get", f"/api/analyses/{analysis_id}")
    assert status == 200
    return data


async def prune_all(settings: Any, now: datetime) -> dict[str, int]:
    """The retention hooks of the three modules insights was split into, as one dict."""
    return {
        **await leads.prune_leads(settings, now),
        **await speedtests.prune(settings, now),
        **await analyses.prune(settings, now),
    }


# ---------------------------------------------------------------------------------------------
# What the pages send


@pytest.mark.parametrize(("source", "variant"), sorted(PAGES.items()))
async def test_each_page_checks_in_the_spec_order_with_its_messages(
    app: Any, source: str, variant: str
) -> None:
    url_message = analyses.MSG_URL[variant]
    email_message = analyses.MSG_EMAIL[variant]
    cases = [
        ("", "", {"url": url_message}),
        ("  ", "x", {"url": url_message}),
        ("", EMAIL, {"url": url_message}),
        ("not a domain", "", {"email": email_message}),
        ("not a domain", EMAIL, {"url": DOMAIN_MESSAGE}),
        ("shop.customer-site.com", EMAIL, {"url": DOMAIN_MESSAGE}),  # a subdomain
        ("customer-site.com/about", EMAIL, {"url": DOMAIN_MESSAGE}),  # a path
        ("ab.com", EMAIL, {"url": DOMAIN_MESSAGE}),  # a name of 2 letters
        ("customer-site.com", "not-an-email", {"email": MSG_EMAIL_INVALID}),
    ]
    for url, email, fields in cases:
        status, data = await start(app, url, source, email)
        assert status == 400, (url, email, data)
        assert data["error"]["fields"] == fields, (url, email)
        assert data["error"]["message"] == next(iter(fields.values()))
    assert await Lead.all().count() == 0 and await Analysis.all().count() == 0
    assert url_message in (
        "Please enter a website URL",
        "Please enter your website URL",
        "Please enter your client's website URL",
    )


async def test_an_unknown_page_is_refused(app: Any) -> None:
    status, data = await start(app, DOMAIN, source="speed-test")
    assert status == 400 and await Analysis.all().count() == 0, data


@pytest.mark.parametrize(
    ("typed", "domain"),
    [
        ("customer-site.com", "customer-site.com"),
        ("https://www.Customer-Site.com/", "customer-site.com"),
        ("HTTP://customer-site.com", "customer-site.com"),
        ("  www.customer-site.com  ", "customer-site.com"),
    ],
)
async def test_the_domain_is_cleaned_as_the_pages_do(app: Any, typed: str, domain: str) -> None:
    status, data = await start(app, typed)
    assert status == 202, data
    assert data["domain"] == domain


LABEL = st.from_regex(r"[a-z0-9][a-z0-9-]{1,61}[a-z0-9]", fullmatch=True)
TLD = st.from_regex(r"[a-z]{2,10}", fullmatch=True)


@given(
    label=LABEL,
    tld=TLD,
    scheme=st.sampled_from(["", "http://", "https://", "HTTPS://"]),
    www=st.sampled_from(["", "www.", "WWW."]),
    slash=st.sampled_from(["", "/"]),
)
def test_the_domain_rule_accepts_one_label_and_a_tld_however_typed(
    label: str, tld: str, scheme: str, www: str, slash: str
) -> None:
    typed = f"{scheme}{www}{label}.{tld}{slash}"
    assert analyses.valid_domain(typed)
    assert analyses.check_request("ai-analysis", typed, EMAIL).domain == f"{label}.{tld}"


@given(
    label=LABEL,
    tld=TLD,
    junk=st.sampled_from(
        [
            "sub.{l}.{t}",
            "{l}.{t}/path",
            "{l}.{t}:8080",
            "-{l}.{t}",
            "{l}-.{t}",
            "{l}.{t}1",
            "{l}",
            "{l}.c",
            "{l}.{t}//",
            "{l}..{t}",
            "{l}.{t}.",
            "{l} .{t}",
            "{l}.1{t}",
            "ftp://{l}.{t}",
            "{l}_x.{t}",
            "127.0.0.1",
            "[::1]",
            "2130706433",
        ]
    ),
)
def test_the_domain_rule_refuses_anything_but_one_label_and_a_tld(
    label: str, tld: str, junk: str
) -> None:
    typed = junk.format(l=label, t=tld)
    assert not analyses.valid_domain(typed)


@given(raw=st.text(max_size=80))
def test_any_input_is_a_domain_or_the_domain_message(raw: str) -> None:
    try:
        asked = analyses.check_request("agency-analysis", raw, EMAIL)
    except ValidationFailed as exc:
        assert exc.message in (DOMAIN_MESSAGE, analyses.MSG_URL["agency"])
    else:
        assert analyses.valid_domain(asked.domain) and asked.domain == asked.domain.lower()


# ---------------------------------------------------------------------------------------------
# The job


async def test_an_analysis_runs_to_done_with_the_rules_and_the_report_e_mail(
    app: Any, psi: FakePageSpeed
) -> None:
    status, queued = await start(app, DOMAIN, source="business-analysis")
    assert status == 202, queued
    assert queued["status"] == "queued" and queued["variant"] == "lead"
    assert queued["notice"] == f"You'll receive your detailed analysis report at {EMAIL}"
    assert queued["report"] is None and queued["scores"] is None
    assert queued["speed_test"]["status"] == "queued"
    # The e-mail is registered first: a lead of the page, with the domain.
    [lead] = await Lead.all()
    assert (lead.source, lead.email, lead.domain) == ("business-analysis", EMAIL, DOMAIN)

    done = await finish(app, queued["id"])
    assert done["status"] == "done" and done["error"] is None
    assert done["generated_by"] == "rules"
    assert done["generated_note"] == analyses.NOTE_RULES
    assert "AI" not in done["generated_note"] and "configured" not in done["generated_note"]
    facts = done["facts"]
    for key in ("title", "meta_description", "h1", "forms", "phone", "booking_widgets"):
        assert facts[key] == RICH_FACTS[key], key
    report = done["report"]
    assert report["overview"] and report["sales_funnel"]["stages"]
    # The speed test beside it, and the scores derived from both.
    assert done["speed_test"]["status"] == "done"
    speed_score = done["speed_test"]["result"]["score"]
    scores = done["scores"]
    assert scores["speed"] == speed_score == score_for(DOMAIN, "mobile")
    assert scores["visitors_lost_percent"] == round((100 - speed_score) * 0.53 + 1e-9)
    assert isinstance(done["critical_issues"], list)
    [asked] = psi.requests
    assert asked.url == f"https://{DOMAIN}"

    [report_mail] = await mail.OutboundMail.filter(to=EMAIL)
    assert DOMAIN in report_mail.subject
    for text in (report_mail.text, report_mail.html or ""):
        assert f"{speed_score}/100" in text
        assert f"{scores['strategy']}/100" in text
        # A service e-mail: the report asked for, no advertising of the packages.
        assert "/start" not in text and "Implement These Improvements" not in text
        assert "it signs you up for nothing" in text
        assert analyses.NOTE_RULES in text and "configured" not in text
    assert report["sales_funnel"]["stages"][0]["name"] in report_mail.text
    assert (await Analysis.get(public_id=queued["id"])).report_sent


async def test_a_page_without_anything_gets_a_report_grounded_in_that(app: Any) -> None:
    _, queued = await start(app, BARE, source="technical-analysis")
    done = await finish(app, queued["id"])
    assert done["status"] == "done", done
    assert done["facts"]["title"] == "Welcome" and done["facts"]["forms"] == 0
    assert done["facts"]["booking_widgets"] == [] and done["critical_issues"]


async def test_the_ai_model_writes_the_report_when_configured(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, customer_site: CustomerSite
) -> None:
    # The model also answers scores of its own, and states one in a sentence: both ignored.
    answer = {
        **REPORT,
        "overview": REPORT["overview"] + " Its AI readiness score is 30/100.",
        "scores": {"strategy": 70, "funnel": 73, "aiReadiness": 30},
    }
    with run_fake_openai() as ai:
        ai.handler = lambda _messages, _model: answer
        settings = settings_for(
            tmp_path,
            database_url,
            psi,
            customer_site,
            ai_base_url=f"{ai.base_url}/v1",
            ai_api_key=ai.api_key,
            ai_model="test-model-1",
        )
        async with create_app(settings).test_app() as app:
            _, queued = await start(app, DOMAIN, source="agency-analysis")
            done = await finish(app, queued["id"])
            admin = await signed_up(app, "admin@agency.example", admin=True)
            response = await admin.get(f"/api/admin/analyses/{queued['id']}", headers=HEADERS)
            seen_by_admin = await response.get_json()
    assert done["status"] == "done", done
    assert done["generated_by"] == "ai"
    assert done["generated_note"] == analyses.NOTE_AI
    assert "test-model-1" not in json.dumps(done)
    assert seen_by_admin["generated_detail"] == "Written by the AI model test-model-1."
    assert done["report"]["overview"] == REPORT["overview"]
    [call_made] = ai.requests
    assert call_made.model == "test-model-1"
    # The model was given the facts found on the page, and the scores computed from them.
    prompt = json.dumps(call_made.messages)
    assert str(RICH_FACTS["title"]) in prompt
    facts = PageFactsOut.model_validate(done["facts"])
    assert analysis_scores.fact_scores_text(facts, "agency") in prompt
    # The scores are the facts' and the speed test's, not the model's.
    speed = SpeedResultOut.model_validate(done["speed_test"]["result"])
    expected = analysis_scores.derive_scores(facts, speed, "agency")
    assert done["scores"] == expected.model_dump(mode="json")
    assert (done["scores"]["strategy"], done["scores"]["funnel"]) != (70, 73)


async def test_the_scores_are_the_same_whether_the_ai_or_the_rules_wrote_the_report(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, customer_site: CustomerSite
) -> None:
    """The same page analysed twice, with the AI model (answering its own scores) and without:
    the visitor reads the same scores."""
    answer = {**REPORT, "scores": {"strategy": 1, "funnel": 2, "aiReadiness": 3, "speed": 4}}
    found: dict[str, Any] = {}
    with run_fake_openai() as ai:
        ai.handler = lambda _messages, _model: answer
        for name, extra in (
            ("ai", {"ai_base_url": f"{ai.base_url}/v1", "ai_api_key": ai.api_key}),
            ("rules", {}),
        ):
            settings = settings_for(tmp_path / name, database_url, psi, customer_site, **extra)
            async with create_app(settings).test_app() as app:
                for source in PAGES:
                    _, queued = await start(app, DOMAIN, source=source, ip=f"1.2.3.{len(found)}")
                    found[f"{name} {source}"] = await finish(app, queued["id"])
    for source in PAGES:
        with_ai, with_rules = found[f"ai {source}"], found[f"rules {source}"]
        assert (with_ai["generated_by"], with_rules["generated_by"]) == ("ai", "rules")
        assert with_ai["scores"] == with_rules["scores"], source
        assert with_ai["critical_issues"] == with_rules["critical_issues"], source


async def test_a_failing_ai_provider_falls_back_to_the_rules(
    tmp_path: Path,
    database_url: str,
    psi: FakePageSpeed,
    customer_site: CustomerSite,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with run_fake_openai() as ai:
        settings = settings_for(
            tmp_path,
            database_url,
            psi,
            customer_site,
            ai_base_url=f"{ai.base_url}/v1",
            ai_api_key="sk-wrong",
            ai_max_retries=0,
        )
        async with create_app(settings).test_app() as app:
            _, queued = await start(app, DOMAIN)
            done = await finish(app, queued["id"])
            assert ai.requests, "the provider was asked"
            path = f"/api/admin/analyses/{queued['id']}"
            denied = await app.test_client().get(path, headers=HEADERS)
            admin = await signed_up(app, "admin@agency.example", admin=True)
            seen_by_admin = await (await admin.get(path, headers=HEADERS)).get_json()
    assert done["status"] == "done", done
    assert done["generated_by"] == "rules"
    # The visitor reads what the report is based on; why the provider failed is the admin's.
    assert done["generated_note"] == analyses.NOTE_RULES
    seen = json.dumps({k: v for k, v in done.items() if k != "speed_test"})
    # As words: the fake site's random port may hold the digits 401 (CI saw 127.0.0.1:40137).
    assert not re.search(r"\b(failed|AI provider|401)\b", seen), seen
    assert done["report"]["overview"]
    detail = seen_by_admin["generated_detail"]
    assert detail.startswith("Written by the rules: the AI provider failed (")
    assert detail.endswith(").")
    [warning] = [r for r in caplog.records if "AI provider failed" in r.getMessage()]
    assert warning.levelname == "WARNING" and queued["id"] in warning.getMessage()
    # The admin's view is for admins only.
    assert denied.status_code in (401, 403)


async def test_a_site_that_cannot_be_fetched_fails_with_a_message(app: Any) -> None:
    _, down = await start(app, DOWN)
    failed = await finish(app, down["id"])
    assert failed["status"] == "failed"
    assert failed["error"] == analyses.MSG_UNREACHABLE
    assert failed["report"] is None and failed["scores"] is None and failed["facts"] is None
    assert failed["critical_issues"] == []
    _, json_site = await start(app, "json-site.com")
    failed = await finish(app, json_site["id"])
    assert failed["error"] == "The address does not lead to a web page (HTML)."
    _, huge = await start(app, "huge-site.com")
    failed = await finish(app, huge["id"])
    assert failed["error"] == "The page is too large to analyse."
    assert not await mail.OutboundMail.filter(to=EMAIL).exists()


async def test_a_failed_speed_test_leaves_the_report_and_its_error(app: Any) -> None:
    _, queued = await start(app, FAILING_PSI)
    done = await finish(app, queued["id"])
    assert done["status"] == "done"
    assert done["speed_test"]["status"] == "failed"
    assert done["speed_test"]["error"].startswith("Unable to access the website.")
    # No speed test to speak of: the note names the page's facts only.
    assert done["generated_note"] == analyses.NOTE_RULES_NO_SPEED
    scores = done["scores"]
    assert scores["speed"] is None and scores["visitors_lost_percent"] is None
    assert scores["load_time_seconds"] is None and scores["recurring_revenue"] is None
    [report_mail] = await mail.OutboundMail.filter(to=EMAIL)
    assert "Speed: -" in report_mail.text


async def test_a_crashed_run_runs_again_and_a_stale_one_reads_failed(
    app: Any, customer_site: CustomerSite
) -> None:
    _, stuck = await start(app, DOMAIN)
    await Analysis.filter(public_id=stuck["id"]).update(
        created_at=datetime.now(UTC) - analyses.STALE_AFTER - timedelta(minutes=1)
    )
    _, data, _ = await call(app, "get", f"/api/analyses/{stuck['id']}")
    assert (data["status"], data["error"]) == ("failed", analyses.MSG_GENERIC)

    # A runner died mid-run: the row says running, its job's lease ran out; it runs again.
    _, crashed = await start(app, BARE, ip="5.6.7.8")
    earlier = datetime.now(UTC) - timedelta(minutes=5)
    await Analysis.filter(public_id=crashed["id"]).update(status="running", started_at=earlier)
    data = await finish(app, crashed["id"])
    assert data["status"] == "done"
    assert await mail.OutboundMail.filter(to=EMAIL).count() == 1  # the crashed one's only


async def test_two_runners_at_once_run_an_analysis_once(
    app: Any, customer_site: CustomerSite
) -> None:
    _, queued = await start(app, BARE)
    settings = settings_of(AnalysisSettings, app.app)
    await speedtests.run_speed_test(settings, queued["speed_test"]["id"])
    before = customer_site.paths().count("/bare")
    await asyncio.gather(
        analyses.run_analysis(settings, queued["id"]),
        analyses.run_analysis(settings, queued["id"]),
    )
    assert customer_site.paths().count("/bare") == before + 1
    await job_runner(app.app).drain()
    assert (await Analysis.get(public_id=queued["id"])).status == "done"
    assert await mail.OutboundMail.filter(to=EMAIL).count() == 1
    await analyses.run_analysis(settings, queued["id"])  # a late re-run: nothing happens
    assert customer_site.paths().count("/bare") == before + 1
    assert await mail.OutboundMail.filter(to=EMAIL).count() == 1


async def test_a_runner_that_stops_mid_run_puts_the_analysis_back(
    app: Any, customer_site: CustomerSite
) -> None:
    _, queued = await start(app, "slow-site.com")
    settings = settings_of(AnalysisSettings, app.app)
    before = customer_site.paths().count("/slow")
    run = asyncio.create_task(analyses.run_analysis(settings, queued["id"]))
    for _ in range(200):
        if customer_site.paths().count("/slow") > before:
            break
        await asyncio.sleep(0.02)
    assert (await Analysis.get(public_id=queued["id"])).status == "running"
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert (await Analysis.get(public_id=queued["id"])).status == "queued"


async def test_the_server_runs_it_in_the_background_while_the_page_polls(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, customer_site: CustomerSite
) -> None:
    settings = settings_for(tmp_path, database_url, psi, customer_site, run_jobs=True)
    async with create_app(settings).test_app() as app:
        status, queued = await start(app, DOMAIN)
        assert status == 202
        for _ in range(200):
            _, data, _ = await call(app, "get", f"/api/analyses/{queued['id']}")
            if data["status"] in ("done", "failed") and data["speed_test"]["status"] == "done":
                break
            await asyncio.sleep(0.05)
        assert data["status"] == "done" and data["scores"]["speed"] is not None
        for _ in range(100):
            if await mail.OutboundMail.filter(to=EMAIL).exists():
                break
            await asyncio.sleep(0.05)
        assert await mail.OutboundMail.filter(to=EMAIL).count() == 1


# ---------------------------------------------------------------------------------------------
# Limits, unknown ids, the lead


async def test_analyses_are_limited_per_address_and_per_domain(app: Any) -> None:
    for _ in range(10):
        status, _ = await start(app, BARE, ip="9.9.9.9")
        assert status == 202
    status, data = await start(app, BARE, ip="9.9.9.9")
    assert status == 429, data
    for index in range(10):
        status, _ = await start(app, BARE, ip=f"8.8.8.{index}")
        assert status == 202
    status, data = await start(app, BARE, ip="7.7.7.7")
    assert status == 429, data  # the 21st analysis of one domain in the hour
    status, _ = await start(app, DOMAIN, ip="7.7.7.7")
    assert status == 202


async def test_one_visit_is_one_lead(app: Any) -> None:
    await start(app, DOMAIN, source="agency-analysis")
    await start(app, DOMAIN, source="agency-analysis")
    assert await Lead.filter(source="agency-analysis").count() == 1


@pytest.mark.parametrize("analysis_id", ["0" * 32, "nope", "x-y", "A" * 32])
async def test_an_unknown_analysis_is_404(app: Any, analysis_id: str) -> None:
    status, data, _ = await call(app, "get", f"/api/analyses/{analysis_id}")
    assert status == 404 and data["error"]["message"] == analyses.MSG_NOT_FOUND


async def test_the_speed_test_is_reused_for_a_domain_tested_recently(app: Any) -> None:
    _, first = await start(app, DOMAIN)
    await finish(app, first["id"])
    _, second = await start(app, DOMAIN, ip="4.4.4.4")
    assert second["speed_test"]["status"] == "done"
    assert await SpeedTest.filter(domain=DOMAIN).count() == 2


async def test_an_account_exports_and_erases_its_analyses(app: Any) -> None:
    client = app.test_client()
    assert (await sign_up(client, email=EMAIL))[0] == 201
    _, queued = await start(app, BARE)
    await finish(app, queued["id"])
    response = await client.get("/api/account/export", headers=HEADERS)
    [exported] = (await response.get_json())["insights"]["analyses"]
    assert (exported["id"], exported["domain"], exported["email"]) == (queued["id"], BARE, EMAIL)
    response = await client.post(
        "/api/account/delete", json={"current_password": PASSWORD}, headers=HEADERS
    )
    assert response.status_code == 204
    assert await Analysis.all().count() == 0


async def test_analyses_go_after_the_leads_time(app: Any) -> None:
    settings = settings_of(AnalysisSettings, app.app)
    _, old = await start(app, BARE)
    _, young = await start(app, DOMAIN, email="young@shop.example")
    now = datetime.now(UTC)
    past = now - timedelta(days=settings.retention_leads_days, minutes=1)
    await Analysis.filter(public_id=old["id"]).update(created_at=past)
    removed = await prune_all(settings, now)
    assert removed["insights.analyses"] == 1
    assert [row.public_id for row in await Analysis.all()] == [young["id"]]


# ---------------------------------------------------------------------------------------------
# The address rule (no DNS: the resolver is a stub)


class Resolver:
    """A stub DNS: name -> answers, one per lookup (the last one repeats)."""

    def __init__(self) -> None:
        self.table: dict[str, list[list[str]]] = {}
        self.asked: list[str] = []

    async def __call__(self, host: str) -> Sequence[str]:
        self.asked.append(host)
        answers = self.table.get(host)
        if not answers:
            raise addresses.Unresolvable(host)
        count = self.asked.count(host)
        return answers[min(count, len(answers)) - 1]


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> Resolver:
    resolver = Resolver()
    monkeypatch.setattr(addresses, "system_resolver", resolver)
    return resolver


@pytest.fixture
async def guarded(
    tmp_path: Path,
    database_url: str,
    psi: FakePageSpeed,
    customer_site: CustomerSite,
    dns: Resolver,
) -> Any:
    settings = settings_for(
        tmp_path,
        database_url,
        psi,
        customer_site,
        speedtest_unsafe_allow_private_targets=False,
        analysis_unsafe_fetch_overrides={},
    )
    async with create_app(settings).test_app() as app:
        yield app


@pytest.mark.parametrize(
    ("name", "answers"),
    [
        ("localtest.me", ["127.0.0.1"]),
        ("intranet.example", ["10.1.2.3"]),
        ("metadata.example", ["169.254.169.254"]),
        ("mixed.example", ["93.184.215.14", "127.0.0.1"]),
        ("mapped.example", ["::ffff:192.168.1.1"]),
        ("cgnat.example", ["100.64.0.1"]),
    ],
)
async def test_a_name_on_our_network_is_refused_at_once(
    guarded: Any, dns: Resolver, name: str, answers: list[str]
) -> None:
    dns.table[name] = [answers]
    status, data = await start(guarded, name)
    assert status == 400, data
    assert data["error"]["fields"] == {"url": "This address cannot be analysed."}
    assert await Analysis.all().count() == 0 and await SpeedTest.all().count() == 0


async def test_an_unknown_name_is_refused_as_unreachable(guarded: Any) -> None:
    status, data = await start(guarded, "nowhere-site.com")
    assert status == 400
    assert data["error"]["fields"] == {"url": analyses.MSG_UNREACHABLE}


async def test_a_name_that_turns_private_after_the_check_is_not_fetched(
    guarded: Any, dns: Resolver
) -> None:
    """Public at the POST, loopback when the job fetches: refused, nothing connected."""
    dns.table["rebind-site.com"] = [["93.184.215.14"], ["127.0.0.1"]]
    status, queued = await start(guarded, "rebind-site.com")
    assert status == 202, queued
    done = await finish(guarded, queued["id"])
    assert done["status"] == "failed"
    assert done["error"] == "This address cannot be analysed."


def test_the_fetch_overrides_need_the_unsafe_setting() -> None:
    with pytest.raises(SettingsError) as refused:
        load_settings(analysis_unsafe_fetch_overrides={DOMAIN: "http://127.0.0.1:8123"})
    assert "speedtest_unsafe_allow_private_targets" in str(refused.value)
    settings = load_settings(
        speedtest_unsafe_allow_private_targets=True,
        analysis_unsafe_fetch_overrides={"Customer-Site.com": "http://127.0.0.1:8123/"},
    )
    assert settings.analysis_unsafe_fetch_overrides == {DOMAIN: "http://127.0.0.1:8123"}


# ---------------------------------------------------------------------------------------------
# agency analyze


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_the_cli_analyses_a_site_and_prints_the_scores_or_json(
    tmp_path: Path, customer_site: CustomerSite
) -> None:
    with run_fake_pagespeed() as fake:
        env = {
            "AGENCY_PAGESPEED_API_BASE": fake.base_url,
            "AGENCY_DATA_DIR": str(tmp_path / "data"),
            "AGENCY_SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS": "true",
            "AGENCY_ANALYSIS_UNSAFE_FETCH_OVERRIDES": json.dumps(overrides(customer_site)),
        }
        shown = run_agency(tmp_path, "analyze", DOMAIN, "--variant", "technical", **env)
        assert shown.returncode == 0, shown.stderr
        speed = score_for(DOMAIN, "mobile")
        for text in ("Architecture", "Performance", "Security", f"{speed}/100"):
            assert text in shown.stdout, text
        assert "Technical Architecture Overview" in shown.stdout
        shown_text = " ".join(shown.stdout.split())
        assert analyses.NOTE_RULES in shown_text and analyses.DETAIL_NO_AI in shown_text

        printed = run_agency(tmp_path, "analyze", f"https://{DOMAIN}/", "--json", **env)
        assert printed.returncode == 0, printed.stderr
        data = json.loads(printed.stdout)
        assert data["variant"] == "general" and data["generated_by"] == "rules"
        assert data["generated_note"] == analyses.NOTE_RULES
        assert data["generated_detail"] == analyses.DETAIL_NO_AI
        assert data["facts"]["title"] == RICH_FACTS["title"]
        assert data["scores"]["speed"] == speed and data["speed"]["score"] == speed

        failed = run_agency(tmp_path, "analyze", DOWN, **env)
        assert failed.returncode == 1
        assert analyses.MSG_UNREACHABLE in " ".join(failed.stderr.split())
        bad = run_agency(tmp_path, "analyze", "not a domain", **env)
        assert bad.returncode == 2 and DOMAIN_MESSAGE in bad.stderr
