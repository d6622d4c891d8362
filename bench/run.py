"""Throughput and start-up benchmark: our server against nginx and a bare Quart app.

Measures, with wrk (`-t1 -cN --latency`, a warm-up first, servers pinned to CPU0 and wrk to
CPU1, one server under load at a time):
  - agency (`agency serve`, 1 worker): a prerendered page and the largest hashed script;
  - nginx (1 worker) serving the same files: the page and the script;
  - the API: /api/health, /api/catalogue, and signed in (a user signed up by the bench)
    /api/auth/me and the other reads the dashboard makes on load; with --metrics,
    /api/auth/me again on a server with its metrics on (AGENCY_METRICS_TOKEN set). Each is
    measured right after a bare Quart hello-world on the same granian embedding
    (bench/hello_app.py), and its ratio is to that measurement: the machine's speed drifts
    over minutes. `--rounds N` repeats the API's pairs and reports the median ratio;
then the start-up time (spawn -> first 200 from /api/health) of the one-file binary and of the
venv install. Prints a markdown table and writes it to bench/out/latest.md.

Run from the repository root: `/work/venv/bin/python bench/run.py [--duration 10]`.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import http.client
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import IO

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
# The `agency` script of the interpreter running us, so a venv benchmarks its own install.
AGENCY = Path(sys.executable).parent / "agency"
ACCEPT_ENCODING = "br, gzip"  # what browsers send; nginx-light has gzip_static but no brotli
SERVER_CPU = 0
CLIENT_CPU = 1
ASSET_TARGET = 0.5  # asset req/s, ours / nginx
PAGE_TARGET = 0.8  # prerendered page req/s, ours / Quart hello-world
API_TARGET = 0.6  # API req/s (public and signed in), ours / Quart hello-world
API_P99_MS = 50.0  # the API's p99 at the bench's connections
# What the dashboard asks on load, signed in (webui/src: useAuth, DashboardHome's loadHome,
# NotificationsButton); /api/catalogue is public and measured above.
SIGNED_IN_READS = (
    "/api/auth/me",
    "/api/billing/subscription",
    "/api/sites",
    "/api/notifications",
)
METRICS_TOKEN = "bench-metrics-token-0123456789"
READY_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
NOISY = 0.10  # other processes using more than this share of a CPU make a figure suspect


# --- processes ------------------------------------------------------------------------


class Processes:
    """Every server this run starts, so that all of them are stopped whatever happens.

    Each runs in its own session: its process group (granian workers, nginx's worker,
    PyInstaller's child) can then be killed as one without touching anything else.
    """

    def __init__(self) -> None:
        self.running: list[subprocess.Popen[bytes]] = []

    def start(
        self, argv: Sequence[str], *, cwd: Path, env: dict[str, str], log: IO[bytes]
    ) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.running.append(proc)
        return proc

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        """SIGTERM to the leader (graceful), SIGKILL to its group if it lingers."""
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                print(f"  pid {proc.pid} ignored SIGTERM for {STOP_TIMEOUT:.0f} s; killing it")
        # Workers left behind by a dead leader still carry its group id.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        if proc in self.running:
            self.running.remove(proc)

    @property
    def sessions(self) -> set[int]:
        return {proc.pid for proc in self.running}

    def stop_all(self) -> None:
        for proc in list(self.running):
            self.stop(proc)


def session_cpu_ticks(sessions: set[int]) -> int:
    """CPU ticks used so far by the servers' processes (their sessions)."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[3]) in sessions:
            total += int(fields[11]) + int(fields[12])
    return total


def foreign_cpu_ticks(sessions: set[int]) -> dict[tuple[int, int], int]:
    """CPU ticks used so far by each process that is not this benchmark's.

    The machine may be shared (builds, databases); this shows whether a figure was measured
    on a quiet machine. Ours: this process, its children (wrk) and the servers' sessions.
    Keyed by (pid, start time) so a reused pid is a new process.
    """
    me = os.getpid()
    ticks = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        # After "(comm)": state ppid pgrp session ... utime (12th) stime (13th) ... starttime.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(entry.name) == me or int(fields[1]) == me or int(fields[3]) in sessions:
            continue
        ticks[int(entry.name), int(fields[19])] = int(fields[11]) + int(fields[12])
    return ticks


def foreign_cpu_seconds(before: dict[tuple[int, int], int], sessions: set[int]) -> float:
    """CPU seconds other processes used since `before`; a lower bound, since processes that
    exited in between are not seen."""
    after = foreign_cpu_ticks(sessions)
    return sum(ticks - before.get(key, 0) for key, ticks in after.items()) / CLOCK_TICKS


def pinned(cpu: int, argv: Sequence[str]) -> list[str]:
    return ["taskset", "-c", str(cpu), *argv]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def clean_env(**extra: str) -> dict[str, str]:
    """Our environment without any AGENCY_* setting of the caller's, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(extra)
    return env


@dataclass
class Probe:
    status: int
    content_type: str
    encoding: str
    size: int


def probe(
    port: int, path: str, timeout: float = 2.0, headers: dict[str, str] | None = None
) -> Probe:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": ACCEPT_ENCODING, **(headers or {})})
        response = conn.getresponse()
        body = response.read()
        return Probe(
            response.status,
            response.getheader("content-type", ""),
            response.getheader("content-encoding", "identity"),
            len(body),
        )
    finally:
        conn.close()


def wait_until_ok(proc: subprocess.Popen[bytes], port: int, path: str, log: Path) -> float:
    """Polls until `path` answers 200; returns the seconds it took from now."""
    start = time.perf_counter()
    while time.perf_counter() - start < READY_TIMEOUT:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{tail(log)}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            if probe(port, path, timeout=1.0).status == 200:
                return time.perf_counter() - start
        time.sleep(0.01)
    raise RuntimeError(f"no 200 from {path} after {READY_TIMEOUT:.0f} s:\n{tail(log)}")


def tail(log: Path, lines: int = 20) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


# --- wrk ------------------------------------------------------------------------------


@dataclass
class Measurement:
    request: str
    server: str
    response: str
    rps: float
    p50_ms: float
    p99_ms: float
    errors: str
    other_cpu: float  # share of one CPU used by other processes during the measurement
    cpu_us: float  # the server's CPU time per request (µs): less moved by a busy machine


UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def parse_wrk(output: str) -> tuple[float, float, float, str]:
    """Requests/sec, p50 and p99 in ms, and any error lines from `wrk --latency` output."""
    rps = re.search(r"^Requests/sec:\s+([\d.]+)", output, re.M)
    if rps is None:
        raise RuntimeError(f"unexpected wrk output:\n{output}")

    def percentile(name: str) -> float:
        found = re.search(rf"^\s+{name}%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M)
        if found is None:
            raise RuntimeError(f"no {name}% line in wrk output:\n{output}")
        return float(found[1]) * UNITS_MS[found[2]]

    errors = [
        line.strip()
        for line in output.splitlines()
        if line.strip().startswith(("Non-2xx", "Socket errors"))
    ]
    return float(rps[1]), percentile("50"), percentile("99"), "; ".join(errors)


def run_wrk(
    url: str, seconds: float, connections: int, latency: bool, headers: dict[str, str] | None = None
) -> str:
    extra = [arg for name, value in (headers or {}).items() for arg in ("-H", f"{name}: {value}")]
    argv = pinned(
        CLIENT_CPU,
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", "--timeout", "5s"]
        + (["--latency"] if latency else [])
        + ["-H", f"Accept-Encoding: {ACCEPT_ENCODING}", *extra, url],
    )
    done = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 30, check=True)
    return done.stdout


def measure(
    procs: Processes,
    port: int,
    path: str,
    server: str,
    args: argparse.Namespace,
    request: str = "",
    headers: dict[str, str] | None = None,
) -> Measurement:
    """Checks the response once, warms up, then measures; prints the line as it goes."""
    first = probe(port, path, headers=headers)
    if first.status != 200:
        raise RuntimeError(f"{server} answered {first.status} to GET {path}")
    url = f"http://127.0.0.1:{port}{path}"
    run_wrk(url, args.warmup, args.connections, latency=False, headers=headers)
    foreign, started = foreign_cpu_ticks(procs.sessions), time.monotonic()
    server_before = session_cpu_ticks(procs.sessions)
    output = run_wrk(url, args.duration, args.connections, latency=True, headers=headers)
    server_ticks = session_cpu_ticks(procs.sessions) - server_before
    elapsed = time.monotonic() - started
    other = foreign_cpu_seconds(foreign, procs.sessions) / elapsed
    rps, p50, p99, errors = parse_wrk(output)
    cpu_us = server_ticks / CLOCK_TICKS / max(rps * elapsed, 1) * 1e6
    response = f"{first.encoding}, {format_size(first.size)}"
    request = request or f"`GET {path}`"
    result = Measurement(request, server, response, rps, p50, p99, errors, other, cpu_us)
    print(
        f"  {server:<18} GET {path:<36} {rps:>9,.0f} req/s  p50 {ms(p50)}  p99 {ms(p99)}"
        f"  {cpu_us:,.0f} µs CPU/request  (other processes: {other:.0%} CPU)"
    )
    if errors:
        print(f"    wrk: {errors}")
    return result


def signed_in_cookie(port: int) -> str:
    """Signs a bench user up (as the web UI does) and returns its session cookie, `name=value`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = json.dumps(
        {
            "email": "bench@example.com",
            "password": "bench-password-1234",
            "first_name": "Bench",
            "last_name": "User",
        }
    )
    try:
        conn.request(
            "POST",
            "/api/auth/signup",
            body=body,
            headers={"Content-Type": "application/json", "X-Agency-Request": "1"},
        )
        response = conn.getresponse()
        response.read()
        if response.status != 201:
            raise RuntimeError(f"sign-up answered {response.status}")
        for header, value in response.getheaders():
            if header.lower() == "set-cookie" and value.startswith("agency_session="):
                return value.split(";", 1)[0]
    finally:
        conn.close()
    raise RuntimeError("sign-up set no agency_session cookie")


# --- the servers ----------------------------------------------------------------------


@contextlib.contextmanager
def agency_server(
    procs: Processes, work: Path, web_dir: Path, name: str = "agency", **settings: str
) -> Iterator[int]:
    port = free_port()
    home = work / name
    home.mkdir()
    env = clean_env(
        AGENCY_DATA_DIR=str(home / "data"),
        AGENCY_ACCESS_LOG="false",
        AGENCY_LOG_LEVEL="warning",
        AGENCY_WEB_DIR=str(web_dir),
        **settings,
    )
    argv = [str(AGENCY), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    log = home / "server.log"
    with log.open("wb") as out:
        proc = procs.start(pinned(SERVER_CPU, argv), cwd=home, env=env, log=out)
        try:
            wait_until_ok(proc, port, "/api/health", log)
            yield port
        finally:
            procs.stop(proc)


NGINX_CONF = """\
daemon off;
worker_processes 1;
{user}pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    gzip_static on;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {root};
        location / {{
            try_files $uri $uri/index.html /spa.html;
            add_header Cache-Control "no-cache";
        }}
        location /assets/ {{
            add_header Cache-Control "public, max-age=31536000, immutable";
        }}
    }}
}}
"""


@contextlib.contextmanager
def nginx_server(procs: Processes, work: Path, web_dir: Path) -> Iterator[int]:
    port = free_port()
    prefix = work / "nginx"
    prefix.mkdir()
    # As root, workers would otherwise run as nobody and might not read the files.
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf = prefix / "nginx.conf"
    conf.write_text(NGINX_CONF.format(user=user, prefix=prefix, port=port, root=web_dir.resolve()))
    log = prefix / "stdout.log"
    with log.open("wb") as out:
        argv = ["nginx", "-c", str(conf), "-p", str(prefix), "-e", str(prefix / "error.log")]
        proc = procs.start(pinned(SERVER_CPU, argv), cwd=prefix, env=clean_env(), log=out)
        try:
            wait_until_ok(proc, port, "/", prefix / "error.log")
            yield port
        finally:
            procs.stop(proc)


@contextlib.contextmanager
def hello_server(procs: Processes, work: Path) -> Iterator[int]:
    port = free_port()
    home = work / "hello"
    home.mkdir()
    argv = [sys.executable, str(BENCH / "hello_app.py"), "--port", str(port)]
    log = home / "server.log"
    with log.open("wb") as out:
        proc = procs.start(pinned(SERVER_CPU, argv), cwd=home, env=clean_env(), log=out)
        try:
            wait_until_ok(proc, port, "/", log)
            yield port
        finally:
            procs.stop(proc)


# --- start-up -------------------------------------------------------------------------


def startup_times(procs: Processes, work: Path, program: Path, runs: int) -> list[float]:
    """Seconds from spawn to the first 200 of /api/health, each run in a fresh empty dir.

    A fresh directory means each start creates its database and applies the migrations,
    as a first start on a new machine does.
    """
    times = []
    for _ in range(runs):
        home = Path(tempfile.mkdtemp(prefix="start-", dir=work))
        port = free_port()
        env = clean_env(AGENCY_ACCESS_LOG="false", AGENCY_LOG_LEVEL="warning")
        log = home.parent / f"{home.name}.log"  # outside, so the directory starts empty
        with log.open("wb") as out:
            argv = pinned(SERVER_CPU, [str(program), "serve", "--port", str(port)])
            proc = procs.start(argv, cwd=home, env=env, log=out)
            try:
                times.append(wait_until_ok(proc, port, "/api/health", log))
            finally:
                procs.stop(proc)
    return times


# --- report ---------------------------------------------------------------------------


def ms(value: float) -> str:
    return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"


def format_size(size: int) -> str:
    return f"{size / 1000:.1f} kB" if size >= 1000 else f"{size} B"


def ratio_row(
    name: str,
    ours: float,
    theirs: float,
    target: float,
    by_cpu: tuple[float, float] | None = None,
    note: str = "",
) -> str:
    """A req/s ratio against its target; `by_cpu` (their, our CPU µs per request) adds the
    same ratio as the CPU time per request gives it, `note` anything else to say."""
    value = ours / theirs if theirs else 0.0
    verdict = "ok" if value >= target else "**below target**"
    cpu = ""
    if by_cpu is not None and by_cpu[1] > 0:
        cpu = f"by CPU/request: {by_cpu[0] / by_cpu[1]:.2f}"
    detail = f" ({cpu}{note})" if cpu or note else ""
    return f"| {name} | {value:.2f}{detail} | ≥ {target} | {verdict} |"


def api_name(row: Measurement) -> str:
    """`/api/...` (signed in, metrics on): the request's path and how it was measured."""
    path = row.request.split()[1].rstrip("`")
    signed_in = ", signed in" if "signed in" in row.request else ""
    metrics = ", metrics on" if "metrics" in row.server else ""
    return f"`{path}`{signed_in}{metrics}"


def p99_row(row: Measurement, target_ms: float) -> str:
    verdict = "ok" if row.p99_ms < target_ms else "**above target**"
    return f"| {api_name(row)} p99 (ms) | {row.p99_ms:.1f} | < {target_ms:g} | {verdict} |"


def command_output(argv: Sequence[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return (done.stdout or done.stderr).strip().splitlines()[0] if done.returncode == 0 else "?"


def environment_line(args: argparse.Namespace) -> str:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    commit = command_output(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    from importlib.metadata import version

    return (
        f"{datetime.date.today()}, commit {commit}, {cpu} ({os.cpu_count()} CPUs), "
        f"Python {platform.python_version()}, granian {version('granian')}, "
        f"Quart {version('quart')}, {command_output(['nginx', '-v'])}. "
        f"wrk -t1 -c{args.connections}, {args.warmup:g} s warm-up + {args.duration:g} s, "
        f"`Accept-Encoding: {ACCEPT_ENCODING}`; servers on CPU{SERVER_CPU}, one under load at "
        f"a time (1 worker, no access log), wrk on CPU{CLIENT_CPU}. Web UI: `{args.web_dir}`."
    )


def report(
    args: argparse.Namespace,
    rows: list[Measurement],
    ratios: list[str],
    startup: list[str],
    warnings: list[str],
) -> str:
    lines = [
        "### Benchmark (`bench/run.py`)",
        "",
        environment_line(args),
        "",
        "| Request | Server | Response | req/s | p50 | p99 | CPU/request | Other CPU |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {r.request} | {r.server} | {r.response} | {r.rps:,.0f} | {ms(r.p50_ms)} "
        f"| {ms(r.p99_ms)} | {r.cpu_us:,.0f} µs | {r.other_cpu:.0%} |"
        for r in rows
    ]
    lines += [
        "",
        "Response: encoding and body size sent for that header. CPU/request: the server's "
        "CPU time (all its processes) per answered request. Other CPU: share of one CPU used by "
        "processes outside the benchmark during the measurement (0% = quiet machine). On a "
        "busy machine req/s falls with the CPU the server gets; CPU/request moves much less, "
        "so the ratios by CPU/request (hello-world's over ours) are the ones to compare then.",
    ]
    noisy = max(r.other_cpu for r in rows)
    if noisy > NOISY:
        lines.append(
            f"**The machine was busy** (other processes up to {noisy:.0%} of a CPU): "
            "treat these figures as noisy and re-run on a quiet machine."
        )
    lines += warnings
    errors = [f"- {r.server}, {r.request}: {r.errors}" for r in rows if r.errors]
    if errors:
        lines += ["", "wrk reported errors:", *errors]
    lines += ["", "| Ratio (req/s) or latency | Value | Target | |", "|---|---:|---:|---|", *ratios]
    lines += ["", *startup]
    return "\n".join(lines) + "\n"


# --- main -----------------------------------------------------------------------------


def largest_script(web_dir: Path) -> Path:
    scripts = sorted((web_dir / "assets").glob("*.js"), key=lambda p: p.stat().st_size)
    if not scripts:
        raise SystemExit(f"no assets/*.js in {web_dir}")
    return scripts[-1]


def fingerprint(web_dir: Path) -> list[tuple[str, int, int]]:
    """Every file's path, size and mtime: a rebuild during the run would skew it."""
    files = []
    for path in web_dir.rglob("*"):
        with contextlib.suppress(OSError):  # deleted by a rebuild since listed
            if path.is_file():
                stat = path.stat()
                files.append((path.relative_to(web_dir).as_posix(), stat.st_size, stat.st_mtime_ns))
    return sorted(files)


@dataclass
class Pair:
    """An API request measured right after the hello-world, in one round: the machine's
    speed drifts over minutes (other tenants of the host), so each ratio compares two
    measurements taken seconds apart."""

    hello: Measurement
    api: Measurement

    @property
    def ratio(self) -> float:
        return self.api.rps / self.hello.rps if self.hello.rps else 0.0


def api_rows(pairs: dict[str, list[Pair]]) -> tuple[list[Measurement], list[str], Measurement]:
    """Per API request, the round with the median ratio (its row and ratio), the ratio rows
    (with the rounds' range when there were several) and the median hello-world row."""
    chosen: list[Pair] = []
    ratios: list[str] = []
    for rounds in pairs.values():
        ordered = sorted(rounds, key=lambda pair: pair.ratio)
        median = ordered[(len(ordered) - 1) // 2]
        chosen.append(median)
        spread = ""
        if len(ordered) > 1:
            spread = f"; {len(ordered)} rounds: {ordered[0].ratio:.2f} to {ordered[-1].ratio:.2f}"
        ratios.append(
            ratio_row(
                f"{api_name(median.api)} / hello-world",
                median.api.rps,
                median.hello.rps,
                API_TARGET,
                (median.hello.cpu_us, median.api.cpu_us),
                spread,
            )
        )
    ratios += [p99_row(pair.api, API_P99_MS) for pair in chosen]
    hellos = sorted((p.hello for rounds in pairs.values() for p in rounds), key=lambda m: m.rps)
    return [pair.api for pair in chosen], ratios, hellos[(len(hellos) - 1) // 2]


def measure_api(
    procs: Processes, work: Path, args: argparse.Namespace, hello_port: int
) -> dict[str, list[Pair]]:
    """Every API request, `args.rounds` times, each right after a hello-world measurement."""
    pairs: dict[str, list[Pair]] = {}

    def paired(port: int, path: str, server: str, request: str, headers: dict[str, str]) -> None:
        hello = measure(procs, hello_port, "/", "Quart hello-world", args, "`GET /` (hello-world)")
        api = measure(procs, port, path, server, args, request, headers)
        pairs.setdefault(f"{server} {request}", []).append(Pair(hello, api))

    with agency_server(procs, work, args.web_dir) as port:
        cookie = {"Cookie": signed_in_cookie(port)}
        for round_number in range(1, args.rounds + 1):
            if args.rounds > 1:
                print(f"round {round_number} of {args.rounds}:")
            paired(port, "/api/health", "agency", "`GET /api/health` (DB query)", {})
            paired(port, "/api/catalogue", "agency", "`GET /api/catalogue`", {})
            for path in SIGNED_IN_READS:
                paired(port, path, "agency", f"`GET {path}` (signed in)", cookie)
    if args.metrics:
        print("agency, metrics on:")
        with agency_server(
            procs, work, args.web_dir, "agency-metrics", AGENCY_METRICS_TOKEN=METRICS_TOKEN
        ) as port:
            cookie = {"Cookie": signed_in_cookie(port)}
            me = "`GET /api/auth/me` (signed in)"
            for _round in range(args.rounds):
                paired(port, "/api/auth/me", "agency, metrics on", me, cookie)
    return pairs


def run(args: argparse.Namespace, procs: Processes, work: Path) -> str:
    web_dir: Path = args.web_dir
    built = fingerprint(web_dir)
    script_file = largest_script(web_dir)
    script = "/assets/" + script_file.name
    warnings = [
        f"**`{script_file.name}.{suffix}` is missing**: the servers send different encodings."
        for suffix in ("br", "gz")
        if not script_file.with_name(f"{script_file.name}.{suffix}").is_file()
    ]
    files: list[Measurement] = []  # pages and assets, ours and nginx's

    if not args.only_api:
        print(f"agency ({AGENCY}):")
        with agency_server(procs, work, web_dir, "agency-files") as port:
            files.append(measure(procs, port, "/", "agency", args, "`GET /` (prerendered)"))
            files.append(measure(procs, port, script, "agency", args))
        print("nginx:")
        with nginx_server(procs, work, web_dir) as port:
            files.insert(1, measure(procs, port, "/", "nginx", args, "`GET /` (prerendered)"))
            files.append(measure(procs, port, script, "nginx", args))
    # The hello-world and our server both run; only the one under load uses its CPU.
    print(f"the API, each request right after the Quart hello-world ({AGENCY}):")
    with hello_server(procs, work) as hello_port:
        api, ratios, hello = api_rows(measure_api(procs, work, args, hello_port))
    if args.only_api:
        rows = [hello, *api]
        startup = ["Pages, assets, nginx and start-up not measured (`--only-api`)."]
    else:
        ours_page, nginx_page, ours_asset, nginx_asset = files
        rows = [ours_page, nginx_page, hello, ours_asset, nginx_asset, *api]
        ratios[:0] = [
            ratio_row("asset: agency / nginx", ours_asset.rps, nginx_asset.rps, ASSET_TARGET),
            ratio_row("page: agency / Quart hello-world", ours_page.rps, hello.rps, PAGE_TARGET),
        ]
        startup = startup_table(args, procs, work)
    if fingerprint(web_dir) != built:
        warnings.append("**The web UI changed during the run** (rebuilt?): figures are invalid.")
    return report(args, rows, ratios, startup, warnings)


def startup_table(args: argparse.Namespace, procs: Processes, work: Path) -> list[str]:
    print("start-up:")
    startup = [
        f"Start-up: spawn → first 200 from `/api/health`, fresh empty directory "
        f"(creates the database), median of {args.starts}.",
        "",
        "| Program | Size | Start-up (median) | Runs |",
        "|---|---:|---:|---|",
    ]
    programs: list[tuple[str, Path, str]] = []
    binary: Path | None = args.binary
    if binary is not None and binary.is_file():
        programs.append(("one-file binary", binary, f"{binary.stat().st_size / 1e6:.1f} MB"))
    else:
        print("  binary: not built")
        startup.append("| one-file binary | not built | - | - |")
    programs.append(("venv `agency`", AGENCY, "-"))
    for name, program, size in programs:
        try:
            times = startup_times(procs, work, program, args.starts)
        except RuntimeError as exc:  # a broken build is a result, not a reason to lose the rest
            print(f"  {name} failed to start: {exc}")
            last = str(exc).strip().splitlines()[-1].replace("|", "/")
            startup.append(f"| {name} | {size} | **failed to start** | `{last}` |")
            continue
        runs = ", ".join(f"{t:.2f}" for t in times)
        print(f"  {name:<24} median {statistics.median(times):.2f} s ({runs})")
        startup.append(f"| {name} | {size} | {statistics.median(times):.2f} s | {runs} s |")
    return startup


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10, help="seconds measured per target")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of warm-up per target")
    parser.add_argument("--connections", type=int, default=50, help="wrk connections")
    parser.add_argument("--starts", type=int, default=3, help="start-up runs per program")
    parser.add_argument(
        "--binary", type=Path, default=REPO / "dist/agency", help="one-file build of agency"
    )
    parser.add_argument(
        "--web-dir", type=Path, default=REPO / "webui/dist", help="the built web UI"
    )
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="also measure /api/auth/me on a server with its metrics on (AGENCY_METRICS_TOKEN)",
    )
    parser.add_argument(
        "--only-api",
        action="store_true",
        help="measure the API against the hello-world only (no nginx, pages, assets, start-up)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure each API request this many times (each right after the hello-world); "
        "the table shows the round with the median ratio and the rounds' range",
    )
    parser.add_argument("--out", type=Path, default=BENCH / "out/latest.md")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def check_prerequisites(args: argparse.Namespace) -> None:
    for tool in ("wrk", "nginx", "taskset"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} not found on PATH")
    if len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("needs 2 CPUs: the server on one and wrk on the other")
    if not (args.web_dir / "index.html").is_file():
        raise SystemExit(
            f"{args.web_dir} has no index.html: build the web UI (npm run build in webui/) "
            "or pass --web-dir (bench/make_fake_dist.py writes a stand-in)"
        )
    if not AGENCY.is_file():
        raise SystemExit(f"{AGENCY} not found: run with the venv's python")


def raise_interrupt(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> int:
    args = parse_args()
    args.web_dir = args.web_dir.resolve()
    args.binary = args.binary.resolve()  # the programs run in temporary directories
    check_prerequisites(args)
    # Our own polling stays on the client CPU, away from the server under test.
    os.sched_setaffinity(0, {CLIENT_CPU})
    # Clean up on kill as on Ctrl-C, even if started with SIGINT ignored (`cmd &` in a script).
    signal.signal(signal.SIGTERM, raise_interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    procs = Processes()
    work = Path(tempfile.mkdtemp(prefix="agency-bench-"))
    try:
        table = run(args, procs, work)
    except KeyboardInterrupt:
        print("interrupted; stopping servers", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not skip this
        procs.stop_all()
        shutil.rmtree(work, ignore_errors=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(table)
    print()
    print(table)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
