"""End-to-end fixtures: the real server (`python -m agency serve`) on a free port, and real
headless Chromium (Debian's /usr/bin/chromium, no browser download) driven by Playwright."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from agency.core.paths import web_dir
from tests.conftest import free_port, postgres_create, postgres_drop
from tests.fakes.smtp import SmtpServer
from tests.fakes.stripe_server import FakeStripe, run_fake_stripe

WEBHOOK_SECRET = "whsec_e2e_secret"
# Site details the live server is configured with (pages must show these, not defaults).
CONTACT_PHONE = "+44 20 7946 0958"
CONTACT_EMAIL = "team@e2e.example"

CHROMIUM = os.environ.get("AGENCY_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@dataclass
class LiveServer:
    url: str
    workdir: Path
    process: subprocess.Popen[bytes]
    env: dict[str, str]
    stripe: FakeStripe

    def cli(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        """Run `agency ...` with this server's configuration, as an admin would."""
        return subprocess.run(
            [sys.executable, "-m", "agency", *args],
            cwd=self.workdir,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )


def wait_until_up(url: str, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("server did not answer /api/health in time")


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[SmtpServer]:
    """A real SMTP server the live server sends its mail to."""
    server = SmtpServer(free_port())
    server.start()
    yield server
    server.stop()


@contextmanager
def running_server(
    tmp_path_factory: pytest.TempPathFactory,
    smtp_server: SmtpServer,
    *,
    stripe_sync: bool = True,
    **settings: str,
) -> Iterator[LiveServer]:
    """The real server, its mail going to a real SMTP server and its payments to our fake
    Stripe, which sends its signed webhooks back to the server over HTTP. `settings` are extra
    AGENCY_* variables (e.g. SCHEDULING_URL="..."); without `stripe_sync` the catalogue is not
    synced to the fake (a server whose STRIPE_SECRET_KEY is empty: payments not set up)."""
    if not (web_dir() / "index.html").is_file():
        raise RuntimeError("the web UI is not built: run `npm run build` in webui/")
    workdir = tmp_path_factory.mktemp("server")
    port = free_port()
    stripe_context = run_fake_stripe(
        webhook_url=f"http://127.0.0.1:{port}/api/billing/webhook", webhook_secret=WEBHOOK_SECRET
    )
    fake = stripe_context.__enter__()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(
        AGENCY_DATA_DIR=str(workdir / "data"),
        AGENCY_LOG_LEVEL="warning",
        AGENCY_SMTP_HOST="127.0.0.1",
        AGENCY_SMTP_PORT=str(smtp_server.port),
        AGENCY_SMTP_SECURITY="none",
        AGENCY_BASE_URL=f"http://127.0.0.1:{port}",
        AGENCY_STRIPE_SECRET_KEY=fake.api_key,
        AGENCY_STRIPE_API_BASE=fake.base_url,
        AGENCY_STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
        AGENCY_CONTACT_PHONE=CONTACT_PHONE,
        AGENCY_CONTACT_EMAIL=CONTACT_EMAIL,
        AGENCY_CONTENT_ENGINE_PLANS='{"/ai-scale-startup4": "ai-scale-growth"}',
    )
    env.update({f"AGENCY_{key}": value for key, value in settings.items()})
    log = (workdir / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "agency", "serve", "--port", str(port)],
        cwd=workdir,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = LiveServer(f"http://127.0.0.1:{port}", workdir, process, env, fake)
    try:
        wait_until_up(server.url, process)
        if stripe_sync:
            server.cli("stripe", "sync")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        stripe_context.__exit__(None, None, None)


def in_thread(work: Any, *args: Any) -> Any:
    """Run `work` (which uses asyncio.run) off the main thread, where Playwright's loop runs."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work, *args).result()


@contextmanager
def running_server_on(
    backend: str,
    label: str,
    tmp_path_factory: pytest.TempPathFactory,
    smtp_server: SmtpServer,
    **settings: str,
) -> Iterator[LiveServer]:
    """`running_server` on a database of its own: a fresh PostgreSQL database named after
    `label` (dropped afterwards) for "postgres", the server's own SQLite file otherwise."""
    if backend != "postgres":
        with running_server(tmp_path_factory, smtp_server, **settings) as live:
            yield live
        return
    name = f"agency_e2e_{label}_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    url = in_thread(postgres_create, name)
    try:
        with running_server(tmp_path_factory, smtp_server, DATABASE_URL=url, **settings) as live:
            yield live
    finally:
        in_thread(postgres_drop, name)


@pytest.fixture(scope="session")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    """The real server as configured for the whole E2E session."""
    with running_server(tmp_path_factory, smtp_server) as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@dataclass
class ConsoleLog:
    """Console errors, warnings and uncaught page errors seen during a test."""

    problems: list[str] = field(default_factory=list)

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(f"{message.type}: {message.text}")

    def on_page_error(self, error: Exception) -> None:
        self.problems.append(f"pageerror: {error}")


@pytest.fixture
def console() -> ConsoleLog:
    return ConsoleLog()


def open_page(
    browser: Browser, console: ConsoleLog, viewport: dict[str, int], **kw: object
) -> Page:
    context = browser.new_context(viewport=viewport, **kw)  # type: ignore[arg-type]
    page = context.new_page()
    page.on("console", console.on_console)
    page.on("pageerror", console.on_page_error)
    return page


@pytest.fixture
def page(browser: Browser, console: ConsoleLog) -> Iterator[Page]:
    desktop = open_page(browser, console, DESKTOP)
    yield desktop
    desktop.context.close()


@pytest.fixture
def phone(browser: Browser, console: ConsoleLog) -> Iterator[Page]:
    mobile = open_page(browser, console, PHONE, is_mobile=True, has_touch=True)
    yield mobile
    mobile.context.close()
