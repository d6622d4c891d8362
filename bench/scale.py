"""Scale across processes: the API's req/s with `agency serve --workers 1` and `--workers 2` on
PostgreSQL, the ratio, and each server process's memory at rest and after the load.

For each worker count: a fresh PostgreSQL database (created, migrated with `agency db upgrade`,
dropped after), the real server on it, a user signed up through the API, then `wrk -t1 -cN
--latency` (a warm-up first) on `GET /api/auth/me` signed in and `GET /api/catalogue`.
Nothing is pinned: with two workers the server may use both CPUs, and wrk and PostgreSQL share
them, so the table also shows the CPU each used (server, PostgreSQL, wrk, anything else) per
second of measurement.

Run from the repository root: `.venv/bin/python bench/scale.py [--duration 10] [--workers 1,2]`.
Needs wrk and PostgreSQL on 127.0.0.1:5432 (`AGENCY_BENCH_POSTGRES_URL`, a superuser URL,
changes it). Writes the table to bench/out/scale.md as well.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import platform
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from load import postgres_database, postgres_url
from run import (
    AGENCY,
    CLOCK_TICKS,
    NOISY,
    REPO,
    Processes,
    clean_env,
    command_output,
    free_port,
    ms,
    parse_wrk,
    probe,
    raise_interrupt,
    signed_in_cookie,
    wait_until_ok,
)

BENCH = Path(__file__).resolve().parent
TARGETS = (("/api/auth/me", True), ("/api/catalogue", False))


@dataclass
class Figure:
    workers: int
    path: str
    rps: float
    p50_ms: float
    p99_ms: float
    errors: str
    cpu: dict[str, float]  # share of one CPU per kind of process during the measurement
    per_process: list[float]  # the server's processes' shares, largest first


@dataclass
class Memory:
    rest: dict[int, tuple[int, int]] = field(default_factory=dict)  # pid -> RSS, private kB
    after: dict[int, tuple[int, int]] = field(default_factory=dict)
    roles: dict[int, str] = field(default_factory=dict)


def cpu_ticks(session: int) -> dict[tuple[int, int], tuple[str, int]]:
    """CPU ticks used so far by each process, keyed by (pid, start time), with its kind: the
    server's session, PostgreSQL, or other. wrk, our child, is counted from its rusage."""
    me = os.getpid()
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == me and comm == "wrk":
            continue
        kind = (
            "server"
            if int(fields[3]) == session
            else "postgres"
            if comm.startswith("postgres")
            else "other"
        )
        found[int(entry.name), int(fields[19])] = (kind, int(fields[11]) + int(fields[12]))
    return found


def cpu_used(
    before: dict[tuple[int, int], tuple[str, int]], after: dict[tuple[int, int], tuple[str, int]]
) -> dict[str, float]:
    """CPU seconds by kind between two snapshots (processes that ended in between are not
    seen: a lower bound)."""
    used = {"server": 0.0, "postgres": 0.0, "other": 0.0}
    for key, (kind, ticks) in after.items():
        used[kind] += (ticks - before.get(key, (kind, 0))[1]) / CLOCK_TICKS
    return used


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def session_memory(session: int) -> dict[int, tuple[int, int]]:
    """Resident (Rss) and private (Private_Clean + Private_Dirty: what the process alone
    holds; forked workers share the rest with the supervisor) memory, kB, of every process of
    the server's session."""
    found: dict[int, tuple[int, int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError):
            if os.getsid(int(entry.name)) != session:
                continue
            values: dict[str, int] = {}
            for line in Path(entry.path, "smaps_rollup").read_text().splitlines():
                name, _, rest = line.partition(":")
                if rest.strip().endswith("kB"):
                    values[name] = int(rest.split()[0])
            found[int(entry.name)] = (
                values["Rss"],
                values.get("Private_Clean", 0) + values.get("Private_Dirty", 0),
            )
    return found


def roles(session: int, pids: list[int]) -> dict[int, str]:
    """The leader (granian's supervisor, no requests) or a worker, by parent."""
    return {pid: "supervisor" if pid == session else "worker" for pid in pids}


def wrk(url: str, seconds: float, connections: int, headers: dict[str, str]) -> str:
    extra = [arg for name, value in headers.items() for arg in ("-H", f"{name}: {value}")]
    argv = ["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", "--timeout", "5s", "--latency"]
    done = subprocess.run(
        [*argv, *extra, url], capture_output=True, text=True, timeout=seconds + 30, check=True
    )
    return done.stdout


@contextlib.contextmanager
def server(procs: Processes, work: Path, workers: int, database: str) -> Iterator[int]:
    port = free_port()
    home = work / f"workers-{workers}"
    home.mkdir()
    env = clean_env(
        AGENCY_DATA_DIR=str(home / "data"),
        AGENCY_DATABASE_URL=database,
        AGENCY_ACCESS_LOG="false",
        AGENCY_LOG_LEVEL="warning",
    )
    argv = [str(AGENCY), "serve", "--host", "127.0.0.1", "--port", str(port)]
    log = home / "server.log"
    # Migrated first, as a deployment's upgrade step does: a server that applies every migration
    # of a fresh database at start keeps the memory that took (about 450 MB) in its supervisor,
    # which each forked worker then shares, and the figures would show that.
    subprocess.run(
        [str(AGENCY), "db", "upgrade"], cwd=home, env=env, check=True, capture_output=True
    )
    with log.open("wb") as out:
        proc = procs.start([*argv, "--workers", str(workers)], cwd=home, env=env, log=out)
        try:
            wait_until_ok(proc, port, "/api/health", log)
            yield port
        finally:
            procs.stop(proc)


def measure_workers(
    procs: Processes, work: Path, workers: int, args: argparse.Namespace
) -> tuple[list[Figure], Memory]:
    figures: list[Figure] = []
    memory = Memory()
    with postgres_database() as name, server(procs, work, workers, postgres_url(name)) as port:
        session = procs.running[-1].pid
        cookie = {"Cookie": signed_in_cookie(port)}
        for path, signed_in in TARGETS:  # every worker answers each once before "at rest"
            for _ in range(4 * workers):
                probe(port, path, headers=cookie if signed_in else None)
        time.sleep(1)
        memory.rest = session_memory(session)
        memory.roles = roles(session, list(memory.rest))
        for path, signed_in in TARGETS:
            headers = cookie if signed_in else {}
            if probe(port, path, headers=headers).status != 200:
                raise RuntimeError(f"GET {path} did not answer 200")
            url = f"http://127.0.0.1:{port}{path}"
            wrk(url, args.warmup, args.connections, headers)
            before, wrk_before = cpu_ticks(session), children_cpu()
            started = time.monotonic()
            output = wrk(url, args.duration, args.connections, headers)
            elapsed = time.monotonic() - started
            after = cpu_ticks(session)
            used = cpu_used(before, after)
            used["wrk"] = children_cpu() - wrk_before
            cpu = {k: v / elapsed for k, v in used.items()}
            per_process = sorted(
                (
                    (ticks - before.get(key, (kind, 0))[1]) / CLOCK_TICKS / elapsed
                    for key, (kind, ticks) in after.items()
                    if kind == "server"
                ),
                reverse=True,
            )
            rps, p50, p99, errors = parse_wrk(output)
            figures.append(Figure(workers, path, rps, p50, p99, errors, cpu, per_process))
            shares = ", ".join(f"{k} {v:.0%}" for k, v in cpu.items())
            print(
                f"  workers {workers}  GET {path:<16} {rps:>9,.0f} req/s  p50 {ms(p50)}"
                f"  p99 {ms(p99)}  (CPU: {shares})"
            )
        memory.after = session_memory(session)
    return figures, memory


def report(
    args: argparse.Namespace, figures: list[Figure], memories: dict[int, Memory], load: str
) -> str:
    from importlib.metadata import version

    commit = command_output(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    postgres = command_output(["psql", "--version"])
    lines = [
        "### Scale across processes (`bench/scale.py`)",
        "",
        f"{datetime.date.today()}, commit {commit}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, granian {version('granian')}, {postgres}. "
        f"wrk -t1 -c{args.connections}, {args.warmup:g} s warm-up + {args.duration:g} s; "
        "nothing pinned (server, PostgreSQL and wrk share the CPUs); a fresh PostgreSQL "
        f"database per worker count. Load average {load}.",
        "",
        "| Request | Workers | req/s | p50 | p99 | CPU: server | PostgreSQL | wrk | other "
        "| Server processes | Requests per server CPU-second |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for f in figures:
        cpu = f.cpu
        lines.append(
            f"| `GET {f.path}` | {f.workers} | {f.rps:,.0f} | {ms(f.p50_ms)} | {ms(f.p99_ms)} "
            f"| {cpu['server']:.0%} | {cpu['postgres']:.0%} | {cpu['wrk']:.0%} "
            f"| {cpu['other']:.0%} | {' / '.join(f'{p:.0%}' for p in f.per_process)} "
            f"| {f.rps / cpu['server'] if cpu['server'] else 0:,.0f} |"
        )
    lines += [
        "",
        "CPU: share of one CPU used during the measurement by the server's processes, "
        "PostgreSQL's, wrk, and every other process (200% = both CPUs). Requests per server "
        "CPU-second: req/s over the server's CPU share, what the server does with the CPU it "
        "got (on a busy machine, two workers cannot get two CPUs). Server processes: each "
        "process's share, largest first (the supervisor uses next to none): whether both "
        "workers worked.",
    ]
    noisy = max(f.cpu["other"] for f in figures)
    if noisy > NOISY:
        lines.append(
            f"**The machine was busy** (other processes up to {noisy:.0%} of a CPU): "
            "treat these figures as noisy and re-run on a quiet machine."
        )
    errors = [f"- {f.workers} workers, {f.path}: {f.errors}" for f in figures if f.errors]
    if errors:
        lines += ["", "wrk reported errors:", *errors]
    counts = sorted({f.workers for f in figures})
    if len(counts) > 1:
        lines += ["", "| Request | " + " | ".join(f"{n} / {counts[0]} workers" for n in counts[1:])]
        lines[-1] += " |"
        lines.append("|---|" + "---:|" * (len(counts) - 1))
        for path, _signed_in in TARGETS:
            base = next(f.rps for f in figures if f.path == path and f.workers == counts[0])
            ratios = [
                next(f.rps for f in figures if f.path == path and f.workers == n) / base
                for n in counts[1:]
            ]
            lines.append(f"| `GET {path}` | " + " | ".join(f"{r:.2f}x" for r in ratios) + " |")
    lines += [
        "",
        "Memory of each server process (granian's supervisor, which answers no request, and "
        "its workers), at rest (after start-up and a few requests to each worker) and after "
        "the load. RSS counts the pages a forked worker still shares with the supervisor; "
        "private is what that process alone holds (`smaps_rollup`: Private_Clean + "
        "Private_Dirty), so a worker costs about its private figure more than one.",
        "",
        "| Workers | Process | RSS at rest | RSS after | Private at rest | Private after |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for workers, memory in memories.items():
        for pid in sorted(memory.rest, key=lambda p: (memory.roles[p] != "supervisor", p)):
            rest, after = memory.rest[pid], memory.after.get(pid, (0, 0))
            lines.append(
                f"| {workers} | {memory.roles[pid]} | {mb(rest[0])} | {mb(after[0])} "
                f"| {mb(rest[1])} | {mb(after[1])} |"
            )
    return "\n".join(lines) + "\n"


def mb(kb: int) -> str:
    return f"{kb / 1024:.0f} MB" if kb else "gone"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10, help="seconds measured per target")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of warm-up per target")
    parser.add_argument("--connections", type=int, default=50, help="wrk connections")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--out", type=Path, default=BENCH / "out/scale.md")
    args = parser.parse_args()
    if not AGENCY.is_file():
        raise SystemExit(f"{AGENCY} not found: run with the venv's python")
    signal.signal(signal.SIGTERM, raise_interrupt)
    procs = Processes()
    work = Path(tempfile.mkdtemp(prefix="agency-scale-"))
    figures: list[Figure] = []
    memories: dict[int, Memory] = {}
    load_before = os.getloadavg()
    try:
        for workers in (int(n) for n in args.workers.split(",")):
            print(f"agency serve --workers {workers} (PostgreSQL):")
            found, memories[workers] = measure_workers(procs, work, workers, args)
            figures += found
    except KeyboardInterrupt:
        print("interrupted; stopping servers", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        procs.stop_all()
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    load_after = os.getloadavg()
    load = f"{load_before[0]:.2f} before, {load_after[0]:.2f} after (1 min)"
    table = report(args, figures, memories, load)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(table)
    print()
    print(table)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
