"""How fast the `agency` command answers: `agency --help`, `agency version`, and `agency serve`
to its first answer (spawn -> first 200 from /api/health), each the median of N runs, beside
its target. From the venv install, and from the one-file binary when given.

`serve` runs in a scratch directory whose database is created (migrated) by one untimed start
first, so the timed starts are restarts: what a deploy or a crash costs. The first start of a
fresh install (creating and migrating the database) is timed once, as its own line.

Run from the repository root:
    .venv/bin/python bench/startup.py [--runs 5] [--binary dist/agency]
Prints the load average before and after: on a busy machine the figures are not the targets'.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

from procs import stop_group

# The `agency` script of the interpreter running us, so a venv measures its own install.
AGENCY = Path(sys.executable).parent / "agency"
TARGETS = {  # seconds
    "--help": 0.3,
    "version": 0.3,
    "serve (venv)": 1.0,
    "serve (binary)": 1.5,
}
READY_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(extra)
    return env


def time_command(command: Sequence[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=clean_env(), capture_output=True, check=False)
    return time.perf_counter() - started


def time_serve(command: Sequence[str], cwd: Path) -> float:
    """Spawn `command serve` and poll /api/health until it answers 200; then stop it."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/api/health"
    started = time.perf_counter()
    process = subprocess.Popen(
        [*command, "serve", "--port", str(port)],
        cwd=cwd,
        env=clean_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its process group (granian's worker) is stopped as one
    )
    try:
        while True:
            if process.poll() is not None:
                raise SystemExit(f"serve exited: {process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                with urllib.request.urlopen(url, timeout=1) as response:
                    if response.status == 200:
                        return time.perf_counter() - started
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.perf_counter() - started > READY_TIMEOUT:
                raise SystemExit(f"serve did not answer within {READY_TIMEOUT} s")
            time.sleep(0.005)
    finally:
        stop_group(process)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_of(
    runs: int, measure: Callable[[Sequence[str], Path], float], command: Sequence[str], cwd: Path
) -> tuple[float, list[float], float]:
    """(median wall time, the wall times, median CPU time of the process and its children)."""
    times, cpu = [], []
    for _ in range(runs):
        before = children_cpu()
        times.append(measure(command, cwd))
        cpu.append(children_cpu() - before)
    return statistics.median(times), times, statistics.median(cpu)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--binary", type=Path, help="the one-file binary (dist/agency)")
    parser.add_argument("--no-venv", action="store_true", help="measure only the binary")
    parser.add_argument(
        "--agency", type=Path, default=AGENCY, help="the venv's command (e.g. an older checkout's)"
    )
    args = parser.parse_args(argv)

    installs: list[tuple[str, list[str]]] = []
    if not args.no_venv:
        installs.append(("venv", [str(args.agency)]))
    if args.binary:
        installs.append(("binary", [str(args.binary.resolve())]))
    print(f"load average before: {load()}  ({os.cpu_count()} CPUs)")
    rows: list[tuple[str, float, list[float], float, float | None]] = []
    for install, command in installs:
        with tempfile.TemporaryDirectory(prefix="agency-startup-") as scratch:
            cwd = Path(scratch)
            for what in ("--help", "version"):
                time_command([*command, what], cwd)  # warm the file cache (and the binary's)
                median, times, cpu = median_of(args.runs, time_command, [*command, what], cwd)
                rows.append((f"agency {what} ({install})", median, times, cpu, TARGETS[what]))
            # The first start creates and migrates the database.
            median, times, cpu = median_of(1, time_serve, command, cwd)
            rows.append((f"agency serve, fresh install ({install})", median, times, cpu, None))
            median, times, cpu = median_of(args.runs, time_serve, command, cwd)
            goal = TARGETS[f"serve ({install})"]
            rows.append((f"agency serve ({install})", median, times, cpu, goal))
    print(f"load average after:  {load()}")
    print()
    print("| command | median | target | runs (s) | CPU (median) |")
    print("|---|---|---|---|---|")
    failed = False
    for name, median, times, cpu, target in rows:
        verdict = ""
        if target is not None:
            verdict = f"< {target:.1f} s " + ("ok" if median < target else "MISSED")
            failed = failed or median >= target
        runs = " ".join(f"{t:.2f}" for t in times)
        print(f"| {name} | {median:.3f} s | {verdict} | {runs} | {cpu:.2f} s |")
    print()
    print("CPU: user + system time of the command and its children (for serve: until it is")
    print("stopped, so with its shutdown); it varies less with the machine's load than the time.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
