"""Smoke test of the one-file binary, run the way a customer runs it.

1. No configuration: started in an empty directory, it must create its database and answer `/`
   (the prerendered home page) and `/api/health` within the start limit.
2. Every integration configured against the project's fakes, started here on loopback (the
   stateful Stripe fake with its pay page and signed webhooks, an aiosmtpd SMTP server, the fake
   PageSpeed Insights and the fake Kit): `agency stripe sync` run from the binary, a sign-up, a
   checkout paid on the fake's pay page whose webhooks the binary applies, a lead whose
   notification is mailed to the agency, a password reset whose e-mail arrives with a link that
   works, a newsletter opt-in (a lead form with its box ticked) that reaches Kit, a speed test
   run by the binary's job runner whose report is mailed, and `agency speedtest` run from the
   binary; a blog cover image uploaded as WebP, resized by the binary's Pillow and served.

Usage (from the repository root, with the venv's python: the fakes need the dev packages):
    .venv/bin/python scripts/smoke_binary.py dist/agency
Exits non-zero with a message naming the failed step, and the tail of the binary's output.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the fakes live in tests/fakes

HEADLINE = "Your Website. Live in 24 Hours."
# A guard against a start-up that hangs or balloons, not the speed target (bench/startup.py
# measures that): it leaves room for a busy machine, and for this first start applying all 39
# migrations to the fresh database (Tortoise's migration planner copies its state for each one:
# 8 to 10 s on 2026-11-27's machine, whose bare Quart answers a third of the earlier machine's
# req/s; it was 5 s).
START_LIMIT_SECONDS = 25.0
CSRF = {"X-Agency-Request": "1"}
API_KEY = "sk_test_smoke"
WEBHOOK_SECRET = "whsec_smoke"
AGENCY_EMAIL = "owner@agency.test"
BUYER = {"email": "ada@smoke.test", "password": "correct horse", "first_name": "Ada"}
NEW_PASSWORD = "battery staple"
VISITOR = "visitor@smoke.test"
T = TypeVar("T")


class SmokeFailure(Exception):
    pass


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=2) as response:
        return response.status, response.read().decode()


@contextmanager
def step(name: str) -> Iterator[None]:
    started = time.monotonic()
    try:
        yield
    except SmokeFailure as exc:
        raise SmokeFailure(f"{name}: {exc}") from None
    print(f"  ok  {name} ({time.monotonic() - started:.2f} s)", flush=True)


def wait_for(what: str, probe: Callable[[], T | None], timeout: float = 15.0) -> T:
    """Poll `probe` until it returns something other than None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value is not None:
            return value
        time.sleep(0.1)
    raise SmokeFailure(f"{what} did not happen within {timeout:.0f} s")


class Binary:
    """`agency serve` from the binary in a directory, its output kept in a log file."""

    def __init__(self, binary: Path, cwd: Path, env: dict[str, str], port: int) -> None:
        self.binary, self.cwd, self.env, self.port = binary, cwd, env, port
        self.log_path = cwd / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.base_url = f"http://127.0.0.1:{port}"

    def start(self) -> tuple[float, dict[str, Any]]:
        """Start and wait for /api/health; returns the seconds it took and the health answer."""
        started = time.monotonic()
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [str(self.binary), "serve", "--port", str(self.port)],
                cwd=self.cwd,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        while time.monotonic() - started < 30:
            if self.process.poll() is not None:
                raise SmokeFailure(f"`agency serve` exited with {self.process.returncode}")
            try:
                status, body = get(f"{self.base_url}/api/health")
                if status == 200:
                    return time.monotonic() - started, json.loads(body)
            except OSError:
                time.sleep(0.05)
        raise SmokeFailure("/api/health never answered")

    def run(self, *args: str) -> str:
        """A CLI command from the same binary, same directory and configuration."""
        result = subprocess.run(
            [str(self.binary), *args],
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if result.returncode != 0:
            raise SmokeFailure(
                f"`agency {' '.join(args)}` exited with {result.returncode}:\n"
                f"{result.stdout}{result.stderr}"
            )
        return result.stdout

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.is_file():
            return "(the binary wrote nothing)"
        tail = self.log_path.read_text(errors="replace").splitlines()[-lines:]
        return "--- the binary's output (last lines) ---\n" + "\n".join(tail)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def clean_env(**agency: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update({f"AGENCY_{key.upper()}": value for key, value in agency.items()})
    return env


def run_unconfigured(binary: Path) -> None:
    print("== 1. no configuration, empty directory", flush=True)
    with tempfile.TemporaryDirectory() as empty_dir:
        server = Binary(binary, Path(empty_dir), clean_env(), free_port())
        try:
            with step("start until /api/health answers"):
                elapsed, health = server.start()
            print(f"      /api/health answered after {elapsed:.2f} s: {health}")
            with step("/ is the prerendered home page"):
                status, home = get(f"{server.base_url}/")
                if status != 200 or HEADLINE not in home:
                    raise SmokeFailure(f"status {status}, headline missing")
            with step("the page's script is served brotli-compressed from the bundled build"):
                script = re.search(r'src="(/assets/[^"]+\.js)"', home)
                if script is None:
                    raise SmokeFailure("no module script in the home page")
                request = urllib.request.Request(
                    server.base_url + script.group(1), headers={"Accept-Encoding": "br"}
                )
                with urllib.request.urlopen(request, timeout=2) as response:
                    encoding = response.headers.get("Content-Encoding")
                    if response.status != 200 or encoding != "br" or not response.read():
                        raise SmokeFailure(f"status {response.status}, encoding {encoding}")
            with step("/start is the purchase page filled with the catalogue"):
                status, start = get(f"{server.base_url}/start?type=website")
                if status != 200 or 'type="application/json"' not in start:
                    raise SmokeFailure(f"status {status}, no embedded catalogue")
            with step("SQLite database created in ./data"):
                if not (Path(empty_dir) / "data" / "agency.db").is_file():
                    raise SmokeFailure("no data/agency.db")
            with step(f"start-up within {START_LIMIT_SECONDS} s"):
                if elapsed > START_LIMIT_SECONDS:
                    load = os.getloadavg()[0]
                    raise SmokeFailure(
                        f"took {elapsed:.2f} s (load average {load:.1f} on {os.cpu_count()} CPUs)"
                    )
        except SmokeFailure as exc:
            raise SmokeFailure(f"{exc}\n{server.log_tail()}") from None
        finally:
            server.stop()


def webp_image(width: int, height: int) -> bytes:
    """A WebP image of the given size (made with the venv's Pillow)."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (30, 90, 160)).save(buffer, format="WEBP")
    return buffer.getvalue()


def api(client: Any, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
    response = client.request(method, path, json=body, headers=CSRF)
    if response.status_code != expect:
        raise SmokeFailure(f"{method} {path} answered {response.status_code}: {response.text}")
    return response.json() if response.content else None


@contextmanager
def running_smtp(port: int) -> Iterator[Any]:
    from tests.fakes.smtp import SmtpServer

    smtp = SmtpServer(port)
    smtp.start()
    try:
        yield smtp
    finally:
        smtp.stop()


def run_configured(binary: Path) -> None:
    import httpx
    from tests.fakes.kit import run_fake_kit
    from tests.fakes.pagespeed import run_fake_pagespeed
    from tests.fakes.stripe_server import run_fake_stripe
    from tests.helpers import purchase

    print(
        "== 2. every integration configured against the fakes (Stripe, SMTP, PageSpeed, Kit)",
        flush=True,
    )
    port, smtp_port = free_port(), free_port()
    base_url = f"http://127.0.0.1:{port}"
    with (
        running_smtp(smtp_port) as smtp,
        tempfile.TemporaryDirectory() as work_dir,
        run_fake_stripe(
            api_key=API_KEY,
            webhook_url=f"{base_url}/api/billing/webhook",
            webhook_secret=WEBHOOK_SECRET,
        ) as fake,
        run_fake_pagespeed() as pagespeed,
        run_fake_kit() as kit,
        httpx.Client(base_url=base_url, timeout=10) as client,
        httpx.Client(timeout=10) as browser,
    ):
        env = clean_env(
            base_url=base_url,
            stripe_secret_key=API_KEY,
            stripe_webhook_secret=WEBHOOK_SECRET,
            stripe_api_base=fake.base_url,
            smtp_host="127.0.0.1",
            smtp_port=str(smtp_port),
            smtp_security="none",
            agency_email=AGENCY_EMAIL,
            speedtest_provider="psi",
            pagespeed_api_base=pagespeed.base_url,
            # The fake answers for `.example` names, which never resolve.
            speedtest_unsafe_allow_private_targets="true",
            kit_api_version="v3",
            kit_api_base=kit.base_url,
            kit_api_key=kit.api_key,
            kit_form_id=kit.form_id,
        )
        print(
            f"      fake Stripe {fake.base_url}, SMTP 127.0.0.1:{smtp_port}, PageSpeed "
            f"{pagespeed.base_url}, Kit {kit.base_url}, binary {base_url}"
        )
        server = Binary(binary, Path(work_dir), env, port)
        inbox = smtp.inbox
        try:
            with step("start with every integration configured until /api/health answers"):
                elapsed, health = server.start()
                if health.get("status") != "ok":
                    raise SmokeFailure(f"health is {health}")
            print(f"      /api/health answered after {elapsed:.2f} s: {health}")

            with step("`agency stripe sync` from the binary creates the products and prices"):
                output = server.run("stripe", "sync")
                prices = [o for o in fake.objects.values() if o.get("object") == "price"]
                if "created" not in output or not prices:
                    raise SmokeFailure(f"no price in the fake Stripe; output:\n{output}")
            print(f"      {len(prices)} prices in the fake Stripe")

            with step("sign up"):
                api(
                    client,
                    "POST",
                    "/api/auth/signup",
                    {
                        **BUYER,
                        "confirm_password": BUYER["password"],
                        "last_name": "Lovelace",
                    },
                    expect=201,
                )

            with step("checkout: POST /api/billing/checkout answers the pay page"):
                checkout = api(
                    client,
                    "POST",
                    "/api/billing/checkout",
                    {"plan": "professional", "domain": "smoke-shop.example"},
                )
                pay_url = checkout["url"]
                if not pay_url.startswith(fake.base_url):
                    raise SmokeFailure(f"the checkout URL {pay_url} is not the fake's")

            with step("pay on the fake's pay page; the signed webhooks reach the binary"):
                try:
                    paid = purchase.pay_on_pay_page(browser, fake.base_url, pay_url)
                except purchase.PayPageError as exc:
                    raise SmokeFailure(str(exc)) from None
                if paid.status_code != 303 or not paid.headers["location"].startswith(base_url):
                    raise SmokeFailure(f"the payment answered {paid.status_code}: {paid.text}")
                try:
                    types = wait_for(
                        "every webhook answered 2xx", lambda: purchase.webhooks_accepted(fake)
                    )
                except SmokeFailure as exc:
                    refused = purchase.refused_deliveries(fake)
                    raise SmokeFailure(f"{exc}; refused deliveries: {refused}") from None
            print(f"      {len(types)} events delivered and accepted: {', '.join(types)}")

            with step("the purchase shows in the account's billing API"):

                def active() -> dict[str, Any] | None:
                    found = api(client, "GET", "/api/billing/subscription")["subscription"]
                    return found if found and found["subscription_status"] == "active" else None

                subscription = wait_for("an active subscription", active)
                orders = api(client, "GET", "/api/billing/orders")["orders"]
                if subscription["plan_key"] != "professional" or not orders:
                    raise SmokeFailure(f"subscription {subscription}, orders {orders}")
            print(
                f"      subscription {subscription['plan_name']} active, card "
                f"{subscription['payment_method_brand']} {subscription['payment_method_last4']}, "
                f"orders {[(o['plan_key'], o['amount'], o['currency']) for o in orders]}"
            )

            with step("a lead is stored and mailed to the agency over SMTP"):
                api(
                    client,
                    "POST",
                    "/api/leads",
                    {"source": "ai-booking-demo", "email": "lead@smoke.test", "name": "Grace"},
                    expect=201,
                )
                wait_for(
                    "the lead notification e-mail",
                    lambda: next((m for m in inbox.messages if m["To"] == AGENCY_EMAIL), None),
                )

            with step("forgot password: the reset e-mail arrives with a reset link"):
                api(
                    client,
                    "POST",
                    "/api/auth/forgot-password",
                    {"email": BUYER["email"]},
                    expect=202,
                )
                mail = wait_for(
                    "the reset e-mail",
                    # The buyer's order confirmation came first: pick the reset by its subject.
                    lambda: next(
                        (
                            m
                            for m in inbox.messages
                            if m["To"] == BUYER["email"] and "password" in str(m["Subject"])
                        ),
                        None,
                    ),
                )
                link = re.search(
                    re.escape(base_url) + r"/reset-password\?token=([\w-]+)", inbox.text_of(mail)
                )
                if link is None:
                    raise SmokeFailure(f"no reset link in:\n{inbox.text_of(mail)}")

            with step("the reset link sets a new password that signs in"):
                api(
                    client,
                    "POST",
                    "/api/auth/reset-password",
                    {
                        "token": link.group(1),
                        "password": NEW_PASSWORD,
                        "confirm_password": NEW_PASSWORD,
                    },
                )
                api(
                    client,
                    "POST",
                    "/api/auth/login",
                    {"email": BUYER["email"], "password": NEW_PASSWORD},
                )

            with step("newsletter: a lead form with its opt-in box ticked subscribes with Kit"):
                api(
                    client,
                    "POST",
                    "/api/leads",
                    {
                        "source": "ai-booking-demo",
                        "email": VISITOR,
                        "name": "Ada",
                        "newsletter": True,
                    },
                    expect=201,
                )
                wait_for("the fake Kit's subscriber", lambda: kit.on_form(VISITOR) or None)

            with step("speed test: queued, run by the binary's job runner, report e-mailed"):
                started = api(
                    client,
                    "POST",
                    "/api/speed-tests",
                    {"url": "score-42.example", "email": VISITOR, "source": "speed-test"},
                    expect=202,
                )

                def finished() -> dict[str, Any] | None:
                    test = api(client, "GET", f"/api/speed-tests/{started['id']}")
                    return test if test["status"] in ("done", "failed") else None

                test = wait_for("the speed test to finish", finished)
                if test["status"] != "done" or test["result"]["score"] != 42:
                    raise SmokeFailure(f"the speed test ended {test}")
                wait_for(
                    "the speed report e-mail",
                    lambda: next((m for m in inbox.messages if m["To"] == VISITOR), None),
                )
            print(f"      score {test['result']['score']} ({test['result']['rating']})")

            with step("`agency speedtest` from the binary reads the fake PageSpeed"):
                output = server.run("speedtest", "score-77.example", "--json")
                if json.loads(output).get("score") != 77:
                    raise SmokeFailure(f"agency speedtest printed:\n{output}")

            with step("a blog cover (WebP) is resized by the bundled Pillow and served"):
                server.run("users", "set-role", BUYER["email"], "admin")
                article = api(
                    client,
                    "POST",
                    "/api/admin/articles",
                    {"title": "Smoke cover", "body_format": "html", "content": "<p>x</p>"},
                    expect=201,
                )
                response = client.post(
                    f"/api/admin/blog/articles/{article['id']}/cover",
                    files={"file": ("cover.webp", webp_image(1600, 900), "image/webp")},
                    headers=CSRF,
                )
                if response.status_code != 200:
                    raise SmokeFailure(
                        f"the upload answered {response.status_code}: {response.text}"
                    )
                cover = response.json()["cover"]
                urls = [part.split(" ")[0] for part in cover["srcset"].split(", ")]
                if len(urls) != 3 or (cover["width"], cover["height"]) != (1440, 810):
                    raise SmokeFailure(f"the cover is {cover}")
                for url in urls:
                    image = client.get(url)
                    if image.status_code != 200 or image.headers["content-type"] != "image/webp":
                        raise SmokeFailure(f"{url} answered {image.status_code}")
            print(f"      {len(urls)} sizes stored and served")
        except (SmokeFailure, httpx.HTTPError) as exc:
            raise SmokeFailure(f"{exc}\n{server.log_tail()}") from None
        finally:
            server.stop()


def main(binary: str) -> int:
    binary_path = Path(binary).resolve()
    if not binary_path.is_file():
        print(f"FAIL: no binary at {binary_path}", file=sys.stderr)
        return 1
    started = time.monotonic()
    failures = 0
    # A failed run does not stop the other: both verdicts are shown.
    for run in (run_unconfigured, run_configured):
        try:
            run(binary_path)
        except SmokeFailure as exc:
            failures += 1
            sys.stdout.flush()
            print(f"FAIL: {exc}", file=sys.stderr, flush=True)
    if failures:
        print(f"binary smoke test FAILED ({failures} of 2 runs)", file=sys.stderr)
        return 1
    print(f"binary smoke test passed ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "dist/agency"))
