"""Shared fixtures.

Database tests run twice: on SQLite and on PostgreSQL. Both start from the real migration tree,
applied once per session; each test then gets a clean database (a fresh copy of the migrated
SQLite file, or emptied PostgreSQL tables). `AGENCY_TEST_BACKENDS=sqlite` (a comma-separated
list of `sqlite` and `postgres`) runs them on those backends only: the fast lane, scripts/check.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import asyncpg
import httpx
import pytest
from argon2 import PasswordHasher, profiles
from hypothesis import HealthCheck, settings

from agency.app import create_app
from agency.core import db, ratelimit
from agency.modules.auth.service import passwords as auth_passwords
from agency.registry import MODULES
from agency.settings import Settings
from tests.fakes.customer_site import CustomerSite, run_customer_site
from tests.fakes.pagespeed import FakePageSpeed, run_fake_pagespeed
from tests.fakes.smtp import SmtpServer
from tests.helpers.http import ADMIN_EMAIL, CUSTOMER_EMAIL, signed_up

# Hashing with argon2's production cost would dominate the suite's run time; the algorithm and
# code path stay the same (the end-to-end tests run the real server with the real cost).
auth_passwords.use_hasher(PasswordHasher.from_parameters(profiles.CHEAPEST))

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=50, deadline=None)
# The fast lane's (scripts/check): every property still runs, on fewer examples.
settings.register_profile(
    "fast", max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

MODEL_MODULES = [m.models for m in MODULES if m.models is not None]
POSTGRES_ADMIN_URL = os.environ.get(
    "AGENCY_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)


def _postgres_available() -> bool:
    async def probe() -> bool:
        try:
            conn = await asyncpg.connect(POSTGRES_ADMIN_URL, timeout=3)
        except (OSError, asyncpg.PostgresError, TimeoutError):
            return False
        await conn.close()
        return True

    return asyncio.run(probe())


def _chosen_backends() -> tuple[tuple[str, ...], bool]:
    """The backends `AGENCY_TEST_BACKENDS` names (both when unset), and whether it was set."""
    raw = os.environ.get("AGENCY_TEST_BACKENDS", "")
    names = tuple(dict.fromkeys(name.strip().lower() for name in raw.split(",") if name.strip()))
    unknown = [name for name in names if name not in ("sqlite", "postgres")]
    if unknown:
        raise RuntimeError(
            f"AGENCY_TEST_BACKENDS={raw!r}: unknown backend {unknown[0]!r}"
            " (a comma-separated list of sqlite and postgres)"
        )
    return (names or ("sqlite", "postgres")), bool(names)


CHOSEN_BACKENDS, BACKENDS_NAMED = _chosen_backends()
# PostgreSQL is probed only when the run may use it: a SQLite-only run never waits for it.
POSTGRES = "postgres" in CHOSEN_BACKENDS and _postgres_available()
if "postgres" in CHOSEN_BACKENDS and not POSTGRES and (os.environ.get("CI") or BACKENDS_NAMED):
    raise RuntimeError(f"PostgreSQL at {POSTGRES_ADMIN_URL} does not answer, and this run needs it")
# The backends database tests run on, in this order.
BACKENDS = tuple(name for name in CHOSEN_BACKENDS if name != "postgres" or POSTGRES)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "database_url" in metafunc.fixturenames:
        metafunc.parametrize("backend", BACKENDS, indirect=True)


def pytest_itemcollected(item: pytest.Item) -> None:
    """Every test on a database is marked `db` as it is collected, before `-m` selects: so
    `-m db` selects exactly them, and `-m "not db"` the tests that need none."""
    if "database_url" in getattr(item, "fixturenames", ()):
        item.add_marker(pytest.mark.db)


@pytest.hookimpl(trylast=True)  # after `-m` and `-k` have deselected theirs
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: sync Playwright keeps an event loop running in the main thread for
    the rest of the session, which asyncio.run() and pytest-asyncio cannot share (scripts/test
    runs them in a pytest of their own, after the others have run in parallel under
    pytest-xdist)."""
    items.sort(key=lambda item: "/e2e/" in str(item.path))


def pytest_report_header() -> str:
    if not POSTGRES:
        why = "not chosen" if "postgres" not in CHOSEN_BACKENDS else "NOT AVAILABLE"
        return f"database tests: SQLite only (PostgreSQL {why})"
    where = POSTGRES_ADMIN_URL.rpartition("@")[2]
    names = " and ".join({"sqlite": "SQLite", "postgres": "PostgreSQL"}[b] for b in BACKENDS)
    return f"database tests: {names} ({where})"


def postgres_admin(sql: str) -> None:
    """Run one statement as the PostgreSQL superuser (CREATE/DROP DATABASE)."""

    async def run() -> None:
        conn = await asyncpg.connect(POSTGRES_ADMIN_URL)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


def postgres_create(name: str) -> str:
    """A new, empty database; returns its URL."""
    postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    postgres_admin(f'CREATE DATABASE "{name}"')
    return f"{POSTGRES_ADMIN_URL.rsplit('/', 1)[0]}/{name}"


def postgres_drop(name: str) -> None:
    postgres_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_agency(
    cwd: Path, *args: str, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """Run the `agency` command as a user would: a subprocess with no AGENCY_* of ours."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    environment["COLUMNS"] = "200"  # rich tables stay on one line
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "agency", *args],
        cwd=cwd,
        env=environment,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def load_script(path: Path) -> ModuleType:
    """A file outside the packages (`scripts/*.py`) imported afresh, named after the file."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def with_database(url: str, work: Any) -> Any:
    """Run `work()` (a coroutine function) with the ORM open on `url`, from a sync test that
    drives real server or worker processes."""

    async def run() -> Any:
        await db.init_db(url, MODEL_MODULES)
        try:
            return await work()
        finally:
            await db.close_db()

    return asyncio.run(run())


def wait_until(predicate: Any, timeout: float, what: str, poll: float = 0.1) -> None:
    """Poll `predicate()` until it is true; fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(poll)


def server_env(tmp_path: Path, database_url: str, **settings: str) -> dict[str, str]:
    """The AGENCY_* variables of a real server process on `database_url`: a test secret key,
    data in `tmp_path`, no web build, warnings only, then `settings` (`TRUSTED_PROXIES="1"`)."""
    return {
        "AGENCY_DATABASE_URL": database_url,
        "AGENCY_SECRET_KEY": "s" * 40,
        "AGENCY_DATA_DIR": str(tmp_path / "data"),
        "AGENCY_LOG_LEVEL": "warning",
        "AGENCY_WEB_DIR": str(tmp_path / "no-web"),
        **{f"AGENCY_{key}": value for key, value in settings.items()},
    }


@contextmanager
def agency_servers(
    tmp_path: Path, agency_env: dict[str, str], count: int = 1
) -> Iterator[list[str]]:
    """`count` real server processes (`python -m agency serve`) on free ports, run in
    `tmp_path` with `agency_env` instead of our AGENCY_* variables; yields their URLs once each
    answers /api/health, and ends them after."""
    from tests.e2e.conftest import wait_until_up  # here: that module imports this one

    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(agency_env)
    processes: list[subprocess.Popen[bytes]] = []
    urls: list[str] = []
    try:
        for _ in range(count):
            port = free_port()
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "agency", "serve", "--port", str(port)],
                    cwd=tmp_path,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            urls.append(f"http://127.0.0.1:{port}")
            wait_until_up(urls[-1], processes[-1])
        yield urls
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "agency.db"
    asyncio.run(db.upgrade(f"sqlite://{path}", MODEL_MODULES))
    return path


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A PostgreSQL database for this test session, migrated once, dropped at the end: one per
    pytest process, so each pytest-xdist worker (`gw0`, `gw1`, ...) has its own."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"agency_test_{worker}_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    url = postgres_create(name)
    asyncio.run(db.upgrade(url, MODEL_MODULES))
    yield url
    postgres_drop(name)


async def _empty_postgres(url: str) -> None:
    conn = await asyncpg.connect(url.replace("postgres://", "postgresql://", 1))
    try:
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
            "AND tablename NOT LIKE 'tortoise_migrations%'"
        )
        if tables:
            names = ", ".join(f'"{row["tablename"]}"' for row in tables)
            await conn.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    name = str(request.param)
    if name not in BACKENDS:  # a test parametrised by hand with a backend this run leaves out
        pytest.skip(f"database tests run on {', '.join(BACKENDS)} only in this run")
    return name


@pytest.fixture
def database_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A clean, fully migrated database on the test's backend."""
    if backend == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        path = tmp_path / "agency.db"
        shutil.copyfile(template, path)
        return f"sqlite://{path}"
    url: str = request.getfixturevalue("postgres_database")
    asyncio.run(_empty_postgres(url))
    return url


def make_settings(tmp_path: Path, database_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "data_dir": tmp_path / "data",
        "database_url": database_url,
        "secret_key": "test-secret-key-" + "x" * 32,
        "access_log": False,
        "run_jobs": False,
        "web_dir": tmp_path / "no-web",
        # Never the Commission's VIES: nothing listens on the discard port, so a VAT ID check
        # is `pending` unless a test points this at the fake (tests/fakes/vies_server.py).
        "vies_api_base": "http://127.0.0.1:9",
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def app_settings(tmp_path: Path, database_url: str) -> Settings:
    return make_settings(tmp_path, database_url)


@pytest.fixture
async def app(app_settings: Settings) -> AsyncIterator[Any]:
    """A started app (a Quart test app, database open) on a clean database. A test module or
    folder changes its settings by defining its own `app_settings` fixture."""
    quart_app = create_app(app_settings)
    async with quart_app.test_app() as test_app:
        yield test_app


@pytest.fixture
def client(app: Any) -> Any:
    """A Quart test client of `app`, signed in as nobody (send JSON with
    tests/helpers/http.py's `call`)."""
    return app.test_client()


@pytest.fixture
async def customer(app: Any) -> Any:
    """A test client of `app` signed up and in as the customer `CUSTOMER_EMAIL`
    (ada@example.com); the account's id in `customer.user_id`."""
    return await signed_up(app, CUSTOMER_EMAIL)


@pytest.fixture
async def admin(app: Any) -> Any:
    """A test client of `app` signed up and in as the admin `ADMIN_EMAIL`
    (admin@example.com); the account's id in `admin.user_id`."""
    return await signed_up(app, ADMIN_EMAIL, admin=True)


@asynccontextmanager
async def web_client(
    quart_app: Any, base_url: str = "http://testserver"
) -> AsyncIterator[httpx.AsyncClient]:
    """httpx through the whole stack of a started Quart app (its static layer, then Quart), as
    a browser reaches it: for pages, not only the API."""
    transport = httpx.ASGITransport(app=quart_app)
    async with httpx.AsyncClient(transport=transport, base_url=base_url) as http:
        yield http


@pytest.fixture
async def web(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    """`web_client` of `app`: HTTP through the whole stack, pages and API."""
    async with web_client(app.app) as http:
        yield http


@pytest.fixture
async def orm(database_url: str) -> AsyncIterator[str]:
    """The ORM opened on a clean database, for service-level tests without an app."""
    await db.init_db(database_url, MODEL_MODULES)
    try:
        yield database_url
    finally:
        await db.close_db()


@pytest.fixture
def no_rate_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No rate limit answers 429: for tests sending many requests from one client address."""

    async def allow(*_args: Any, **_kwargs: Any) -> int:
        return 0

    for name in ("enforce", "check", "hit", "give_back"):
        if hasattr(ratelimit, name):
            monkeypatch.setattr(ratelimit, name, allow)
    yield


@pytest.fixture
def psi() -> Iterator[FakePageSpeed]:
    """The fake PageSpeed Insights API on loopback (tests/fakes/pagespeed.py), one per test;
    its `hang` hosts answer after 3 s. A module needing another (an API key, one per module)
    defines its own `psi`."""
    with run_fake_pagespeed(hang_delay=3.0) as fake:
        yield fake


@pytest.fixture(scope="module")
def customer_site() -> Iterator[CustomerSite]:
    """A customer's website on loopback (tests/fakes/customer_site.py), one per test module."""
    with run_customer_site() as site:
        yield site


@pytest.fixture
def smtp_port() -> int:
    """The loopback port the `smtp` server listens on (ask for it alone to point an app at a
    port where nothing listens yet)."""
    return free_port()


@pytest.fixture
def smtp(smtp_port: int) -> Iterator[SmtpServer]:
    """A real SMTP server (aiosmtpd) on loopback; what it receives is in `smtp.inbox`."""
    server = SmtpServer(smtp_port)
    server.start()
    yield server
    server.stop()
