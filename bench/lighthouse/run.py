"""Lighthouse over every public page of the product, served by the real server.

Copies the built web UI (webui/dist) aside, starts `agency serve` on it with a fresh SQLite
database, then runs Lighthouse (npm `lighthouse` pinned in bench/lighthouse/package.json,
/usr/bin/chromium, default mobile form factor and simulated throttling) on every prerendered
route, on one blog article (three articles are seeded with `agency articles import` and
`publish`, so `/blog` shows a list too), on the purchase pages (`/start` and variants,
`/ai-start`: server pages filled per request) and on `/dashboard` and `/dashboard/billing`
signed in (a user signed up through the API; Lighthouse attaches to a Chromium holding its
session cookies: --port, --disable-storage-reset), one run at a time, N runs per route (default 3).
Per route it reports the median score of each category (performance, accessibility, best
practices, SEO) and the first-load JS in kB gzip, computed from the build as
webui/scripts/size-report.mjs does. Prints a markdown table, writes it to
bench/out/lighthouse.md and lists the audits behind every score below 100.

Run from anywhere, after `cd webui && npm run build`:
    .venv/bin/python bench/lighthouse/run.py [--routes /,/pricing] [--runs 3] [--json out.json]
        [--fail-on-miss]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = REPO / "bench" / "out" / "lighthouse.md"
DIST = REPO / "webui" / "dist"
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CATEGORY_TITLES = {
    "performance": "Performance",
    "accessibility": "Accessibility",
    "best-practices": "Best practices",
    "seo": "SEO",
}
TARGETS = {"performance": 99, "accessibility": 100, "best-practices": 100, "seo": 100}
MAX_JS_KB = 90.0  # first-load JS, kB (1000 bytes) gzip
MAX_CLS = 0.01  # the purchase pages and the dashboard: nothing moves
# Shown in the progress lines: the metrics behind the performance score.
METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
    "speed-index": "SI",
}

READY_TIMEOUT = 120.0  # server start, migrations of a fresh database included
STOP_TIMEOUT = 10.0
RUN_TIMEOUT = 300.0  # one Lighthouse run
DIST_ATTEMPTS = 30  # webui/dist may be rebuilt under us: retry the snapshot this often
DIST_RETRY_SECONDS = 10.0
ASSET_TAG = re.compile(r"<(?:script|link)\b[^>]*>")
# Every /assets/ file a tag names: in src/href, and in the paint-first loader's data-entry and
# (space-separated) data-preload.
ASSET_REF = re.compile(r"[\"\s]/(assets/[^\"\s]+)")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class SetupError(Exception):
    """Something the benchmark needs is missing; the message says what to do."""


# --- the build ------------------------------------------------------------------------


# The blog's article page is filled per request from the build's template: the sweep seeds
# articles (through `agency articles import` and `publish`, as an admin would) and measures one.
ARTICLE_ROUTE = "/blog/why-a-fast-website-books-more-clients"
SEEDED_ARTICLES = (
    (
        "Why a Fast Website Books More Clients",
        "A slow page loses visitors before they see your offer. What to measure and fix first.",
        "speed, bookings, small business",
    ),
    (
        "Five Funnel Fixes That Pay for Themselves",
        "The small changes to a sales funnel that bring more leads from the same traffic.",
        "funnels, leads",
    ),
    (
        "What AI Automation Can Do for a Two-Person Agency",
        "Onboarding, follow-ups and reports: where automation saves hours every week.",
        "ai, automation",
    ),
)
ARTICLE_BODY = """
## Every second counts

Visitors on phones leave a page that takes more than three seconds to show. A fast page keeps
them long enough to read **what you offer** and to book.

## What to measure

- Largest Contentful Paint: when the main content shows.
- Total Blocking Time: how long the page ignores taps.
- Cumulative Layout Shift: how much the page jumps.

## What to fix first

1. Images: sized, compressed and lazy below the fold.
2. Scripts: only what the page needs, after the first paint.
3. Fonts: the system's, or one self-hosted file.

> A page that answers in one second sells more than a beautiful page nobody waits for.

Read more in [our speed test](/speed-test) and book a call when you are ready.
"""


# The purchase pages: server pages filled per request from the variant the query
# asks for (webui/scripts/prerender.mjs); their built file is that variant's template.
PURCHASE_ROUTES = (
    "/start",
    "/start?type=ai-booking",
    "/start?type=website&plan=premium",
    "/ai-start",
)
PURCHASE_FILES = {
    "/start": "_templates/start/type-website.html",
    "/start?type=ai-booking": "_templates/start/type-ai-booking.html",
    "/start?type=website&plan=premium": "_templates/start/plan-premium.html",
    "/ai-start": "_templates/ai-start/plan-professional.html",
}
# The dashboard, measured signed in: the sweep signs a user up through the API and runs
# Lighthouse in a Chromium holding its cookies (signed_in_browser). Its own targets.
SIGNED_IN_ROUTES = ("/dashboard", "/dashboard/billing")
# SEO is no target there: signed-in pages are kept out of search engines on purpose.
SIGNED_IN_TARGETS = {**TARGETS, "performance": 95, "seo": 0}
BENCH_EMAIL = "lighthouse@example.com"
BENCH_PASSWORD = "lighthouse bench 2026"


def targets(route: str) -> dict[str, int]:
    return SIGNED_IN_TARGETS if route in SIGNED_IN_ROUTES else TARGETS


def page_file(route: str) -> str:
    """The built HTML of a route, relative to the build (as size-report.mjs maps it); an
    article's is the template the server fills."""
    if route.startswith("/blog/"):
        return "_templates/blog/_slug.html"
    if route in PURCHASE_FILES:
        return PURCHASE_FILES[route]
    if route in SIGNED_IN_ROUTES:
        return "spa.html"
    return "index.html" if route == "/" else f"{route.strip('/')}/index.html"


def seed_articles(program: Path, work: Path, env: dict[str, str]) -> None:
    """Publish the sweep's articles with the CLI (the first at ARTICLE_ROUTE)."""
    for n, (title, description, keywords) in enumerate(reversed(SEEDED_ARTICLES)):
        source = work / f"article-{n}.md"
        source.write_text(
            f"---\ntitle: {title}\ndescription: {description}\nkeywords: [{keywords}]\n---\n"
            + ARTICLE_BODY,
            encoding="utf-8",
        )
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        for argv in (["articles", "import", str(source)], ["articles", "publish", slug]):
            done = subprocess.run(
                [str(program), *argv], cwd=work, env=env, capture_output=True, text=True
            )
            if done.returncode != 0:
                raise SetupError(f"agency {' '.join(argv)} failed:\n{done.stdout}{done.stderr}")


def session_cookies(port: int) -> list[tuple[str, str]]:
    """Sign the bench's user up (or, if it exists, in) through the API: its cookies."""
    headers = {"Content-Type": "application/json", "X-Agency-Request": "1"}
    body = {"email": BENCH_EMAIL, "password": BENCH_PASSWORD}
    signup = {
        **body,
        "confirm_password": BENCH_PASSWORD,
        "first_name": "Light",
        "last_name": "House",
    }
    for path, payload in (("/api/auth/signup", signup), ("/api/auth/login", body)):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("POST", path, json.dumps(payload), headers)
            response = conn.getresponse()
            response.read()
            cookies = [
                (pair[0], pair[2])
                for name, value in response.getheaders()
                if name.lower() == "set-cookie"
                for pair in [value.split(";", 1)[0].partition("=")]
            ]
        finally:
            conn.close()
        if response.status == 200 and cookies:
            return cookies
    raise SetupError(f"could not sign the bench user in (last answer {response.status})")


@contextlib.contextmanager
def signed_in_browser(port: int, work: Path) -> Iterator[int]:
    """Chromium holding the bench user's session cookies (the web UI reads its signed-in hint
    from document.cookie, which a Cookie request header would not set); Lighthouse attaches to
    it (--port, --disable-storage-reset). Yields its remote debugging port."""
    from playwright.sync_api import sync_playwright  # signed-in runs only

    cookies = session_cookies(port)
    debug_port = free_port()
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(work / "signed-in-profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=[f"--remote-debugging-port={debug_port}", "--no-sandbox", "--disable-gpu"],
        )
        try:
            context.add_cookies(
                [
                    {"name": name, "value": value, "url": f"http://127.0.0.1:{port}"}
                    for name, value in cookies
                ]
            )
            yield debug_port
        finally:
            context.close()


def first_load_js(web: Path, route: str) -> int:
    """Bytes of gzip of every distinct .js under /assets/ the page's HTML references (scripts,
    modulepreloads, the modules its loader lists): the figure webui/scripts/size-report.mjs
    prints."""
    html = (web / page_file(route)).read_text(encoding="utf-8")
    refs = {
        m[1]
        for tag in ASSET_TAG.finditer(html)
        for m in ASSET_REF.finditer(tag[0])
        if m[1].endswith(".js")
    }
    return sum((web / f"{ref}.gz").stat().st_size for ref in refs)


def check_build(web: Path) -> list[str]:
    """The prerendered routes of a complete build at `web`; raises OSError/ValueError if the
    build is incomplete (a page, a referenced asset or its .gz missing)."""
    manifest = json.loads((web / "routes.json").read_text(encoding="utf-8"))
    routes = [str(r) for r in manifest["prerendered"]]
    if not routes:
        raise ValueError("routes.json lists no prerendered route")
    for route in routes:
        first_load_js(web, route)  # reads the page and stats every .gz it needs
    return routes


def snapshot_build(dist: Path, target: Path) -> list[str]:
    """Copies the build to `target` so a rebuild of webui/dist during the (long) run changes
    nothing; retries while the build is missing or incomplete. Returns the prerendered routes."""
    if not dist.is_dir():
        raise SetupError(
            f"{dist} does not exist. Build the web UI first: cd webui && npm run build"
        )
    for attempt in range(1, DIST_ATTEMPTS + 1):
        try:
            if not (dist / "routes.json").is_file():
                raise FileNotFoundError(f"{dist / 'routes.json'} is missing")
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(dist, target)
            return check_build(target)
        except (OSError, ValueError, KeyError, shutil.Error) as exc:
            if attempt == DIST_ATTEMPTS:
                raise SetupError(
                    f"no complete web UI build in {dist} ({exc}).\n"
                    "Build it first: cd webui && npm run build"
                ) from exc
            log(
                f"web UI build incomplete ({exc}); rebuilt right now? "
                f"retrying in {DIST_RETRY_SECONDS:.0f} s ({attempt}/{DIST_ATTEMPTS})"
            )
            time.sleep(DIST_RETRY_SECONDS)
    raise AssertionError("unreachable")


# --- tools ----------------------------------------------------------------------------


def ensure_lighthouse() -> None:
    """`npm ci` in bench/lighthouse when Lighthouse is not installed yet (no browser download:
    we use the system Chromium)."""
    if LIGHTHOUSE.exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SetupError("npm not found: install Node.js 20 and npm")
    log(f"installing Lighthouse: npm ci in {HERE}")
    env = {**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1", "PUPPETEER_SKIP_CHROMIUM_DOWNLOAD": "1"}
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=HERE, env=env, stdin=subprocess.DEVNULL
    )
    if done.returncode != 0 or not LIGHTHOUSE.exists():
        raise SetupError(f"npm ci failed in {HERE} (exit {done.returncode})")


def chromium_version() -> str:
    if not Path(CHROMIUM).exists():
        raise SetupError(f"{CHROMIUM} not found: apt-get install -y chromium")
    done = subprocess.run(
        [CHROMIUM, "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    lines = done.stdout.strip().splitlines()
    return lines[0].strip() if lines else "Chromium (unknown version)"


def agency_program(given: str | None) -> Path:
    """`agency` of the repository's .venv, else of the interpreter running us."""
    candidates = [Path(given)] if given else [REPO / ".venv" / "bin" / "agency"]
    candidates.append(Path(sys.executable).parent / "agency")
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise SetupError(
        f"no agency program at {', '.join(map(str, candidates))}: pip install -e . in a venv"
    )


# --- the server -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def get_status(port: int, path: str, timeout: float = 5.0) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": "br, gzip"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def tail(path: Path, lines: int = 20) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server (graceful), SIGKILL to its whole session if it lingers."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(STOP_TIMEOUT)
    # granian's workers left behind carry the leader's process group id.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@contextlib.contextmanager
def agency_server(program: Path, work: Path, web: Path) -> Iterator[int]:
    """The real server on a free port, fresh database in `work`, serving the build `web`."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(
        AGENCY_DATABASE_URL=f"sqlite://{work / 'bench.db'}",
        AGENCY_DATA_DIR=str(work / "data"),
        AGENCY_WEB_DIR=str(web),
        AGENCY_ACCESS_LOG="false",
        AGENCY_LOG_LEVEL="warning",
    )
    argv = [str(program), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    server_log = work / "server.log"
    with server_log.open("wb") as out:
        # Own session: a Ctrl-C in the terminal reaches us, and we stop the server ourselves.
        proc = subprocess.Popen(
            argv,
            cwd=work,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            started = time.monotonic()
            while True:
                if proc.poll() is not None:
                    raise SetupError(
                        f"agency serve exited with {proc.returncode}:\n{tail(server_log)}"
                    )
                with contextlib.suppress(OSError, http.client.HTTPException):
                    if get_status(port, "/api/health", timeout=2.0) == 200:
                        break
                if time.monotonic() - started > READY_TIMEOUT:
                    raise SetupError(
                        f"no 200 from /api/health after {READY_TIMEOUT:.0f} s:\n{tail(server_log)}"
                    )
                time.sleep(0.1)
            log(f"agency serve ready on port {port} in {time.monotonic() - started:.1f} s")
            seed_articles(program, work, env)
            yield port
        finally:
            stop(proc)


# --- Lighthouse -----------------------------------------------------------------------


@dataclass
class Audit:
    id: str
    title: str
    score: float | None  # None: the audit itself errored
    display: str  # Lighthouse's figure and explanation
    weighted: bool  # counts in the category score (else a diagnostic)


@dataclass
class Run:
    """One Lighthouse run of one route."""

    error: str = ""  # empty when the run produced scores
    scores: dict[str, int | None] = field(default_factory=dict)  # 0-100; None: not scored
    failing: dict[str, list[Audit]] = field(default_factory=dict)  # category -> audits < 1
    metrics: dict[str, str] = field(default_factory=dict)  # FCP, LCP... as Lighthouse shows
    js_transfer: int = 0  # bytes on the wire (br) of every script the page loaded
    warnings: list[str] = field(default_factory=list)
    version: str = ""
    benchmark_index: float | None = None  # Lighthouse's CPU speed estimate of this machine
    cls: float | None = None  # Cumulative Layout Shift, as measured
    seconds: float = 0.0


RETRIES = 1  # extra attempts for a run that fails


def run_lighthouse(url: str, report: Path, work: Path, browser_port: int | None = None) -> Run:
    """One Lighthouse run; never raises for a Lighthouse failure (the Run carries the error).
    With `browser_port`, in that running Chromium (signed in), its cookies kept."""
    browser = (
        [f"--port={browser_port}", "--disable-storage-reset"]
        if browser_port
        else [f"--chrome-flags={CHROME_FLAGS}"]
    )
    argv = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        *browser,
        f"--only-categories={','.join(CATEGORIES)}",
        "--no-enable-error-reporting",
    ]
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    lh_log = work / "lighthouse.log"
    report.unlink(missing_ok=True)
    started = time.monotonic()
    with lh_log.open("wb") as out:
        # Own session, so a Ctrl-C reaches us only: we then pass SIGINT on, on which
        # chrome-launcher closes the browser it started (a SIGKILL would leave it running).
        proc = subprocess.Popen(
            argv,
            cwd=work,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            code = proc.wait(RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    seconds = time.monotonic() - started
    if code is None:
        return Run(error=f"timed out after {RUN_TIMEOUT:.0f} s:\n{tail(lh_log)}", seconds=seconds)
    if code != 0 or not report.is_file():
        return Run(error=f"lighthouse exited with {code}:\n{tail(lh_log)}", seconds=seconds)
    try:
        lhr = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return Run(error=f"unreadable report: {exc}", seconds=seconds)
    run = parse_report(lhr)
    run.seconds = seconds
    return run


def parse_report(lhr: dict[str, Any]) -> Run:
    run = Run(
        version=str(lhr.get("lighthouseVersion", "")),
        warnings=[str(w) for w in lhr.get("runWarnings", [])],
        benchmark_index=lhr.get("environment", {}).get("benchmarkIndex"),
    )
    audits: dict[str, Any] = lhr.get("audits", {})
    runtime_error = lhr.get("runtimeError")
    if runtime_error:
        run.error = f"{runtime_error.get('code')}: {runtime_error.get('message')}"
    for name in CATEGORIES:
        category = lhr.get("categories", {}).get(name)
        score = None if category is None else category.get("score")
        run.scores[name] = None if score is None else round(score * 100)
        if category is None:
            continue
        failing = []
        for ref in category.get("auditRefs", []):
            audit = audits.get(ref["id"], {})
            value = audit.get("score")
            if audit.get("scoreDisplayMode") != "error" and (value is None or value >= 1):
                continue
            weighted = ref.get("weight", 0) > 0
            # Unweighted performance diagnostics (unused JS, uncompressed text...) point at
            # what to fix; other unweighted audits (and the hidden insights) do not count.
            if not weighted and ref.get("group") != "diagnostics":
                continue
            shown = [
                str(audit.get(key)).replace("\xa0", " ")
                for key in ("displayValue", "explanation", "errorMessage")
                if audit.get(key)
            ]
            title = str(audit.get("title", ref["id"]))
            failing.append(Audit(ref["id"], title, value, "; ".join(shown), weighted))
        run.failing[name] = failing
    if not run.error and any(run.scores[name] is None for name in CATEGORIES):
        missing = [name for name in CATEGORIES if run.scores[name] is None]
        run.error = f"no score for {', '.join(missing)}"
    for audit_id, short in METRICS.items():
        shown = audits.get(audit_id, {}).get("displayValue")
        if shown:
            run.metrics[short] = str(shown).replace("\xa0", " ")
    cls = audits.get("cumulative-layout-shift", {}).get("numericValue")
    run.cls = None if cls is None else float(cls)
    requests = audits.get("network-requests", {}).get("details", {}).get("items", [])
    run.js_transfer = sum(
        int(item.get("transferSize") or 0)
        for item in requests
        if item.get("resourceType") == "Script"
    )
    return run


# --- results --------------------------------------------------------------------------


@dataclass
class RouteResult:
    route: str
    js_gzip: int
    runs: list[Run] = field(default_factory=list)

    @property
    def good_runs(self) -> list[Run]:
        return [run for run in self.runs if not run.error]

    @property
    def failed_runs(self) -> list[Run]:
        return [run for run in self.runs if run.error]

    def median_run(self, category: str) -> Run | None:
        """The run holding the median score of `category` (the lower middle one for an even
        count), so every figure shown is one a real run produced."""
        runs = sorted(self.good_runs, key=lambda run: run.scores[category] or 0)
        return runs[(len(runs) - 1) // 2] if runs else None

    def score(self, category: str) -> int | None:
        run = self.median_run(category)
        return None if run is None else run.scores[category]

    def misses(self) -> list[str]:
        """Every target this route misses, in words; empty when it meets them all."""
        found = []
        if self.failed_runs:
            found.append(f"{len(self.failed_runs)}/{len(self.runs)} Lighthouse runs failed")
        for name in CATEGORIES:
            score = self.score(name)
            if score is None or score < targets(self.route)[name]:
                found.append(f"{CATEGORY_TITLES[name]} {score if score is not None else 'n/a'}")
        shifts = [run.cls for run in self.good_runs if run.cls is not None]
        if self.route in (*PURCHASE_ROUTES, *SIGNED_IN_ROUTES) and shifts:
            cls = statistics.median(shifts)
            if cls >= MAX_CLS:
                found.append(f"CLS {cls:.3f} ≥ {MAX_CLS:g}")
        if self.js_gzip / 1000 > MAX_JS_KB:
            found.append(f"first-load JS {self.js_gzip / 1000:.1f} kB > {MAX_JS_KB:g} kB")
        return found

    def as_json(self) -> dict[str, Any]:
        perf = self.median_run("performance")
        return {
            "route": self.route,
            "scores": {name: self.score(name) for name in CATEGORIES},
            "first_load_js_gzip_bytes": self.js_gzip,
            "js_transfer_bytes": None if perf is None else perf.js_transfer,
            "misses": self.misses(),
            "runs": [
                {
                    "error": run.error,
                    "scores": run.scores,
                    "metrics": run.metrics,
                    "js_transfer_bytes": run.js_transfer,
                    "benchmark_index": run.benchmark_index,
                    "seconds": round(run.seconds, 1),
                    "warnings": run.warnings,
                    "failing_audits": {
                        name: [audit.__dict__ for audit in audits]
                        for name, audits in run.failing.items()
                    },
                }
                for run in self.runs
            ],
        }


def cell(score: int | None, target: int) -> str:
    if score is None:
        return "error ✗"
    return f"{score}" if score >= target else f"**{score}** ✗"


def kb(size: int) -> str:
    return f"{size / 1000:.1f}"


def describe(audit: Audit) -> str:
    details = [audit.display] if audit.display else []
    if audit.score is not None:
        details.append(f"score {audit.score:.2f}")
    return f"`{audit.id}` ({audit.title}{': ' if details else ''}{'; '.join(details)})"


def route_notes(result: RouteResult) -> list[str]:
    """The route's misses, failed runs and, per category below 100, the weighted audits that
    scored below 1 in the run that gave the median score."""
    lines = []
    for run in result.failed_runs:
        error = [line.strip() for line in run.error.splitlines() if line.strip()]
        summary = error[0] if len(error) < 2 else f"{error[0]} … {error[-1]}"
        lines.append(f"  - failed run: {summary}")
    for name in CATEGORIES:
        median = result.median_run(name)
        if median is None or (median.scores[name] or 0) >= 100:
            continue
        failing = median.failing.get(name, [])
        weighted = [audit for audit in failing if audit.weighted]
        lines.append(
            f"  - {CATEGORY_TITLES[name]} {median.scores[name]}: "
            + (", ".join(map(describe, weighted)) or "(no weighted audit below 1)")
        )
        diagnostics = [audit for audit in failing if not audit.weighted]
        if diagnostics:
            lines.append(f"    - diagnostics: {', '.join(map(describe, diagnostics))}")
    misses = result.misses()
    if not lines and not misses:
        return []
    summary = "; ".join(misses) if misses else "meets the targets"
    return [f"- `{result.route}`: {summary}", *lines]


def report_markdown(results: list[RouteResult], header: str) -> str:
    lines = [
        header,
        "",
        "| Route | Performance | Accessibility | Best practices | SEO "
        "| First-load JS (kB gzip) | JS transferred (kB) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        perf = result.median_run("performance")
        js = kb(result.js_gzip)
        js = js if result.js_gzip / 1000 <= MAX_JS_KB else f"**{js}** ✗"
        route = f"`{result.route}`"
        if result.failed_runs:
            route += f" ({len(result.failed_runs)}/{len(result.runs)} runs failed) ✗"
        lines.append(
            f"| {route} | "
            + " | ".join(
                cell(result.score(name), targets(result.route)[name]) for name in CATEGORIES
            )
            + f" | {js} | {'n/a' if perf is None else kb(perf.js_transfer)} |"
        )
    missed = [result for result in results if result.misses()]
    lines += [
        "",
        f"{len(results) - len(missed)} of {len(results)} routes meet every target "
        f"(performance ≥ {TARGETS['performance']}, accessibility, best practices and SEO "
        f"{TARGETS['seo']}, first-load JS ≤ {MAX_JS_KB:g} kB gzip; the purchase pages also "
        f"CLS < {MAX_CLS:g}; the signed-in dashboard performance ≥ "
        f"{SIGNED_IN_TARGETS['performance']}).",
    ]
    notes = [line for result in results for line in route_notes(result)]
    if notes:
        lines += ["", "### Misses, and the audits behind every score below 100", "", *notes]
    return "\n".join(lines) + "\n"


# --- main -----------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--routes", help="comma-separated routes to measure (default: every prerendered route)"
    )
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per route (3)")
    parser.add_argument("--json", type=Path, help="also write the raw figures to this file")
    parser.add_argument(
        "--fail-on-miss", action="store_true", help="exit 1 when a route misses a target"
    )
    parser.add_argument("--dist", type=Path, default=DIST, help="the web UI build (webui/dist)")
    parser.add_argument("--agency", help="the agency program (default: .venv/bin/agency)")
    parser.add_argument(
        "--save-reports", type=Path, help="keep every Lighthouse JSON report in this directory"
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def on_sigterm(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # unwinds like Ctrl-C: Lighthouse and the server are stopped


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, on_sigterm)
    load_start = os.getloadavg()
    try:
        ensure_lighthouse()
        chromium = chromium_version()
        program = agency_program(args.agency)
        with tempfile.TemporaryDirectory(prefix="lighthouse-bench-") as tmp:
            work = Path(tmp)
            web = work / "web"
            routes = [
                *snapshot_build(args.dist.resolve(), web),
                ARTICLE_ROUTE,
                *PURCHASE_ROUTES,
                *SIGNED_IN_ROUTES,
            ]
            if args.routes:
                wanted = [r.strip() for r in args.routes.split(",") if r.strip()]
                unknown = [r for r in wanted if r not in routes]
                if unknown:
                    raise SetupError(
                        f"not prerendered: {', '.join(unknown)}; routes are {', '.join(routes)}"
                    )
                routes = wanted
            log(f"{len(routes)} routes x {args.runs} runs; {chromium}")
            results = [RouteResult(route, first_load_js(web, route)) for route in routes]
            with agency_server(program, work, web) as port:
                measure(results, port, args, work)
    except SetupError as exc:
        log(f"error: {exc}")
        return 2
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    load_end = os.getloadavg()

    versions = sorted({run.version for r in results for run in r.runs if run.version})
    indexes = [
        run.benchmark_index for r in results for run in r.runs if run.benchmark_index is not None
    ]
    header = (
        f"Lighthouse {', '.join(versions) or '(no run succeeded)'}, {chromium}, mobile with "
        f"default simulated throttling; median of {args.runs} run(s) per category; "
        f"{datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}. Machine: "
        f"{os.cpu_count()} CPUs, load average {load_start[0]:.2f} at start and "
        f"{load_end[0]:.2f} at end"
        + (f", Lighthouse benchmarkIndex {statistics.median(indexes):.0f}" if indexes else "")
        + " (a busy machine makes the performance figures noise)."
    )
    markdown = report_markdown(results, header)
    print()
    print(markdown, end="")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(markdown, encoding="utf-8")
    log(f"written to {OUT}")
    if args.json:
        payload = {
            "lighthouse": versions,
            "chromium": chromium,
            "runs": args.runs,
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "cpus": os.cpu_count(),
            "load_average_start": load_start,
            "load_average_end": load_end,
            "targets": {**TARGETS, "first_load_js_kb_gzip": MAX_JS_KB},
            "routes": [result.as_json() for result in results],
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        log(f"raw figures written to {args.json}")
    if args.fail_on_miss and any(result.misses() for result in results):
        return 1
    return 0


def measure(results: list[RouteResult], port: int, args: argparse.Namespace, work: Path) -> None:
    """Every run of every route, strictly one after the other, with a progress line each."""
    total = len(results) * args.runs
    done = 0
    started = time.monotonic()
    if args.save_reports:
        args.save_reports.mkdir(parents=True, exist_ok=True)
    # The signed-in routes come last: one Chromium holding the session serves them all.
    browser_port: int | None = None
    with contextlib.ExitStack() as stack:
        for result in results:
            status = get_status(port, result.route)
            if status != 200:
                raise SetupError(f"GET {result.route} answered {status}, not 200")
            url = f"http://127.0.0.1:{port}{result.route}"
            signed_in = result.route in SIGNED_IN_ROUTES
            if signed_in and browser_port is None:
                browser_port = stack.enter_context(signed_in_browser(port, work))
            for i in range(1, args.runs + 1):
                report = work / "report.json"
                run = run_lighthouse(url, report, work, browser_port if signed_in else None)
                for _ in range(RETRIES):
                    # Lighthouse now and then loses its trace (NO_NAVSTART, ...) and says to run
                    # it again: a failed run is repeated before it counts as a miss.
                    if not run.error:
                        break
                    first_line = run.error.splitlines()[0]
                    log(f"{result.route} run {i}: failed, running it again: {first_line}")
                    run = run_lighthouse(url, report, work, browser_port if signed_in else None)
                result.runs.append(run)
                done += 1
                if args.save_reports and report.is_file():
                    slug = result.route.strip("/").replace("/", "_") or "index"
                    shutil.copyfile(report, args.save_reports / f"{slug}-{i}.json")
                eta = (time.monotonic() - started) / done * (total - done)
                prefix = f"[{done}/{total}] {result.route} run {i}/{args.runs}"
                if run.error:
                    log(f"{prefix}: FAILED ({run.seconds:.0f} s): {run.error}")
                    continue
                scores = " ".join(
                    f"{short} {run.scores[name]}"
                    for name, short in zip(CATEGORIES, ("perf", "a11y", "bp", "seo"), strict=True)
                )
                metrics = ", ".join(f"{k} {v}" for k, v in run.metrics.items())
                log(f"{prefix}: {scores} ({metrics}) {run.seconds:.0f} s, ~{eta / 60:.0f} min left")
                for warning in run.warnings:
                    log(f"    warning: {warning}")


if __name__ == "__main__":
    sys.exit(main())
