"""`agency_analyses_total{event,writer}`: website analyses counted as they are queued, end done
and fail, by who writes the report, on SQLite and PostgreSQL. `started` and `failed` carry the
writer configured (`ai` with an AI key, else `rules`), `done` the one that wrote the report (the
rules when the AI failed). Each test drives the feature as tests/analysis/test_analyses.py does
(the HTTP API, the local customer site, the fake PageSpeed Insights, the fake OpenAI, the job
runner) with metrics on in this process (a token, a metrics directory of the test's own), and
reads the counters back from the files as a scrape adds them up."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from agency.core.web import job_runner, settings_of
from agency.modules.analysis.models import Analysis
from agency.modules.analysis.service import analyses, page_audit
from agency.modules.analysis.settings import AnalysisSettings
from agency.modules.speedtest.service import speedtests
from tests.analysis.test_analyses import (
    BARE,
    DOMAIN,
    DOWN,
    REPORT,
    finish,
    quick_polls,  # noqa: F401 (autouse: the report e-mail polls its speed test quickly)
    settings_for,
    start,
)
from tests.core.test_metrics_rules import _collected, metrics_off_after  # noqa: F401 (autouse)
from tests.fakes.customer_site import CustomerSite
from tests.fakes.openai_server import FakeOpenAI, run_fake_openai
from tests.fakes.pagespeed import FakePageSpeed

COUNTER = "agency_analyses_total"


def metrics_on(tmp_path: Path) -> dict[str, Any]:
    """The settings that turn metrics on, into a directory of the test's own."""
    return {"metrics_token": "metrics-token", "metrics_dir": tmp_path / "metrics"}


def counted(tmp_path: Path, counter: str = COUNTER) -> dict[tuple[str, str], float]:
    """A counter's samples as a scrape reads them: (event, writer or provider) -> count."""
    found: dict[tuple[str, str], float] = {}
    for (name, label_set), value in _collected(tmp_path / "metrics").items():
        if name == counter:
            labels = dict(label_set)
            found[labels["event"], labels.get("writer", labels.get("provider", ""))] = value
    return found


@pytest.fixture
def app_settings(
    tmp_path: Path, database_url: str, psi: FakePageSpeed, customer_site: CustomerSite
) -> Any:
    """This module's `app` (tests/conftest.py): test_analyses.py's (no AI key), metrics on."""
    return settings_for(tmp_path, database_url, psi, customer_site, **metrics_on(tmp_path))


@pytest.fixture
def ai() -> Iterator[FakeOpenAI]:
    """The fake OpenAI, writing test_analyses.py's report."""
    with run_fake_openai() as fake:
        fake.handler = lambda _messages, _model: REPORT
        yield fake


def with_ai(
    tmp_path: Path,
    database_url: str,
    psi: FakePageSpeed,
    site: CustomerSite,
    ai: FakeOpenAI,
    **extra: Any,
) -> Any:
    """An app whose reports the fake OpenAI writes, with metrics on."""
    settings = settings_for(
        tmp_path,
        database_url,
        psi,
        site,
        **{
            "ai_base_url": f"{ai.base_url}/v1",
            "ai_api_key": ai.api_key,
            **metrics_on(tmp_path),
            **extra,
        },
    )
    return create_app(settings).test_app()


async def test_without_an_ai_key_the_rules_start_and_write_it(app: Any, tmp_path: Path) -> None:
    status, queued = await start(app, DOMAIN)
    assert status == 202, queued
    assert counted(tmp_path) == {("started", "rules"): 1}
    done = await finish(app, queued["id"])
    assert (done["status"], done["generated_by"]) == ("done", "rules")
    assert counted(tmp_path) == {("started", "rules"): 1, ("done", "rules"): 1}
    # The speed test beside it is a speed test like any other.
    speed = counted(tmp_path, "agency_speed_tests_total")
    assert speed == {("started", "psi"): 1, ("done", "psi"): 1}


async def test_the_ai_model_starts_and_writes_it_when_configured(
    tmp_path: Path,
    database_url: str,
    psi: FakePageSpeed,
    customer_site: CustomerSite,
    ai: FakeOpenAI,
) -> None:
    async with with_ai(tmp_path, database_url, psi, customer_site, ai) as app:
        _, queued = await start(app, DOMAIN)
        assert counted(tmp_path) == {("started", "ai"): 1}
        done = await finish(app, queued["id"])
    assert (done["status"], done["generated_by"]) == ("done", "ai") and ai.requests
    assert counted(tmp_path) == {("started", "ai"): 1, ("done", "ai"): 1}


async def test_a_failing_ai_is_started_as_ai_and_done_by_the_rules(
    tmp_path: Path,
    database_url: str,
    psi: FakePageSpeed,
    customer_site: CustomerSite,
    ai: FakeOpenAI,
) -> None:
    extra = {"ai_api_key": "sk-wrong", "ai_max_retries": 0}
    async with with_ai(tmp_path, database_url, psi, customer_site, ai, **extra) as app:
        _, queued = await start(app, DOMAIN)
        done = await finish(app, queued["id"])
    assert (done["status"], done["generated_by"]) == ("done", "rules") and ai.requests
    assert counted(tmp_path) == {("started", "ai"): 1, ("done", "rules"): 1}


async def test_a_site_that_cannot_be_fetched_is_one_failed_analysis(
    app: Any, tmp_path: Path
) -> None:
    _, down = await start(app, DOWN)
    assert (await finish(app, down["id"]))["status"] == "failed"
    _, json_site = await start(app, "json-site.com")
    assert (await finish(app, json_site["id"]))["status"] == "failed"
    assert counted(tmp_path) == {("started", "rules"): 2, ("failed", "rules"): 2}


async def test_a_failure_carries_the_writer_configured(
    tmp_path: Path,
    database_url: str,
    psi: FakePageSpeed,
    customer_site: CustomerSite,
    ai: FakeOpenAI,
) -> None:
    async with with_ai(tmp_path, database_url, psi, customer_site, ai) as app:
        _, down = await start(app, DOWN)
        assert (await finish(app, down["id"]))["status"] == "failed"
    assert ai.requests == []  # nothing to write about
    assert counted(tmp_path) == {("started", "ai"): 1, ("failed", "ai"): 1}


async def test_an_unexpected_error_is_one_failed_analysis(
    app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(page_audit, "audit_in_thread", broken)
    _, queued = await start(app, BARE)
    failed = await finish(app, queued["id"])
    assert (failed["status"], failed["error"]) == ("failed", analyses.MSG_GENERIC)
    assert counted(tmp_path) == {("started", "rules"): 1, ("failed", "rules"): 1}


async def test_two_runners_at_once_count_one_done(
    app: Any, tmp_path: Path, customer_site: CustomerSite
) -> None:
    _, queued = await start(app, BARE)
    settings = settings_of(AnalysisSettings, app.app)
    await speedtests.run_speed_test(settings, queued["speed_test"]["id"])
    await asyncio.gather(
        analyses.run_analysis(settings, queued["id"]),
        analyses.run_analysis(settings, queued["id"]),
    )
    await job_runner(app.app).drain()
    await analyses.run_analysis(settings, queued["id"])  # a late re-run: nothing happens
    assert (await Analysis.get(public_id=queued["id"])).status == "done"
    assert counted(tmp_path) == {("started", "rules"): 1, ("done", "rules"): 1}


async def test_refused_requests_start_nothing(app: Any, tmp_path: Path) -> None:
    status, _ = await start(app, "not a domain")
    assert status == 400
    status, _ = await start(app, DOMAIN, source="no-such-page")
    assert status == 400
    assert counted(tmp_path) == {}
