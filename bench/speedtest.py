"""200 concurrent speed tests on one server process, against a fake PageSpeed that answers after
20 s: do the pages and the API stay fast, and memory small, while they run?

    .venv/bin/python bench/speedtest.py [--tests 200] [--delay 20] [--probe-rate 20]

Starts the fake PageSpeed Insights (`tests/fakes/pagespeed.py --delay 20`) and the real server,
`agency serve --workers 1` (a fresh SQLite file in a temporary directory, migrations included;
the built web UI copied aside when `webui/dist` is built), with
`AGENCY_PAGESPEED_API_BASE` at the fake, `AGENCY_TRUSTED_PROXIES=1` (each visitor its own
`X-Forwarded-For`, so the per-address limits see 200 visitors, as in real use) and
`AGENCY_SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS=true` (only so that the server looks no invented
domain up in the DNS: every test goes to the fake on loopback anyway).

Then 200 visitors each start a test of their own domain at once (`POST /api/speed-tests`, the
generic page) and poll it every second as the page does (`GET /api/speed-tests/{id}`), while a
prober sends `GET /` and `GET /api/catalogue` (`--probe-rate` each per second, each request on
its own, never queued behind another) and the server's memory (RSS of the granian process and
its worker, from /proc) is sampled every 0.2 s. It prints the figures when every test is done:
latency p50/p99/max of the probes while the tests ran, peak RSS, how long until all 200 were
done, how many PageSpeed calls were in flight at once. Targets: `GET /` p99 < 100 ms,
`GET /api/catalogue` p99 < 200 ms, RSS < 300 MB.

Load generator, fake and server share the machine: figures are for comparing runs on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
AGENCY = Path(sys.executable).parent / "agency"
WEB_DIST = REPO / "webui" / "dist"
OUT = REPO / "bench" / "out" / "speedtest.md"
HEADERS = {"X-Agency-Request": "1", "Accept-Encoding": "br, gzip"}
TARGETS = {"/": 0.100, "/api/catalogue": 0.200}
RSS_LIMIT_MB = 300
EXTRA_ENV: dict[str, str] = {}  # --server-env
SQLITE_OPTIONS = [""]  # --sqlite-options
FAKE_PID = [0]  # the fake PageSpeed's process id, then the prober's


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_up(url: str, proc: subprocess.Popen[bytes], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode}")
        try:
            if httpx.get(url, timeout=1).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{what} did not answer at {url}")


@contextmanager
def fake_pagespeed(delay: float, workdir: Path) -> Iterator[str]:
    port = free_port()
    log = (workdir / "fake.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.fakes.pagespeed", "--port", str(port), "--delay", str(delay)],
        cwd=REPO,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    FAKE_PID[0] = proc.pid
    try:
        wait_up(f"{base}/_fake/requests", proc, "the fake PageSpeed")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@contextmanager
def server(pagespeed: str, workdir: Path) -> Iterator[tuple[str, int]]:
    """`agency serve --workers 1`; yields its base URL and the granian process id."""
    web = workdir / "web"
    if (WEB_DIST / "index.html").is_file():
        shutil.copytree(WEB_DIST, web)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(
        AGENCY_DATABASE_URL=f"sqlite://{workdir / 'data' / 'agency.db'}{SQLITE_OPTIONS[0]}",
        AGENCY_SECRET_KEY="b" * 48,
        AGENCY_DATA_DIR=str(workdir / "data"),
        AGENCY_WEB_DIR=str(web),
        AGENCY_TRUSTED_PROXIES="1",
        AGENCY_ACCESS_LOG="false",
        AGENCY_LOG_LEVEL="warning",
        AGENCY_PAGESPEED_API_BASE=pagespeed,
        AGENCY_SPEEDTEST_PROVIDER="psi",
        AGENCY_SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS="true",
    )
    env.update(EXTRA_ENV)
    log = (workdir / "server.log").open("wb")
    proc = subprocess.Popen(
        [str(AGENCY), "serve", "--workers", "1", "--port", str(port)],
        cwd=workdir,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(f"{base}/api/health", proc, "the server")
        yield base, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def process_tree(root: int) -> list[int]:
    """`root` and its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes, in seconds."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU time the whole machine spent busy (every core), from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


@dataclass
class Figures:
    probes: dict[str, list[float]] = field(default_factory=lambda: {p: [] for p in TARGETS})
    slow: list[tuple[float, str, float]] = field(default_factory=list)  # (at, path, seconds)
    timed: dict[str, list[tuple[float, float]]] = field(
        default_factory=lambda: {p: [] for p in TARGETS}
    )
    probe_errors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TARGETS, 0))
    rss: list[float] = field(default_factory=list)
    # (at, server CPU seconds, machine busy seconds, bench + fake CPU seconds), cumulative
    cpu: list[tuple[float, float, float, float]] = field(default_factory=list)
    post_seconds: list[float] = field(default_factory=list)
    post_status: dict[int, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    polls: int = 0
    poll_errors: int = 0
    all_done_after: float = 0.0
    rss_idle: float = 0.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def visitor(client: httpx.AsyncClient, n: int, start: asyncio.Event, figures: Figures) -> str:
    headers = {"X-Forwarded-For": f"10.{n // 250}.{n % 250}.7"}
    await start.wait()
    began = time.monotonic()
    answer = await client.post(
        "/api/speed-tests",
        json={
            "url": f"https://www.bench-site-{n}.com/",
            "email": f"visitor{n}@example.com",
            "source": "speed-test",
            "strategy": "mobile",
        },
        headers=headers,
    )
    figures.post_seconds.append(time.monotonic() - began)
    figures.post_status[answer.status_code] = figures.post_status.get(answer.status_code, 0) + 1
    if answer.status_code != 202:
        return f"refused {answer.status_code}"
    test = answer.json()
    while test["status"] in ("queued", "running"):
        await asyncio.sleep(1.0)  # the page's pace
        polled = await client.get(f"/api/speed-tests/{test['id']}", headers=headers)
        figures.polls += 1
        if polled.status_code != 200:
            figures.poll_errors += 1
            continue
        test = polled.json()
    return str(test["status"])


def prober(base: str, rate: float, stop: Any, out: Any) -> None:
    """In a process of its own, so that the latency measured is the server's and not that of
    the visitors' busy event loop: `rate` requests per second per path, each on its own task,
    so one slow answer does not hold the next back (open loop, as separate visitors are).
    Puts [(path, began (monotonic), seconds or None for an error)] on `out` when `stop` is set.
    """

    async def run() -> list[tuple[str, float, float | None]]:
        samples: list[tuple[str, float, float | None]] = []

        async def once(client: httpx.AsyncClient, path: str) -> None:
            began = time.monotonic()
            try:
                answer = await client.get(path)
                ok = answer.status_code == 200
            except httpx.HTTPError:
                ok = False
            samples.append((path, began, time.monotonic() - began if ok else None))

        async with httpx.AsyncClient(base_url=base, headers=HEADERS, timeout=30) as client:
            tasks = []
            while not stop.is_set():
                for path in TARGETS:
                    tasks.append(asyncio.create_task(once(client, path)))
                await asyncio.sleep(1 / rate)
            await asyncio.gather(*tasks)
        return samples

    out.put(asyncio.run(run()))


async def sample_memory(root: int, stop: asyncio.Event, figures: Figures) -> None:
    while not stop.is_set():
        server = process_tree(root)
        figures.rss.append(rss_mb(server))
        figures.cpu.append(
            (
                time.monotonic(),
                cpu_seconds(server),
                machine_busy_seconds(),
                cpu_seconds([os.getpid(), *FAKE_PID]),
            )
        )
        await asyncio.sleep(0.2)


async def run(base: str, pid: int, args: argparse.Namespace) -> Figures:
    figures = Figures()
    figures.rss_idle = rss_mb(process_tree(pid))
    limits = httpx.Limits(max_connections=args.tests + 10, max_keepalive_connections=args.tests)
    async with httpx.AsyncClient(
        base_url=base, headers=HEADERS, timeout=120, limits=limits
    ) as client:
        # Warm up: the pages, the catalogue and the first speed-test request's code paths.
        for path in TARGETS:
            await client.get(path)
        start, stop = asyncio.Event(), asyncio.Event()
        visitors = [
            asyncio.create_task(visitor(client, n, start, figures)) for n in range(args.tests)
        ]
        context = multiprocessing.get_context("spawn")
        probe_stop, probe_out = context.Event(), context.Queue()
        probing = context.Process(
            target=prober, args=(base, args.probe_rate, probe_stop, probe_out)
        )
        probing.start()
        side = [asyncio.create_task(sample_memory(pid, stop, figures))]
        await asyncio.sleep(0.5)
        began = time.monotonic()
        start.set()
        outcomes = await asyncio.gather(*visitors)
        figures.all_done_after = time.monotonic() - began
        stop.set()
        probe_stop.set()
        await asyncio.gather(*side)
        samples = await asyncio.to_thread(probe_out.get, True, 60)
        probing.join(timeout=30)
    figures.cpu = [(at - began, s, m, o) for at, s, m, o in figures.cpu if at >= began]
    for path, at, took in samples:
        if at < began:
            continue  # the prober's first requests, before the visitors came
        if took is None:
            figures.probe_errors[path] += 1
            continue
        figures.probes[path].append(took)
        figures.timed[path].append((at - began, took))
        if took > TARGETS[path] / 2:
            figures.slow.append((at - began, path, took))
    for outcome in outcomes:
        figures.outcomes[outcome] = figures.outcomes.get(outcome, 0) + 1
    return figures


def timeline(figures: Figures) -> str:
    """Per second: the server's CPU, the rest of the machine's, the slowest probe."""
    lines = ["   s  server%  bench+fake%  others%  slowest probe ms"]
    per_second: dict[int, tuple[float, float, float, float]] = {}
    for at, server, busy, ours in figures.cpu:
        per_second.setdefault(int(at), (at, server, busy, ours))
    seconds = sorted(per_second)
    for a, b in itertools.pairwise(seconds):
        t0, s0, m0, o0 = per_second[a]
        t1, s1, m1, o1 = per_second[b]
        span = max(t1 - t0, 1e-6)
        server, ours = (s1 - s0) / span, (o1 - o0) / span
        others = (m1 - m0) / span - server - ours
        slowest = max((took for at, _, took in figures.slow if a <= at < b), default=0.0)
        lines.append(
            f"{a:4d}  {server * 100:6.0f}  {ours * 100:10.0f}  {others * 100:7.0f}"
            f"  {slowest * 1000:8.0f}"
        )
    return "\n".join(lines)


def report(figures: Figures, fake: dict[str, object], args: argparse.Namespace) -> str:
    ms = 1000
    lines = [
        f"## {args.tests} speed tests at once, fake PageSpeed answering after {args.delay:g} s,"
        f" `agency serve --workers 1`, SQLite{args.sqlite_options}",
        "",
        "| Request (while the tests ran) | n | p50 ms | p99 ms | max ms | errors | target p99 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for path, target in TARGETS.items():
        values = figures.probes[path]
        ok = "ok" if pct(values, 0.99) < target else "MISSED"
        lines.append(
            f"| `GET {path}` | {len(values)} | {pct(values, 0.5) * ms:.1f} | "
            f"{pct(values, 0.99) * ms:.1f} | {max(values, default=0) * ms:.1f} | "
            f"{figures.probe_errors[path]} | < {target * ms:.0f} ({ok}) |"
        )
    post = figures.post_seconds
    lines.append(
        f"| `POST /api/speed-tests` | {len(post)} | {pct(post, 0.5) * ms:.1f} | "
        f"{pct(post, 0.99) * ms:.1f} | {max(post, default=0) * ms:.1f} | "
        f"{sum(n for s, n in figures.post_status.items() if s != 202)} | |"
    )
    burst = [
        f"`GET {path}` p99 {pct([t for at, t in figures.timed[path] if at < 2], 0.99) * ms:.0f}"
        f" ms in the first 2 s (the {args.tests} POSTs), "
        f"{pct([t for at, t in figures.timed[path] if at >= 2], 0.99) * ms:.0f} ms after"
        for path in TARGETS
    ]
    if len(figures.cpu) > 1:
        (t0, s0, m0, o0), (t1, s1, m1, o1) = figures.cpu[0], figures.cpu[-1]
        span = max(t1 - t0, 1e-6)
        load = (
            f"- CPU over the run ({os.cpu_count()} cores: {os.cpu_count()}00 %): "
            f"server {(s1 - s0) / span * 100:.0f} %, "
            f"bench and fake {(o1 - o0) / span * 100:.0f} %, "
            f"the rest of the machine {((m1 - m0) - (s1 - s0) - (o1 - o0)) / span * 100:.0f} %"
        )
    else:
        load = "- CPU: not sampled"
    peak = max(figures.rss, default=0.0)
    lines += [
        "",
        f"- all {args.tests} tests finished after **{figures.all_done_after:.1f} s** "
        f"(outcomes: {json.dumps(figures.outcomes)}); "
        f"PageSpeed calls in flight at most: {fake.get('max_in_flight')}",
        f"- server RSS (granian + worker): idle {figures.rss_idle:.0f} MB, "
        f"peak **{peak:.0f} MB** (target < {RSS_LIMIT_MB} MB: "
        f"{'ok' if peak < RSS_LIMIT_MB else 'MISSED'})",
        f"- status polls (1 per visitor per second): {figures.polls}, errors {figures.poll_errors}",
        "- " + "; ".join(burst),
        load,
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests", type=int, default=200)
    parser.add_argument("--delay", type=float, default=20.0, help="seconds the fake waits")
    parser.add_argument("--probe-rate", type=float, default=20.0, help="probes/s per path")
    parser.add_argument(
        "--server-env", action="append", default=[], help="KEY=VALUE for the server (repeat)"
    )
    parser.add_argument(
        "--sqlite-options",
        default="",
        help="query added to the SQLite URL, e.g. '?synchronous=NORMAL' (each is a PRAGMA)",
    )
    parser.add_argument("--keep-log", type=Path, help="copy the server's log here")
    parser.add_argument("--verbose", action="store_true", help="list the slow probes by time")
    args = parser.parse_args()
    EXTRA_ENV.update(item.split("=", 1) for item in args.server_env)
    SQLITE_OPTIONS[0] = args.sqlite_options
    with tempfile.TemporaryDirectory(prefix="agency-bench-speedtest-") as tmp:
        workdir = Path(tmp)
        with (
            fake_pagespeed(args.delay, workdir) as pagespeed,
            server(pagespeed, workdir) as (
                base,
                pid,
            ),
        ):
            figures = asyncio.run(run(base, pid, args))
            fake = httpx.get(f"{pagespeed}/_fake/requests", timeout=10).json()
        if args.keep_log:
            shutil.copyfile(workdir / "server.log", args.keep_log)
        text = report(figures, fake if isinstance(fake, dict) else {}, args)
    print(text)
    if args.verbose:
        print(timeline(figures))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)


if __name__ == "__main__":
    main()
