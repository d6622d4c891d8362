"""Property-based fuzzing of the whole JSON API from its own OpenAPI document:
schemathesis generates requests for every operation, valid and invalid, signed
out, as a customer and as an admin, always with the CSRF header; no answer may be a server
error, and documented answers must match their schema.

The run also holds the security rules that any input can reach: every log record it
causes (the access log included) must format as one line with no control character, in text
and JSON; every CSV answer (the leads export) must start no cell with a formula, split on ','
or on ';' as Excel in German or French does; and the SQLite database must be its owner's only.

In-process over ASGI (no socket), on SQLite and PostgreSQL, with Stripe pointed at the fake,
rate limits off for the run, a fixed seed (`derandomize`) and a bounded number of examples per
operation, identity and mode (`FUZZ_EXAMPLES`, default 12: the test takes about 30 s per
database; raise it for a longer hunt).
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from quart import Quart
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Ok
from schemathesis.generation import GenerationMode
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import response_schema_conformance

from agency.app import create_app
from agency.core import db, operations
from agency.core.logging import TRACEBACK_INDENT, JsonFormatter, TextFormatter
from agency.core.web.security import CSRF_HEADER
from agency.modules.auth.service import admin as auth_admin
from agency.modules.billing.clients import StripeGateway
from agency.modules.billing.service import prices as billing_prices
from agency.modules.catalogue import service as catalogue
from agency.net import addresses
from agency.registry import MODULES
from tests.conftest import make_settings
from tests.fakes.stripe_server import FakeStripe, run_fake_stripe
from tests.helpers.http import PASSWORD

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
CSRF = {CSRF_HEADER: "1"}
WEBHOOK_SECRET = "whsec_fuzz"
# Signing out would end the identity's session for the rest of the run; it takes no input.
SIGNED_IN_SKIP = {"POST /api/auth/logout"}
# What no log line may hold: C0 and C1 controls, DEL, the Unicode line separators, surrogates.
UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class LineCheck(logging.Handler):
    """Formats every record as the server would and keeps those that are not one clean line
    (a traceback may follow on indented lines)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records = 0
        self.bad: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records += 1
        first, *rest = TextFormatter().format(record).split("\n")
        clean = UNSAFE.search(first) is None and all(
            line.startswith(TRACEBACK_INDENT) and UNSAFE.search(line) is None for line in rest
        )
        line = JsonFormatter().format(record)
        if not clean or "\n" in line or UNSAFE.search(line):
            self.bad.append(repr(first))


def _no_formula_in_csv(response: Any) -> None:
    headers = {name.lower(): values for name, values in response.headers.items()}
    if not any(value.startswith("text/csv") for value in headers.get("content-type", [])):
        return
    for delimiter in (",", ";"):
        reader = csv.reader(io.StringIO(response.text, newline=""), delimiter=delimiter)
        for field in (field for row in reader for field in row):
            assert not field.startswith(FORMULA_STARTS), (delimiter, field)


@pytest.fixture
def stripe_fake() -> Iterator[FakeStripe]:
    with run_fake_stripe() as fake:
        yield fake


async def _prepare(url: str, fake: FakeStripe) -> None:
    """The catalogue seeded and synced to the fake Stripe, so checkouts can go all the way."""
    await db.init_db(url, [m.models for m in MODULES if m.models is not None])
    try:
        await catalogue.seed(catalogue.load_file())
        gateway = StripeGateway(fake.api_key, fake.base_url, WEBHOOK_SECRET)
        await billing_prices.sync_prices(gateway, dry_run=False)
        # No job runner runs here; a heartbeat seen "tomorrow" keeps one alive for the whole
        # run, so /api/health/ready answers 200 (its 503 is a state, tested in test_health).
        tomorrow = datetime.now(UTC) + timedelta(days=1)
        await operations.JobRunnerBeat.create(
            worker_id="fuzz:1:1",
            host="fuzz",
            pid=1,
            role="worker",
            started_at=tomorrow,
            seen_at=tomorrow,
        )
    finally:
        await db.close_db()


@pytest.fixture
def fuzz_app(
    tmp_path: Path,
    database_url: str,
    stripe_fake: FakeStripe,
    no_rate_limits: None,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Quart]:
    asyncio.run(_prepare(database_url, stripe_fake))

    async def resolve(_host: str) -> list[str]:  # no DNS from tests: every name is public
        return ["93.184.216.34"]

    monkeypatch.setattr(addresses, "system_resolver", resolve)
    app = create_app(
        make_settings(
            tmp_path,
            database_url,
            stripe_secret_key=stripe_fake.api_key,
            stripe_api_base=stripe_fake.base_url,
            stripe_webhook_secret=WEBHOOK_SECRET,
            agency_email="team@agency.test",
            access_log=True,  # its lines are checked too
            # The article manager's generations are queued, never run (no job runner here);
            # without a key they answer 503 'AI is not configured', as they should.
            ai_api_key="sk-fuzz",
            ai_base_url="http://127.0.0.1:9/v1",
        )
    )
    yield app
    # schemathesis started the app (and its database) in its own event loop: stop it there.
    asgi.shutdown_lifespans()


def _session_cookies(app: Quart, email: str) -> dict[str, str]:
    """Sign up through the API (in schemathesis's own event loop) and keep the cookies."""
    with asgi.get_client(app) as client:
        body = {
            "email": email,
            "password": PASSWORD,
            "confirm_password": PASSWORD,
            "first_name": "Fuzz",
            "last_name": "Tester",
        }
        response = client.post("http://testserver/api/auth/signup", json=body, headers=CSRF)
        assert response.status_code == 201, response.text
        return dict(client.cookies)


def _make_admin(app: Quart, email: str) -> None:
    async def promote() -> None:
        await auth_admin.set_role(email, "admin")

    # The app's database connection lives in schemathesis's event loop thread.
    asgi._get_portal().call(promote)


def _fuzzer(strategy: Any, cookies: dict[str, str]) -> Callable[[], int]:
    """A Hypothesis test of one operation, mode and identity; returns how many calls it made."""
    calls = 0

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def fuzz(case: Any) -> None:
        nonlocal calls
        calls += 1
        response = case.call(headers=CSRF, cookies=cookies)
        case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
        _no_formula_in_csv(response)

    def run() -> int:
        fuzz()
        return calls

    return run


@pytest.fixture
def log_lines() -> Iterator[LineCheck]:
    """Every record of the run at INFO and above, checked as it is written."""
    check = LineCheck()
    agency = logging.getLogger("agency")
    level = agency.level
    agency.setLevel(logging.INFO)
    logging.getLogger().addHandler(check)
    try:
        yield check
    finally:
        logging.getLogger().removeHandler(check)
        agency.setLevel(level)


def test_no_generated_request_gets_a_server_error(
    fuzz_app: Quart, log_lines: LineCheck, database_url: str
) -> None:
    started = time.monotonic()
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)
    identities: dict[str, dict[str, str]] = {"signed out": {}}
    identities["customer"] = _session_cookies(fuzz_app, "customer@fuzz.example")
    identities["admin"] = _session_cookies(fuzz_app, "admin@fuzz.example")
    _make_admin(fuzz_app, "admin@fuzz.example")

    failures: list[str] = []
    nothing_to_negate: set[str] = set()
    calls = 0
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result
        operation = result.ok()
        for who, cookies in identities.items():
            if who != "signed out" and operation.label in SIGNED_IN_SKIP:
                continue
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                fuzz = _fuzzer(operation.as_strategy(generation_mode=mode), cookies)
                try:
                    calls += fuzz()
                except Unsatisfiable:
                    # No invalid input exists for an operation that takes none.
                    assert mode is GenerationMode.NEGATIVE, operation.label
                    nothing_to_negate.add(operation.label)
                except (Exception, FailureGroup) as failure:  # one report per failing operation
                    failures.append(f"{who}, {mode.value}: {operation.label}\n{failure}")
    elapsed = time.monotonic() - started
    print(
        f"fuzzed {calls} requests in {elapsed:.1f} s; "
        f"no invalid input possible for {sorted(nothing_to_negate)}"
    )
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} failures)"
    assert calls > 200
    assert log_lines.records > calls  # an access log line per call, at least
    assert not log_lines.bad, log_lines.bad[:20]
    database_file = db.sqlite_path(database_url)
    if database_file is not None:
        for path in database_file.parent.glob(database_file.name + "*"):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
