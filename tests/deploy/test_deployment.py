"""The documented deployment (docs/deployment.md), started for real on loopback: Caddy with its
internal CA in front of two `agency serve` instances and one `agency worker` on one PostgreSQL
database, each started from its systemd unit in deploy/ exactly as systemd would (ExecStart,
Environment=, EnvironmentFile=; only the install path /srv/agency and the env file's path are
replaced), the Caddyfile byte for byte behind a test-only global options block, the env file
made from deploy/agency.env.example, and Prometheus run with deploy/prometheus.yml (its target,
token file and interval replaced).

Over HTTPS through Caddy it buys a package through the fake Stripe (whose signed webhooks also
come through Caddy), runs a speed test that only the worker can run, checks what Prometheus
scraped, stops one instance with SIGTERM and shows the other keeps serving, runs the backup
unit (with its pruning) and restores the backup into a new database. Each step prints its time.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import os
import secrets
import signal
import ssl
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import httpx
import pytest

from tests.conftest import free_port, postgres_create, postgres_drop
from tests.fakes.pagespeed import run_fake_pagespeed
from tests.fakes.stripe_server import run_fake_stripe
from tests.helpers import purchase
from tests.helpers.systemd import Unit, command_line, load_unit, unit_environment

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"
INSTALL_DIR = "/srv/agency"
ENV_FILE = "/etc/agency/env"
# systemd's PATH for services.
SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
CSRF = {"X-Agency-Request": "1"}
BUYER = {"email": "ada@deploy.test", "password": "correct horse", "first_name": "Ada"}
SPEED_TEST_KIND = "insights.speed_test"
FAILOVER_REQUESTS = 40
T = TypeVar("T")


def wait_for(what: str, probe: Callable[[], T | None], timeout: float = 20.0) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.1)


@contextlib.contextmanager
def step(name: str, timings: list[tuple[str, float]]) -> Iterator[None]:
    started = time.monotonic()
    yield
    elapsed = time.monotonic() - started
    timings.append((name, elapsed))
    print(f"  {elapsed:6.2f} s  {name}", flush=True)


def sql(url: str, query: str, *args: Any) -> list[Any]:
    async def run() -> list[Any]:
        conn = await asyncpg.connect(url.replace("postgres://", "postgresql://", 1))
        try:
            return list(await conn.fetch(query, *args))
        finally:
            await conn.close()

    return asyncio.run(run())


@dataclass
class Process:
    """A process started as systemd starts a unit's: its own process group (the unit's
    cgroup), SIGTERM to the whole group to stop it."""

    name: str
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    log: Path
    popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.popen = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def stop(self, timeout: float = 30.0) -> int | None:
        """SIGTERM to every process of the group, as systemd's KillMode=control-group does."""
        if self.popen is None:
            return None
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)  # a straggler of the group
        return self.popen.returncode

    def tail(self, lines: int = 25) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return f"--- {self.name} ({self.log}) ---\n" + "\n".join(text.splitlines()[-lines:])


@dataclass
class Layout:
    """The machine: the install directory, the env file, and the processes started."""

    tmp: Path
    env_text: str
    install: Path = field(init=False)
    env_path: Path = field(init=False)
    processes: list[Process] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.install = self.tmp / "srv-agency"
        self.install.mkdir()
        # The install path holds the venv: a link to the one running the tests.
        (self.install / ".venv").symlink_to(Path(sys.prefix))
        self.env_path = self.tmp / "etc-agency-env"
        self.env_path.write_text(self.env_text)

    def unit(self, name: str) -> Unit:
        """A unit file with only the install path and the env file's path replaced."""
        text = (UNITS / name).read_text()
        assert INSTALL_DIR in text and ENV_FILE in text, name
        path = self.tmp / name
        path.write_text(
            text.replace(INSTALL_DIR, str(self.install)).replace(ENV_FILE, str(self.env_path))
        )
        return load_unit(path)

    def environment(self, unit: Unit) -> dict[str, str]:
        """What systemd gives the unit's processes: its own variables on a minimal base."""
        base = {"PATH": SYSTEMD_PATH, "LANG": "C.UTF-8", "HOME": str(self.install)}
        return {**base, **unit_environment(unit, {str(self.env_path): self.env_text})}

    def service(self, name: str, instance: str | None = None) -> Process:
        unit = self.unit(name)
        env = self.environment(unit)
        label = name.replace("@.", f"@{instance}.") if instance else name
        process = Process(
            label,
            command_line(unit.value("Service", "ExecStart"), env, instance),
            env,
            Path(unit.value("Service", "WorkingDirectory")),
            self.tmp / f"{label}.log",
        )
        self.processes.append(process)
        return process

    def run_oneshot(self, name: str) -> list[subprocess.CompletedProcess[str]]:
        """A Type=oneshot unit: ExecStart= then ExecStartPost=, each must succeed."""
        unit = self.unit(name)
        assert unit.value("Service", "Type") == "oneshot"
        env = self.environment(unit)
        results = []
        for key in ("ExecStart", "ExecStartPost"):
            for line in unit.values("Service", key):
                result = subprocess.run(
                    command_line(line, env),
                    cwd=unit.value("Service", "WorkingDirectory"),
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
                assert result.returncode == 0, f"{name} {key}: {result.stdout}{result.stderr}"
                results.append(result)
        return results

    def agency_start(self, *args: str, **extra: str) -> subprocess.Popen[str]:
        """A command an operator runs as the service's user with the env file (see
        docs/deployment.md), started."""
        env = self.environment(self.unit("agency-worker.service")) | extra
        return subprocess.Popen(
            [str(self.install / ".venv" / "bin" / "agency"), *args],
            cwd=self.install,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    @staticmethod
    def agency_finish(command: subprocess.Popen[str]) -> str:
        output, _ = command.communicate(timeout=90)
        assert command.returncode == 0, f"{command.args!r}: {output}"
        return output

    def agency(self, *args: str, **extra: str) -> str:
        return self.agency_finish(self.agency_start(*args, **extra))

    def tails(self) -> str:
        return "\n".join(p.tail() for p in self.processes)


def env_file(example: str, values: dict[str, str], extra: dict[str, str]) -> str:
    """deploy/agency.env.example with `values` in place of its own (each key must be one the
    example sets) and the test's `extra` variables (its fakes, the seller details) appended."""
    lines, replaced = [], set()
    for line in example.splitlines():
        key = line.partition("=")[0]
        if not line.startswith("#") and key in values:
            line = f"{key}={values[key]}"
            replaced.add(key)
        lines.append(line)
    assert replaced == set(values), f"not in the example: {set(values) - replaced}"
    lines += ["", "# The test's own"] + [f"{k}={v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n"


def caddy_root(data_home: Path) -> Path:
    return data_home / "caddy" / "pki" / "authorities" / "local" / "root.crt"


def test_deployment(tmp_path: Path) -> None:
    timings: list[tuple[str, float]] = []
    started = time.monotonic()
    https_port, http_port, metrics_port, prometheus_port = (free_port() for _ in range(4))
    serve_ports = [free_port(), free_port()]
    base_url = f"https://localhost:{https_port}"
    metrics_token = secrets.token_urlsafe(24)
    db_name = f"agency_deploy_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    restored_name = f"{db_name}_restored"
    caddy_home = tmp_path / "caddy"
    for sub in ("data", "config"):
        (caddy_home / sub).mkdir(parents=True)
    # Caddy's internal CA is made at its first start: the fake Stripe's webhook sender reads
    # it once it is there (the context's trust store is filled in below).
    webhook_ca = ssl.create_default_context()

    with step("fresh PostgreSQL database", timings):
        database_url = postgres_create(db_name)
    try:
        with (
            run_fake_stripe(
                api_key="sk_test_deploy",
                webhook_url=f"{base_url}/api/billing/webhook",
                webhook_secret="whsec_deploy",
                webhook_verify=webhook_ca,
            ) as stripe_fake,
            run_fake_pagespeed() as pagespeed,
        ):
            example = (DEPLOY / "agency.env.example").read_text()
            data_dir, metrics_dir, backups = (
                tmp_path / "var-lib-agency",
                tmp_path / "run-agency-metrics",
                tmp_path / "backups",
            )
            text = env_file(
                example,
                {
                    "AGENCY_BASE_URL": base_url,
                    "AGENCY_SECRET_KEY": secrets.token_hex(32),
                    "AGENCY_DATABASE_URL": database_url,
                    "AGENCY_DATA_DIR": str(data_dir),
                    "AGENCY_METRICS_DIR": str(metrics_dir),
                    "AGENCY_METRICS_TOKEN": metrics_token,
                    "AGENCY_STRIPE_SECRET_KEY": "sk_test_deploy",
                    "AGENCY_STRIPE_WEBHOOK_SECRET": "whsec_deploy",
                    # No mail server here: e-mail stays in the outbox.
                    "AGENCY_SMTP_HOST": "",
                },
                {
                    "AGENCY_STRIPE_API_BASE": stripe_fake.base_url,
                    "AGENCY_SPEEDTEST_PROVIDER": "psi",
                    "AGENCY_PAGESPEED_API_BASE": pagespeed.base_url,
                    # The fake answers for `.example` names, which never resolve.
                    "AGENCY_SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS": "true",
                    "AGENCY_SELLER_NAME": "Deploy Test Studio",
                    "AGENCY_SELLER_STREET": "Teststraße 5",
                    "AGENCY_SELLER_MANAGING_DIRECTORS": "Ada Lovelace",
                    "AGENCY_SELLER_EMAIL": "owner@deploy.test",
                    "AGENCY_SELLER_PHONE": "+49 30 5550 0000",
                    "AGENCY_SELLER_REGISTER_NUMBER": "HRB 424242 B",
                    "AGENCY_SELLER_VAT_ID": "DE811907980",
                    "AGENCY_SELLER_EDITORIAL_NAME": "Ada Lovelace",
                    # The backup unit's Environment=BACKUP_DIR, overridden as systemd does
                    # (an EnvironmentFile= wins over Environment=).
                    "BACKUP_DIR": str(backups),
                },
            )
            layout = Layout(tmp_path, text)
            # What systemd's StateDirectory= and RuntimeDirectory= make.
            for directory in (data_dir, metrics_dir, backups):
                directory.mkdir(mode=0o700)
            try:
                run_layout(
                    layout,
                    timings,
                    stripe_fake=stripe_fake,
                    pagespeed=pagespeed,
                    webhook_ca=webhook_ca,
                    caddy_home=caddy_home,
                    ports=(https_port, http_port, metrics_port, prometheus_port, serve_ports),
                    database_url=database_url,
                    restored_name=restored_name,
                    metrics_token=metrics_token,
                    backups=backups,
                )
            except BaseException:
                print(layout.tails(), flush=True)
                raise
            finally:
                for process in reversed(layout.processes):
                    process.stop(timeout=10)
    finally:
        postgres_drop(db_name)
        postgres_drop(restored_name)
    total = time.monotonic() - started
    print(f"  {total:6.2f} s  the whole deployment test", flush=True)


def run_layout(
    layout: Layout,
    timings: list[tuple[str, float]],
    *,
    stripe_fake: Any,
    pagespeed: Any,
    webhook_ca: ssl.SSLContext,
    caddy_home: Path,
    ports: tuple[int, int, int, int, list[int]],
    database_url: str,
    restored_name: str,
    metrics_token: str,
    backups: Path,
) -> None:
    https_port, http_port, metrics_port, prometheus_port, serve_ports = ports
    base_url = f"https://localhost:{https_port}"
    tmp = layout.tmp

    # Caddy and Prometheus start while `agency db upgrade` runs (they need nothing of it).
    # The Caddyfile as shipped, after a global options block for a loopback test: the
    # internal CA instead of Let's Encrypt, free ports, no admin endpoint.
    caddyfile = tmp / "Caddyfile"
    caddyfile.write_text(
        "{\n\tlocal_certs\n\tskip_install_trust\n\tadmin off\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n}}\n\n"
        + (DEPLOY / "Caddyfile").read_text()
    )
    caddy_env = {
        "PATH": SYSTEMD_PATH,
        "HOME": str(caddy_home),
        "XDG_DATA_HOME": str(caddy_home / "data"),
        "XDG_CONFIG_HOME": str(caddy_home / "config"),
        "AGENCY_DOMAIN": "localhost",
        "AGENCY_BIND": "127.0.0.1",
        "AGENCY_METRICS_PORT": str(metrics_port),
        "AGENCY_UPSTREAMS": " ".join(f"127.0.0.1:{p}" for p in serve_ports),
    }
    caddy = Process(
        "caddy",
        ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
        caddy_env,
        tmp,
        tmp / "caddy.log",
    )
    layout.processes.append(caddy)
    caddy.start()

    prometheus_yml = (DEPLOY / "prometheus.yml").read_text()
    token_file = tmp / "agency-metrics-token"
    token_file.write_text(metrics_token)
    for old, new in (
        ("scrape_interval: 15s", "scrape_interval: 1s"),
        (
            "credentials_file: /etc/prometheus/agency-metrics-token",
            f"credentials_file: {token_file}",
        ),
        ('targets: ["127.0.0.1:9180"]', f'targets: ["127.0.0.1:{metrics_port}"]'),
    ):
        assert prometheus_yml.count(old) == 1, old
        prometheus_yml = prometheus_yml.replace(old, new)
    (tmp / "prometheus.yml").write_text(prometheus_yml)
    prometheus = Process(
        "prometheus",
        [
            "prometheus",
            f"--config.file={tmp / 'prometheus.yml'}",
            f"--storage.tsdb.path={tmp / 'prometheus-data'}",
            f"--web.listen-address=127.0.0.1:{prometheus_port}",
        ],
        {"PATH": SYSTEMD_PATH, "HOME": str(tmp)},
        tmp,
        tmp / "prometheus.log",
    )
    layout.processes.append(prometheus)
    prometheus.start()

    with step("install: `agency db upgrade`", timings):
        layout.agency("db", "upgrade")

    with step("`agency catalogue seed` (agency-worker starting meanwhile)", timings):
        worker = layout.service("agency-worker.service")
        worker.start()
        layout.agency("catalogue", "seed")

    with step("start agency-serve@ x2 (`agency stripe sync` meanwhile)", timings):
        sync = layout.agency_start("stripe", "sync")
        serves = [layout.service("agency-serve@.service", str(port)) for port in serve_ports]
        assert all("--no-migrate" in s.argv and s.env["AGENCY_RUN_JOBS"] == "false" for s in serves)
        for process in serves:
            process.start()

        root_crt = caddy_root(caddy_home / "data")
        wait_for("Caddy's root certificate", lambda: root_crt.is_file() or None)
        webhook_ca.load_verify_locations(cafile=root_crt)
        tls = ssl.create_default_context(cafile=str(root_crt))

        def ready(port: int) -> bool | None:
            for process in (worker, *serves, caddy):
                assert process.running(), f"{process.name} exited"
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/health/ready", timeout=2)
            except httpx.HTTPError:
                return None
            return True if answer.status_code == 200 else None

        for port in serve_ports:
            wait_for(f"127.0.0.1:{port}/api/health/ready", functools.partial(ready, port), 40)
        synced = layout.agency_finish(sync)
        assert "created" in synced, synced

    client = httpx.Client(base_url=base_url, verify=tls, timeout=10)
    browser = httpx.Client(verify=tls, timeout=10)
    with client, browser:
        with step("through Caddy over HTTPS: the site answers (its internal CA verified)", timings):

            def through_caddy() -> bool | None:
                try:
                    return client.get("/api/health/ready").status_code == 200 or None
                except httpx.HTTPError:
                    return None

            wait_for("https://localhost/api/health/ready through Caddy", through_caddy)
            http = httpx.get(f"http://localhost:{http_port}/api/health", timeout=5)
            assert http.status_code in (301, 308), http
            # (Caddy 2.6 leaves a non-standard HTTPS port out of the redirect.)
            assert http.headers["location"].startswith("https://localhost"), http.headers
            assert http.headers["location"].endswith("/api/health"), http.headers

        with step("sign up, check out, pay on the fake Stripe; webhooks through Caddy", timings):
            signup = client.post(
                "/api/auth/signup",
                json={**BUYER, "confirm_password": BUYER["password"], "last_name": "Lovelace"},
                headers=CSRF,
            )
            assert signup.status_code == 201, signup.text
            checkout = client.post(
                "/api/billing/checkout",
                json={"plan": "professional", "domain": "deploy-shop.example"},
                headers=CSRF,
            )
            assert checkout.status_code == 200, checkout.text
            paid = purchase.pay_on_pay_page(browser, stripe_fake.base_url, checkout.json()["url"])
            assert paid.status_code == 303 and paid.headers["location"].startswith(base_url)
            try:
                event_types = wait_for(
                    "every webhook accepted", lambda: purchase.webhooks_accepted(stripe_fake)
                )
            except AssertionError as exc:
                raise AssertionError(f"{exc}: {purchase.refused_deliveries(stripe_fake)}") from None
            webhook_urls = {d["url"] for d in stripe_fake.deliveries}
            assert webhook_urls == {f"{base_url}/api/billing/webhook"}, webhook_urls

            def active() -> dict[str, Any] | None:
                found = client.get("/api/billing/subscription").json()["subscription"]
                return found if found and found["subscription_status"] == "active" else None

            subscription = wait_for("the webhook-applied subscription", active)
            assert subscription["plan_key"] == "professional"
        print(f"           {len(event_types)} webhooks accepted: {', '.join(event_types)}")

        with step("a speed test, run by the worker (the instances run no jobs)", timings):
            started = client.post(
                "/api/speed-tests",
                json={"url": "score-42.example", "email": BUYER["email"], "source": "speed-test"},
                headers=CSRF,
            )
            assert started.status_code == 202, started.text

            def finished() -> dict[str, Any] | None:
                test = client.get(f"/api/speed-tests/{started.json()['id']}").json()
                return test if test["status"] in ("done", "failed") else None

            test = wait_for("the speed test", finished, 30)
            assert test["status"] == "done" and test["result"]["score"] == 42, test
            jobs = sql(database_url, "SELECT status FROM job WHERE kind = $1", SPEED_TEST_KIND)
            assert [j["status"] for j in jobs] == ["done"], jobs
            # The job runners this database has seen: the worker's alone (the instances,
            # with AGENCY_RUN_JOBS=false, never started one).
            runners = sql(database_url, "SELECT pid, role FROM job_runner")
            assert [(r["pid"], r["role"]) for r in runners] == [(worker.pid, "worker")], runners

        with step("/metrics: not through the public site; Prometheus scraped the figures", timings):
            for path in ("/metrics", "/metrics/", "/metrics?x=1"):
                hidden = client.get(path, headers={"Authorization": f"Bearer {metrics_token}"})
                assert hidden.status_code == 404, (path, hidden.status_code)
            local = f"http://127.0.0.1:{metrics_port}/metrics"
            assert httpx.get(local, timeout=5).status_code == 401
            assert httpx.get(f"http://127.0.0.1:{metrics_port}/", timeout=5).status_code == 404
            prometheus_api = f"http://127.0.0.1:{prometheus_port}/api/v1/query"

            def series(query: str) -> dict[str, float]:
                """Prometheus' answer to `query`: each series' labels -> value."""
                try:
                    answer = httpx.get(prometheus_api, params={"query": query}, timeout=5)
                except httpx.HTTPError:
                    return {}
                assert answer.status_code == 200, answer.text
                return {
                    ",".join(f"{k}={v}" for k, v in sorted(r["metric"].items())): float(
                        r["value"][1]
                    )
                    for r in answer.json()["data"]["result"]
                }

            def value(query: str) -> float | None:
                found = series(query)
                return next(iter(found.values())) if found else None

            # Every webhook the fake delivered was answered 2xx once: accepted, or ignored (an
            # event type agency does not act on); the checkout was posted once.
            delivered = len(stripe_fake.deliveries)
            wanted = {
                "up": 'up{job="agency"}',
                "webhooks answered": "sum(agency_webhook_events_total)",
                "webhooks accepted": 'sum(agency_webhook_events_total{outcome="accepted"})',
                "webhooks failed": 'sum(agency_webhook_events_total{outcome="failed"})'
                " or vector(0)",
                "speed test runs done": "sum(agency_job_runs_total"
                f'{{kind="{SPEED_TEST_KIND}",outcome="done"}})',
                "checkouts": 'sum(agency_http_requests_total{route="/api/billing/checkout",'
                'method="POST",status="200"})',
                "worker processes": 'sum(agency_processes{role="worker"})',
            }

            def scraped() -> dict[str, float | None] | None:
                figures = {name: value(query) for name, query in wanted.items()}
                complete = (
                    figures["up"] == 1
                    and figures["webhooks answered"] == delivered
                    and (figures["speed test runs done"] or 0) >= 1
                    and (figures["checkouts"] or 0) >= 1
                )
                return figures if complete else None

            try:
                figures = wait_for("Prometheus' figures", scraped, 20)
            except AssertionError:
                raise AssertionError(
                    f"{delivered} webhooks delivered; Prometheus has "
                    f"{ {name: value(query) for name, query in wanted.items()} }\n"
                    f"{series('agency_webhook_events_total')}\n"
                    f"{series('agency_job_runs_total')}"
                ) from None
            assert figures["checkouts"] == 1, figures
            assert figures["webhooks failed"] == 0 and (figures["webhooks accepted"] or 0) >= 1
            assert figures["worker processes"] == 1, figures
        print(f"           Prometheus: {figures}")

        def backup_and_restore() -> None:
            with step("agency-backup.service: a backup, the old ones pruned; restored", timings):
                old = backups / "agency-2000-01-01T031500.backup"
                old.write_bytes(b"old")
                os.utime(old, (time.time() - 20 * 86400,) * 2)
                layout.run_oneshot("agency-backup.service")
                made = sorted(p.name for p in backups.iterdir())
                assert len(made) == 1 and made[0].startswith("agency-20"), made
                assert not old.exists()
                backup = backups / made[0]
                assert backup.stat().st_size > 0 and backup.stat().st_mode & 0o077 == 0
                restored_url = postgres_create(restored_name)
                layout.agency("db", "restore", str(backup), AGENCY_DATABASE_URL=restored_url)
                emails = sql(restored_url, "SELECT email FROM auth_user")
                assert [row["email"] for row in emails] == [BUYER["email"]], emails

        def visitor(stop: threading.Event) -> list[tuple[str, int]]:
            """A signed-in visitor's requests through Caddy, one every 50 ms until `stop`."""
            seen: list[tuple[str, int]] = []
            with httpx.Client(
                base_url=base_url, verify=tls, timeout=15, cookies=client.cookies
            ) as own:
                while not stop.is_set():
                    for path in ("/api/auth/me", "/api/catalogue"):
                        seen.append((path, own.get(path).status_code))
                    if seen[-2][1] != 200 or seen[-1][1] != 200:
                        break  # one failure fails the test: no need to go on
                    stop.wait(0.05)
            return seen

        # The upgrade of docs/deployment.md, with a visitor's requests all along and the
        # nightly backup running meanwhile.
        stop_visitor = threading.Event()
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            backed_up = pool.submit(backup_and_restore)
            visited = pool.submit(visitor, stop_visitor)
            with step(
                "upgrade: stop agency-worker, `agency db upgrade`, start agency-worker", timings
            ):
                assert worker.stop() == 0, worker.tail()
                upgraded = layout.agency("db", "upgrade")
                assert "0 migration(s) applied" in upgraded, upgraded
                worker.start()
            for number, (instance, port) in enumerate(zip(serves, serve_ports, strict=True)):
                with step(f"upgrade: SIGTERM {instance.name}", timings):
                    assert instance.stop() in (0, -signal.SIGTERM), instance.tail()
                    if number == 0:
                        statuses = []
                        for i in range(FAILOVER_REQUESTS):
                            path = ("/api/auth/me", "/api/health", "/api/catalogue")[i % 3]
                            statuses.append((path, client.get(path).status_code))
                            assert statuses[-1][1] == 200, statuses
                        me = client.get("/api/auth/me").json()
                        assert me["user"]["email"] == BUYER["email"], me
                        print(f"           {FAILOVER_REQUESTS} requests in a row: all 200")
                with step(f"upgrade: start {instance.name} until ready; Caddy uses it", timings):
                    offset = instance.log.stat().st_size
                    instance.start()
                    # Ready also means the new worker's heartbeat is there.
                    wait_for("the restarted instance", functools.partial(ready, port), 40)

                    def proxied_to(process: Process, offset: int) -> bool | None:
                        assert client.get("/api/auth/me").status_code == 200
                        with process.log.open("rb") as log:
                            log.seek(offset)
                            return b"GET /api/auth/me 200" in log.read() or None

                    wait_for(
                        f"a request through Caddy to {instance.name}",
                        functools.partial(proxied_to, instance, offset),
                        30,
                    )
            runners = sql(database_url, "SELECT pid, role FROM job_runner")
            assert [(r["pid"], r["role"]) for r in runners] == [(worker.pid, "worker")], runners
            with step("Prometheus after the restarts: live processes, counters kept", timings):
                # The stopped processes' gauges left the sums; their counters stayed in them.
                def after() -> dict[str, float | None] | None:
                    found = {
                        "serve processes": value('sum(agency_processes{role="serve"})'),
                        "worker processes": value('sum(agency_processes{role="worker"})'),
                        "webhooks answered": value(wanted["webhooks answered"]),
                        "checkouts": value(wanted["checkouts"]),
                    }
                    expected = {
                        "serve processes": float(len(serves)),
                        "worker processes": 1.0,
                        "webhooks answered": float(delivered),
                        "checkouts": 1.0,
                    }
                    return found if found == expected else None

                try:
                    after_upgrade = wait_for("Prometheus' figures after the upgrade", after, 15)
                except AssertionError:
                    raise AssertionError(
                        f"{series('agency_processes')}\n{series('agency_webhook_events_total')}"
                    ) from None
            print(f"           Prometheus: {after_upgrade}")
            stop_visitor.set()
            requests = visited.result()
            failed = [r for r in requests if r[1] != 200]
            assert requests and not failed, f"{len(failed)} of {len(requests)} failed: {failed}"
            print(f"           the visitor's {len(requests)} requests during the upgrade: all 200")
            backed_up.result()

    for process in layout.processes:
        assert process.running(), f"{process.name} exited:\n{process.tail()}"
