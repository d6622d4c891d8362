"""`agency_speed_tests_total{event,provider}`: speed tests counted as they start, end done and
fail for good, by the provider that ran them, on SQLite and PostgreSQL. Each test drives the
feature as tests/speedtest/test_speedtests.py does (the HTTP API, the fake PageSpeed Insights,
the job runner; local Lighthouse as test_speed_providers.py's stand-in command) with metrics on
in this process (a token, a metrics directory of the test's own), and reads the counters back
from the files as a scrape adds them up."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from agency.core import jobs
from agency.core.web import settings_of
from agency.modules.speedtest.service import speed_providers, speedtests
from agency.modules.speedtest.settings import SpeedtestSettings
from tests.core.test_metrics_rules import _collected, metrics_off_after  # noqa: F401 (autouse)
from tests.fakes.pagespeed import FakePageSpeed
from tests.speedtest.test_speed_providers import stand_in  # noqa: F401 (a fixture)
from tests.speedtest.test_speedtests import finish, settings_for, start

COUNTER = "agency_speed_tests_total"


def metrics_on(tmp_path: Path) -> dict[str, Any]:
    """The settings that turn metrics on, into a directory of the test's own."""
    return {"metrics_token": "metrics-token", "metrics_dir": tmp_path / "metrics"}


def speed_tests(tmp_path: Path) -> dict[tuple[str, str], float]:
    """The counter's samples as a scrape reads them: (event, provider) -> count."""
    found: dict[tuple[str, str], float] = {}
    for (name, label_set), value in _collected(tmp_path / "metrics").items():
        if name == COUNTER:
            labels = dict(label_set)
            found[labels["event"], labels["provider"]] = value
    return found


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str, psi: FakePageSpeed) -> Any:
    """This module's `app` (tests/conftest.py): test_speedtests.py's, with metrics on."""
    return settings_for(tmp_path, database_url, psi, **metrics_on(tmp_path))


async def test_a_test_run_to_done_is_started_once_and_done_once(app: Any, tmp_path: Path) -> None:
    status, queued = await start(app, "slow.example")
    assert status == 202 and queued["status"] == "queued"
    assert speed_tests(tmp_path) == {("started", "psi"): 1}
    done = await finish(app, queued["id"])
    assert done["status"] == "done"
    assert speed_tests(tmp_path) == {("started", "psi"): 1, ("done", "psi"): 1}


async def test_a_reused_result_is_not_a_new_test(app: Any, tmp_path: Path) -> None:
    _, first = await start(app, "mid.example")
    await finish(app, first["id"])
    status, reused = await start(app, "https://www.mid.example/", email="two@shop.example")
    assert status == 202 and reused["status"] == "done"
    await finish(app, reused["id"])
    assert speed_tests(tmp_path) == {("started", "psi"): 1, ("done", "psi"): 1}


async def test_refused_requests_start_nothing(app: Any, tmp_path: Path) -> None:
    status, _ = await start(app, "not a domain")
    assert status == 400
    status, _ = await start(app, "fast.example", strategy="tablet")
    assert status == 400
    assert speed_tests(tmp_path) == {}


@pytest.mark.parametrize("host", ["down.example", "quota.example", "garbage.example"])
async def test_a_provider_failure_is_one_failed_test(app: Any, tmp_path: Path, host: str) -> None:
    _, queued = await start(app, host)
    data = await finish(app, queued["id"])
    assert data["status"] == "failed"
    assert speed_tests(tmp_path) == {("started", "psi"): 1, ("failed", "psi"): 1}


async def test_a_failure_worth_a_retry_counts_once_when_the_retry_fails_too(
    app: Any, psi: FakePageSpeed, tmp_path: Path
) -> None:
    _, queued = await start(app, "badgateway.example")
    data = await finish(app, queued["id"])
    assert data["status"] == "queued"  # tried once, to be tried again: not failed yet
    assert speed_tests(tmp_path) == {("started", "psi"): 1}
    await jobs.Job.filter(kind=speedtests.JOB_KIND).update(run_at=datetime.now(UTC))
    data = await finish(app, queued["id"])
    assert data["status"] == "failed" and len(psi.requests) == 2
    assert speed_tests(tmp_path) == {("started", "psi"): 1, ("failed", "psi"): 1}


async def test_an_unexpected_error_is_one_failed_test(
    app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(speed_providers, "provider_for", broken)
    _, queued = await start(app, "fast.example")
    data = await finish(app, queued["id"])
    assert data["status"] == "failed"
    assert speed_tests(tmp_path) == {("started", "psi"): 1, ("failed", "psi"): 1}


async def test_two_runners_at_once_count_one_done(
    app: Any, psi: FakePageSpeed, tmp_path: Path
) -> None:
    psi.delay = 0.3
    _, queued = await start(app, "fast.example")
    settings = settings_of(SpeedtestSettings, app.app)
    await asyncio.gather(
        speedtests.run_speed_test(settings, queued["id"]),
        speedtests.run_speed_test(settings, queued["id"]),
    )
    await speedtests.run_speed_test(settings, queued["id"])  # a late re-run: nothing happens
    assert len(psi.requests) == 1
    assert speed_tests(tmp_path) == {("started", "psi"): 1, ("done", "psi"): 1}


async def test_local_lighthouse_is_counted_as_lighthouse(
    tmp_path: Path,
    database_url: str,
    psi: FakePageSpeed,
    stand_in: tuple[Path, Path],  # noqa: F811 (the imported fixture)
) -> None:
    script, _log = stand_in
    settings = settings_for(
        tmp_path,
        database_url,
        psi,
        speedtest_provider="lighthouse",
        lighthouse_path=str(script),
        pagespeed_timeout=20.0,
        **metrics_on(tmp_path),
    )
    async with create_app(settings).test_app() as app:
        _, ok = await start(app, "ok.test")
        assert (await finish(app, ok["id"]))["status"] == "done"
        _, down = await start(app, "down.test")
        assert (await finish(app, down["id"]))["status"] == "failed"
    assert psi.requests == []  # Google was never asked
    assert speed_tests(tmp_path) == {
        ("started", "lighthouse"): 2,
        ("done", "lighthouse"): 1,
        ("failed", "lighthouse"): 1,
    }


async def test_nothing_is_recorded_without_a_token(
    tmp_path: Path, database_url: str, psi: FakePageSpeed
) -> None:
    settings = settings_for(tmp_path, database_url, psi, metrics_dir=tmp_path / "metrics")
    async with create_app(settings).test_app() as app:
        _, queued = await start(app, "fast.example")
        assert (await finish(app, queued["id"]))["status"] == "done"
    assert not (tmp_path / "metrics").exists()
