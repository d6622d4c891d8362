"""Metrics: `/metrics` scraped from real server and worker processes after known traffic, on
SQLite and PostgreSQL.

Counts are exact where the traffic is known; two `agency serve` processes and an `agency
worker` sharing one metrics directory add up in whichever process answers; the token rules
(404 without one configured, 401 without the right one); the database's gauges read at scrape;
and no label ever holds a path, an e-mail address, an id or a query string, whatever is asked.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prometheus_client.parser import text_string_to_metric_families

from agency.core import jobs, mail
from tests.conftest import agency_servers, free_port, server_env, wait_until, with_database

# Real server and worker processes: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow

TOKEN = "t0ken-for-the-metrics-" + "x" * 20
AUTH = {"Authorization": f"Bearer {TOKEN}"}
HEADERS = {"X-Agency-Request": "1"}
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(text: str) -> Samples:
    """Every sample of a scrape by (name, labels)."""
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(found: Samples, name: str, **labels: str) -> float | None:
    return found.get((name, frozenset(labels.items())))


def scrape(base: str) -> Samples:
    response = httpx.get(f"{base}/metrics", headers=AUTH, timeout=10)
    assert response.status_code == 200, response.text
    return samples(response.text)


def metrics_env(tmp_path: Path, database_url: str, **extra: str) -> dict[str, str]:
    return server_env(
        tmp_path,
        database_url,
        METRICS_TOKEN=TOKEN,
        METRICS_DIR=str(tmp_path / "metrics"),
        RUN_JOBS="false",
        ACCESS_LOG="false",
        **extra,
    )


def _web_build(root: Path) -> Path:
    """The smallest web UI build: a home page and one asset."""
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>home</title>")
    (root / "assets" / "app-1234.js").write_text("console.log('hello')")
    return root


def test_a_scrape_counts_known_traffic_and_needs_the_token(
    database_url: str, tmp_path: Path
) -> None:
    now = jobs._now()

    async def queue() -> None:
        for _ in range(2):
            await jobs.Job.create(kind="sites.monitor", run_at=now - timedelta(seconds=120))
        await jobs.Job.create(kind="overview.snapshot", run_at=now + timedelta(hours=1))
        await jobs.Job.create(kind="tax.vies_recheck", run_at=now, status=jobs.FAILED)
        for status, count in ((mail.OUTBOX, 2), (mail.QUEUED, 1), (mail.SENT, 3), (mail.FAILED, 1)):
            for _ in range(count):
                await mail.OutboundMail.create(
                    to="ada@example.com", subject="Hi", text="Hi", status=status
                )

    with_database(database_url, queue)
    env = metrics_env(tmp_path, database_url, WEB_DIR=str(_web_build(tmp_path / "web")))
    with agency_servers(tmp_path, env) as (base,):
        assert httpx.get(f"{base}/metrics").status_code == 401
        wrong = httpx.get(f"{base}/metrics", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        assert wrong.headers["www-authenticate"].startswith("Bearer")
        right = httpx.get(f"{base}/metrics", headers=AUTH)
        assert right.status_code == 200
        assert right.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"

        for _ in range(3):
            assert httpx.get(f"{base}/api/catalogue").status_code == 200
        assert httpx.get(f"{base}/assets/app-1234.js").status_code == 200
        assert httpx.get(f"{base}/").status_code == 200
        assert httpx.get(f"{base}/api/no-such-thing/12345?email=ada@example.com").status_code == 404
        for _ in range(6):  # the sixth is over the limit of 5 (forgot-ip)
            last = httpx.post(
                f"{base}/api/auth/forgot-password",
                json={"email": "nobody@example.com"},
                headers=HEADERS,
            )
        assert last.status_code == 429

        found = scrape(base)
        total = "agency_http_requests_total"
        assert value(found, total, route="/api/catalogue", method="GET", status="200") == 3
        assert value(found, total, route="static", method="GET", status="200") == 2
        assert value(found, total, route="unmatched", method="GET", status="404") == 1
        forgot = "/api/auth/forgot-password"
        assert value(found, total, route=forgot, method="POST", status="202") == 5
        assert value(found, total, route=forgot, method="POST", status="429") == 1
        assert value(found, total, route="/metrics", method="GET", status="401") == 2
        assert value(found, total, route="/metrics", method="GET", status="200") == 1
        duration = "agency_http_request_duration_seconds"
        assert value(found, f"{duration}_count", route="/api/catalogue", method="GET") == 3
        assert (
            value(found, f"{duration}_bucket", route="/api/catalogue", method="GET", le="+Inf") == 3
        )
        assert value(found, "agency_rate_limit_refusals_total", limit="forgot-ip") == 1

        assert value(found, "agency_jobs_queued", kind="sites.monitor") == 2
        assert value(found, "agency_jobs_queued", kind="overview.snapshot") == 1
        assert value(found, "agency_jobs_queued", kind="retention") == 0  # known, none queued
        age = value(found, "agency_jobs_oldest_queued_age_seconds", kind="sites.monitor")
        assert age is not None and 120 <= age < 600
        # Queued for later: not late yet.
        assert value(found, "agency_jobs_oldest_queued_age_seconds", kind="overview.snapshot") == 0
        assert value(found, "agency_jobs_failed", kind="tax.vies_recheck") == 1
        assert value(found, "agency_jobs_failed", kind="sites.monitor") == 0
        assert value(found, "agency_mail_outbox", state="waiting") == 3
        assert value(found, "agency_mail_outbox", state="sent") == 3
        assert value(found, "agency_mail_outbox", state="failed") == 1

        assert value(found, "agency_processes", role="serve") == 1
        memory = value(found, "agency_process_resident_memory_bytes", role="serve")
        assert memory is not None and memory > 10_000_000
        from agency import __version__

        assert value(found, "agency_build_info", version=__version__) == 1
        pool = value(found, "agency_db_pool_connections", state="idle")
        if database_url.startswith("postgres"):
            assert pool is not None and pool >= 0
        else:
            assert pool is None  # SQLite: no pool to tell of

        # The scrape itself was counted: the next one says so.
        again = scrape(base)
        assert value(again, total, route="/metrics", method="GET", status="200") == 2
        assert value(again, total, route="/api/catalogue", method="GET", status="200") == 3


def _worker(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    environment.update(env)
    return subprocess.Popen(
        [sys.executable, "-m", "agency", "worker", "--grace", "1", *args],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_port(port: int, process: subprocess.Popen[str]) -> None:
    def listening() -> bool:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    wait_until(listening, 60, "the worker's metrics address")


@pytest.fixture
def stopped_at_the_end() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def test_two_servers_and_a_worker_add_up_on_one_machine(
    database_url: str, tmp_path: Path, stopped_at_the_end: list[subprocess.Popen[str]]
) -> None:
    env = metrics_env(tmp_path, database_url)
    with agency_servers(tmp_path, env, count=2) as (first, second):
        port = free_port()
        worker = _worker(tmp_path, env, "--metrics-listen", f"127.0.0.1:{port}")
        stopped_at_the_end.append(worker)
        _wait_for_port(port, worker)
        for _ in range(3):
            assert httpx.get(f"{first}/api/catalogue").status_code == 200
        for _ in range(2):
            assert httpx.get(f"{second}/api/catalogue").status_code == 200

        async def reset() -> int:
            return await jobs.enqueue("auth.password_reset", {"email": "nobody@example.com"})

        job_id = with_database(database_url, reset)

        async def status() -> str:
            return (await jobs.Job.get(id=job_id)).status

        wait_until(lambda: with_database(database_url, status) == jobs.DONE, 60, "the job")

        worker_base = f"http://127.0.0.1:{port}"
        catalogue = {"route": "/api/catalogue", "method": "GET", "status": "200"}
        run = {"kind": "auth.password_reset", "outcome": "done"}
        for base in (first, second, worker_base):
            # The other processes write their requests into the files every second.
            wait_until(
                lambda base=base: (
                    value(scrape(base), "agency_http_requests_total", **catalogue) == 5
                ),
                10,
                f"the requests of both servers in {base}'s scrape",
            )
            found = scrape(base)
            # Every process's requests and the worker's job, whoever answers.
            assert value(found, "agency_http_requests_total", **catalogue) == 5, base
            assert value(found, "agency_job_runs_total", **run) == 1, base
            assert value(found, "agency_processes", role="serve") == 2, base
            assert value(found, "agency_processes", role="worker") == 1, base
            worker_memory = value(found, "agency_process_resident_memory_bytes", role="worker")
            assert worker_memory is not None and worker_memory > 10_000_000

        # The worker's own address keeps to the token rule, and serves nothing else.
        assert httpx.get(f"{worker_base}/metrics").status_code == 401
        assert (
            httpx.get(f"{worker_base}/metrics", headers={"Authorization": "Bearer x"}).status_code
            == 401
        )
        assert httpx.get(f"{worker_base}/", headers=AUTH).status_code == 404

        # A clean stop takes the worker out of the live figures; its counts stay.
        worker.send_signal(signal.SIGTERM)
        _, err = worker.communicate(timeout=30)
        assert worker.returncode == 0, err
        assert not list((tmp_path / "metrics").glob(f"gauge_live*_{worker.pid}.db"))
        found = scrape(first)
        assert value(found, "agency_processes", role="worker") is None
        assert value(found, "agency_job_runs_total", **run) == 1

        # So does a crash (SIGKILL: no clean exit), noticed at the next scrape.
        killed = _worker(tmp_path, env)
        stopped_at_the_end.append(killed)
        wait_until(
            lambda: value(scrape(first), "agency_processes", role="worker") == 1,
            60,
            "the second worker to count",
        )
        killed.kill()
        killed.wait(timeout=10)
        found = scrape(second)
        assert value(found, "agency_processes", role="worker") is None
        assert value(found, "agency_processes", role="serve") == 2
        assert value(found, "agency_job_runs_total", **run) == 1


# What a label other than these may hold: fixed words (methods, outcomes, job kinds, limits).
WORD = re.compile(r"^([a-z][a-z0-9_.-]{0,63}|GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$")
SEGMENT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
    min_size=1,
    max_size=20,
).filter(lambda s: "/" not in s and "?" not in s and "#" not in s and s not in (".", ".."))
IDS = st.integers(min_value=1000, max_value=10**12).map(str)
EMAILS = st.from_regex(r"[a-z]{3,8}@[a-z]{3,8}\.(com|org)", fullmatch=True)


def _routes(tmp_path: Path, database_url: str) -> set[str]:
    """The app's route templates, and the words for what no route answered."""
    from agency.app import create_app
    from tests.conftest import make_settings

    app = create_app(make_settings(tmp_path / "routes", database_url))
    return {rule.rule for rule in app.url_map.iter_rules()} | {"static", "unmatched", "/metrics"}


def _check_labels(found: Samples, routes: set[str]) -> None:
    for name, labels in found:
        for label, text in labels:
            assert "?" not in text and "@" not in text, (name, label, text)
            if label == "route":
                assert text in routes, text
            elif label == "status":
                assert re.fullmatch(r"[1-5]\d\d", text), text
            elif label == "le":
                float(text)
            elif label == "version":
                assert re.fullmatch(r"\d+\.\d+\.\d+[a-z0-9.+-]*", text), text
            else:
                assert WORD.match(text), (name, label, text)
                assert not re.search(r"\d{3,}", text), (name, label, text)


def test_no_label_holds_a_path_an_address_an_id_or_a_query(
    database_url: str, tmp_path: Path
) -> None:
    routes = _routes(tmp_path, database_url)
    env = metrics_env(tmp_path, database_url)
    with agency_servers(tmp_path, env) as (base,), httpx.Client(base_url=base) as http:

        @settings(
            max_examples=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(
            prefix=st.sampled_from(["", "/api", "/api/admin/analyses", "/blog", "/assets"]),
            segments=st.lists(st.one_of(SEGMENT, IDS, EMAILS), min_size=1, max_size=3),
            query=st.one_of(st.none(), EMAILS, IDS),
            method=st.sampled_from(["GET", "POST", "DELETE", "PROPFIND"]),
        )
        def ask(prefix: str, segments: list[str], query: str | None, method: str) -> None:
            path = prefix + "/" + "/".join(segments)
            url = httpx.URL(base).copy_with(
                path=path, query=f"q={query}".encode() if query else None
            )
            response = http.request(method, url, headers=HEADERS)
            assert response.status_code < 500, (path, response.status_code)
            found = scrape(base)
            _check_labels(found, routes)
            for piece in [*segments, query or ""]:
                # An id (a run of digits) or an address that was asked for is in no label.
                if (len(piece) >= 4 and piece.isascii() and piece.isdigit()) or "@" in piece:
                    assert not any(piece in text for _, labels in found for _, text in labels)

        ask()
