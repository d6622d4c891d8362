"""Error reports reach a Sentry-compatible DSN (the fake in tests/fakes/sentry_server.py, over
real HTTP) from a route and from a job, tagged with the request id or the job's kind, with
nothing personal or secret anywhere in what is sent; without a DSN the SDK is never loaded."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import zlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import brotli
import httpx
import pytest
from quart import Blueprint, request

from agency.app import create_app
from agency.core import error_reports, jobs
from agency.core.modules import Module
from agency.core.settings import Settings
from agency.core.web import job_runner
from agency.registry import MODULES
from tests.conftest import make_settings, server_env, web_client, with_database
from tests.fakes.sentry_server import FakeSentry, parse_envelope
from tests.fakes.serving import serving
from tests.helpers.http import HEADERS, PASSWORD

EMAIL = "grace.hopper@example.org"
TOKEN = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0"
COOKIE_VALUE = "cookievalue-7d2f9a61c4e84b3aa0f1"
SECRET_KEY = "test-secret-key-" + "x" * 32
JOB_KIND = "test.explode"

failing = Blueprint("failing", __name__)


@failing.get("/api/test-failure/<int:number>")
async def fail(number: int) -> str:
    email = request.args.get("email", "")
    token = request.args.get("token", "")
    raise RuntimeError(
        f"order {number} failed for {email} with token {token} "
        f"via postgres://agency:{PASSWORD}@db.internal/agency"
    )


async def explode(payload: dict[str, Any]) -> None:
    raise LookupError(f"no account for {payload['email']}")


async def database_away(_payload: dict[str, Any]) -> None:
    raise ConnectionRefusedError(111, "Connection refused")


OUTAGE_KIND = "test.outage"
TEST_MODULE: Module[Settings] = Module(
    name="failing",
    blueprint=failing,
    job_handlers={JOB_KIND: explode, OUTAGE_KIND: database_away},
)


@pytest.fixture
def sentry(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSentry]:
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    with serving(FakeSentry()) as fake:
        yield fake
    error_reports.uninstall()


@pytest.fixture
async def reporting_app(
    tmp_path: Path, database_url: str, sentry: FakeSentry
) -> AsyncIterator[Any]:
    settings = make_settings(
        tmp_path, database_url, sentry_dsn=sentry.dsn(), sentry_environment="test-env"
    )
    quart_app = create_app(settings, modules=[*MODULES, TEST_MODULE])
    async with quart_app.test_app() as test_app:
        yield test_app


def assert_nothing_personal(raw: bytes, *also: str) -> None:
    text = raw.decode()
    for secret in (EMAIL, TOKEN, COOKIE_VALUE, SECRET_KEY, PASSWORD, *also):
        assert secret not in text, f"{secret!r} was sent"
    assert "@example" not in text
    for key in ('"request"', '"user"', '"server_name"', '"breadcrumbs"', '"extra"', '"cookies"'):
        assert key not in text, f"{key} was sent"


async def test_a_route_error_reaches_the_dsn_with_its_request_id_and_nothing_personal(
    reporting_app: Any, sentry: FakeSentry
) -> None:
    async with web_client(reporting_app.app) as http:
        signup = {
            "email": EMAIL,
            "password": PASSWORD,
            "confirm_password": PASSWORD,
            "first_name": "Grace",
            "last_name": "Hopper",
        }
        signed = await http.post("/api/auth/signup", json=signup, headers=HEADERS)
        assert signed.status_code in (200, 201), signed.text
        # The session's cookie (a marker cookie such as `1` would match anything).
        session_cookies = [c.value for c in http.cookies.jar if c.value and len(c.value) >= 16]
        assert session_cookies
        http.cookies.set("extra", COOKIE_VALUE)
        response = await http.get(
            "/api/test-failure/7",
            params={"email": EMAIL, "token": TOKEN},
            headers={"Authorization": f"Bearer {TOKEN}", "User-Agent": "tester/1.0"},
        )
    assert response.status_code == 500
    request_id = response.headers["X-Request-Id"]
    error_reports.flush()
    [event] = sentry.wait_for_events(1)
    assert event["tags"]["request_id"] == request_id
    assert event["tags"]["route"] == "/api/test-failure/<int:number>"
    assert event["tags"]["method"] == "GET"
    assert event["environment"] == "test-env"
    assert event["release"].startswith("agency@")
    [exception] = event["exception"]["values"]
    assert exception["type"] == "RuntimeError"
    assert exception["value"].startswith("order 7 failed for [email] with token [token]")
    assert "postgres://[redacted]@db.internal" in exception["value"]
    assert all("vars" not in frame for frame in exception["stacktrace"]["frames"])
    [envelope] = sentry.envelopes
    assert envelope.encoding in ("br", "gzip")  # the SDK compresses; the fake reads either
    assert_nothing_personal(envelope.raw, *session_cookies)


async def test_a_job_s_last_failure_is_reported_with_its_kind_and_a_retried_or_outage_one_not(
    reporting_app: Any, sentry: FakeSentry
) -> None:
    runner = job_runner(reporting_app.app)
    await jobs.enqueue(JOB_KIND, {"email": EMAIL}, max_attempts=2)
    assert await runner.drain() == 1
    error_reports.flush()
    assert sentry.events() == []  # a first attempt that will be retried is not reported
    await jobs.enqueue(OUTAGE_KIND, max_attempts=1)
    assert await runner.drain() == 1
    error_reports.flush()
    assert sentry.events() == []  # the database out of reach is no bug

    await jobs.enqueue(JOB_KIND, {"email": EMAIL}, max_attempts=1)
    assert await runner.drain() == 1
    error_reports.flush()
    [event] = sentry.wait_for_events(1)
    assert event["tags"]["job_kind"] == JOB_KIND
    assert "request_id" not in event["tags"]
    [exception] = event["exception"]["values"]
    assert exception["type"] == "LookupError"
    assert exception["value"] == "no account for [email]"
    assert_nothing_personal(sentry.envelopes[0].raw)


def test_without_a_dsn_the_sdk_is_not_even_imported(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from agency.app import create_app\n"
        "from agency.settings import Settings\n"
        "create_app(Settings(data_dir=sys.argv[1], secret_key='k' * 40, sentry_dsn=sys.argv[2]))\n"
        "print('sentry_sdk' in sys.modules)\n"
    )

    def imported(dsn: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / "data"), dsn],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert imported("") == "False"
    assert imported("http://abc@127.0.0.1:9/1") == "True"  # the same check can tell


# The fake itself: it answers as Sentry does, so the SDK's behaviour against it is the real one.


def envelope_body(event_id: str = "a" * 32) -> bytes:
    event = json.dumps({"event_id": event_id, "message": "hi"}).encode()
    return (
        json.dumps({"event_id": event_id}).encode()
        + b"\n"
        + json.dumps({"type": "event", "length": len(event)}).encode()
        + b"\n"
        + event
        + b"\n"
        + b'{"type":"client_report"}\n{"discarded_events":[]}\n'
    )


def auth(key: str) -> dict[str, str]:
    return {"X-Sentry-Auth": f"Sentry sentry_key={key}, sentry_version=7, sentry_client=t/1"}


def test_the_fake_reads_each_encoding_and_refuses_bad_keys_and_rate_limits() -> None:
    with serving(FakeSentry()) as fake, httpx.Client(base_url=fake.base_url) as http:
        url = f"/api/{fake.project_id}/envelope/"
        body = envelope_body()
        for encoding, data in (
            ("", body),
            ("gzip", gzip.compress(body)),
            ("deflate", zlib.compress(body)),
            ("br", brotli.compress(body)),
        ):
            headers = {**auth(fake.public_key), "Content-Encoding": encoding}
            answer = http.post(url, content=data, headers=headers)
            assert answer.status_code == 200, (encoding, answer.text)
            assert answer.json() == {"id": "a" * 32}
        assert [e.raw for e in fake.envelopes] == [body] * 4
        assert [item.type for item in fake.envelopes[0].items] == ["event", "client_report"]
        assert http.post(url, content=body).status_code == 401
        assert http.post(url, content=body, headers=auth("wrong")).status_code == 403
        other = f"/api/{int(fake.project_id) + 1}/envelope/"
        assert http.post(other, content=body, headers=auth(fake.public_key)).status_code == 403
        assert http.post(f"{url}?sentry_key={fake.public_key}", content=body).status_code == 200
        bad = http.post(url, content=b"not json\n", headers=auth(fake.public_key))
        assert bad.status_code == 400
        fake.refuse_for(30)
        limited = http.post(url, content=body, headers=auth(fake.public_key))
        assert limited.status_code == 429
        assert limited.headers["Retry-After"] == "30"
        assert fake.refused == [401, 403, 403, 400, 429]


def test_an_item_without_a_length_runs_to_the_newline() -> None:
    headers, items = parse_envelope(b'{}\n{"type":"event"}\n{"a":1}\n{"type":"x","length":2}\nab')
    assert headers == {}
    assert [(item.type, item.payload) for item in items] == [("event", b'{"a":1}'), ("x", b"ab")]


async def test_the_sdk_holds_back_while_the_service_says_429(
    reporting_app: Any, sentry: FakeSentry
) -> None:
    runner = job_runner(reporting_app.app)
    sentry.refuse_for(60)
    await jobs.enqueue(JOB_KIND, {"email": EMAIL}, max_attempts=1)
    await runner.drain()
    error_reports.flush()
    assert sentry.refused == [429]
    await jobs.enqueue(JOB_KIND, {"email": EMAIL}, max_attempts=1)
    await runner.drain()
    error_reports.flush()
    # Retry-After honoured: the second report is dropped by the SDK, not sent to be refused.
    assert sentry.refused == [429]
    assert sentry.events() == []


@pytest.mark.slow  # starts a real `agency worker`
def test_an_agency_worker_reports_a_job_s_last_failure(
    tmp_path: Path, database_url: str, sentry: FakeSentry
) -> None:
    async def queue_a_broken_job() -> None:
        # A password reset without its address: the handler's KeyError, on its only attempt.
        await jobs.enqueue("auth.password_reset", {"note": EMAIL}, max_attempts=1)

    with_database(database_url, queue_a_broken_job)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(server_env(tmp_path, database_url, SENTRY_DSN=sentry.dsn(), RUN_JOBS="false"))
    worker = subprocess.Popen(
        [sys.executable, "-m", "agency", "worker", "--grace", "0"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        [event] = sentry.wait_for_events(1, timeout=60)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
    assert event["tags"]["job_kind"] == "auth.password_reset"
    assert event["exception"]["values"][0]["type"] == "KeyError"
    assert event["release"].startswith("agency@")
    assert_nothing_personal(sentry.envelopes[0].raw)
