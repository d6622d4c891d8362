"""A compression bomb end to end: a real `agency serve`, a visitor asking (no account) for the
analysis of a site whose home page is a compression bomb (`Content-Encoding: gzip, gzip`, 2.5 kB
that decode to a gigabyte of zeros), served by a real HTTP origin on loopback
(`tests/fakes/bombs.py`) through `analysis_unsafe_fetch_overrides` (tests only).

The analysis must end with the fetcher's ordinary message, the server processes' peak RSS
(VmHWM, reset after a first ordinary analysis has loaded what any analysis loads) must rise by
far less than 50 MB, and /api/health, asked every few milliseconds all along by another
client, must keep answering at once. Before the bounded decoder the same request took the
worker from 253 MB to 2,174 MB and stalled its other requests for seconds."""

from __future__ import annotations

import contextlib
import gzip
import json
import shutil
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from agency.net.safe_fetch import MSG_TOO_LARGE
from tests.conftest import agency_servers, server_env
from tests.fakes.bombs import MIB, Answer, run_bomb_origin
from tests.fakes.pagespeed import run_fake_pagespeed

# Real server, worker or job-runner processes: left out of the fast lane (scripts/check).
pytestmark = pytest.mark.slow

ORDINARY = "ordinary-site.com"
BOMB = "bomb-site.com"
RISE_MAX = 50 * MIB  # what the bomb may add to a server process's peak RSS
HEALTH_MAX = 2.0  # seconds an /api/health answer may take while the bomb is read (6 s unbounded)


def server_pids(port: int) -> list[int]:
    """The `agency serve --port {port}` processes (granian's supervisor and its worker)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in argv and str(port).encode() in argv and b"agency" in argv:
            found.append(int(proc.name))
    return found


def status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field} for {pid}")


def reset_peak(pid: int) -> None:
    """VmHWM back to the current RSS (Linux: `5` to clear_refs), so a rise is not hidden under
    the peak of the start."""
    with contextlib.suppress(OSError):  # not allowed: then the peak since the start counts
        Path(f"/proc/{pid}/clear_refs").write_text("5")


def request(url: str, body: Any = None, ip: str = "198.51.100.7") -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"X-Agency-Request": "1", "X-Forwarded-For": ip}
    if data is not None:
        headers["Content-Type"] = "application/json"
    call = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(call, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def analyse(base: str, domain: str, ip: str) -> dict[str, Any]:
    """POST /api/analyses as a visitor, then poll it until it has ended."""
    body = {"url": domain, "email": f"owner@{domain}", "source": "ai-analysis"}
    status, queued = request(f"{base}/api/analyses", body, ip)
    assert status == 202, queued
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status, data = request(f"{base}/api/analyses/{queued['id']}", ip=ip)
        assert status == 200, data
        if data["status"] in ("done", "failed"):
            return data
        time.sleep(0.05)
    raise AssertionError(f"the analysis of {domain} did not end")


class HealthWatch:
    """Asks /api/health every 5 ms from a thread; `slowest` is the longest answer."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.slowest = 0.0
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            with urllib.request.urlopen(self.base + "/api/health", timeout=30) as response:
                assert response.status == 200
            self.slowest = max(self.slowest, time.monotonic() - started)
            self.count += 1
            time.sleep(0.005)

    def __enter__(self) -> HealthWatch:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(35)


def test_a_bomb_site_costs_the_server_no_memory_and_stalls_nothing(
    tmp_path: Path, sqlite_template: Path
) -> None:
    database = tmp_path / "agency.db"
    shutil.copyfile(sqlite_template, database)
    with run_bomb_origin() as origin, run_fake_pagespeed() as pagespeed:
        site = origin.base_url + "/"
        env = server_env(
            tmp_path,
            f"sqlite://{database}",
            TRUSTED_PROXIES="1",
            SPEEDTEST_PROVIDER="psi",
            PAGESPEED_API_BASE=pagespeed.base_url,
            SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS="true",
            ANALYSIS_UNSAFE_FETCH_OVERRIDES=json.dumps({ORDINARY: site, BOMB: site}),
            AI_API_KEY="",
        )
        with agency_servers(tmp_path, env) as [base]:
            port = int(base.rsplit(":", 1)[1])
            pids = server_pids(port)  # granian's supervisor and its worker, each measured
            assert pids

            # An ordinary (gzip) page first: what any analysis loads is loaded.
            html = "<!doctype html><html lang=en><title>Welcome</title><h1>Hello</h1></html>"
            origin.answer = Answer(
                headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
                body=gzip.compress(html.encode()),
            )
            done = analyse(base, ORDINARY, "198.51.100.1")
            assert done["status"] == "done", done

            for pid in pids:
                reset_peak(pid)
            before = {pid: status_kb(pid, "VmHWM") for pid in pids}
            origin.serve_bomb("gzip, gzip", "text/html; charset=utf-8")
            with HealthWatch(base) as health:
                time.sleep(0.2)
                failed = analyse(base, BOMB, "198.51.100.2")
                time.sleep(0.2)
            after = {pid: status_kb(pid, "VmHWM") for pid in pids}

    assert failed["status"] == "failed" and failed["error"] == MSG_TOO_LARGE, failed
    assert origin.requests[-1] == "GET /"
    rises = {pid: after[pid] - before[pid] for pid in pids}
    assert max(rises.values()) < RISE_MAX, {p: f"{r / MIB:.1f} MiB" for p, r in rises.items()}
    assert health.count > 10
    assert health.slowest < HEALTH_MAX, f"/api/health took {health.slowest:.2f} s"
