"""Mixed load on `agency serve --workers 2`, on SQLite and on PostgreSQL, and a PostgreSQL outage.

    .venv/bin/python bench/load.py [--seconds 60] [--users 24] [--db sqlite,postgres,outage]

Each scenario starts the real server (`agency serve --workers 2`, migrations of a fresh database
included) in a temporary directory, with the built web UI copied aside (`webui/dist`, when it is
built) and `AGENCY_TRUSTED_PROXIES=1`: every request carries its own `X-Forwarded-For`, as if
from its own visitor, so the per-address rate limits see many visitors instead of one. `--users`
virtual users then loop for `--seconds`, each picking its next request at random:

    page 40 %   a prerendered page (GET, from routes.json; `/` when the web UI is not built)
    catalogue 15 %   GET /api/catalogue
    signup 5 %  a new account (POST /api/auth/signup; argon2 at its production cost)
    login 5 %   the user logs in again (POST /api/auth/login; argon2 verify)
    lead 15 %   POST /api/leads
    profile 20 %  PATCH /api/account/profile (a read-then-write transaction)

Each user signs up first (so that it has a session for its profile updates). The run prints
req/s and p50/p95/p99 latency per kind, and the errors (any answer but the expected 200/201, or
no answer): there must be none.

Scenarios (`--db`, comma-separated):
- `sqlite`: a fresh SQLite file;
- `postgres`: a fresh PostgreSQL database (created on `--postgres`, dropped after);
- `outage`: PostgreSQL again, but the server reaches it through a loopback TCP proxy
  (tests/fakes/tcp_proxy.py) that this script closes `--down-at` seconds into the run for
  `--down-for` seconds (connections cut, port refusing) and then reopens: the machine's
  PostgreSQL itself is never stopped. Errors must be 503s while it is down, and none after.
- `hostile`: SQLite, the same mix, plus `bomb` (10 % of requests): an anonymous
  POST /api/analyses of a site whose home page, and PageSpeed's answer for it, is a gigabyte of
  zeros sent as 1.8 kB of `Content-Encoding: gzip, gzip` (tests/fakes/bombs.py, an origin on
  loopback; the unsafe test settings point the analysis and PageSpeed at it). It prints every
  server process's peak memory (VmHWM) and fails when one passes `--max-rss-mb` (600): a worker
  that decoded one bomb would hold a gigabyte. The other kinds' latency shows whether the bombs
  stall the workers.

Load generator and server share the machine: figures are for comparing runs on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg  # type: ignore[import-untyped]
import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from tests.fakes.bombs import BombOrigin  # noqa: E402
from tests.fakes.tcp_proxy import TcpProxy  # noqa: E402

from procs import stop_group  # noqa: E402  (bench/, first on the path of a script run from it)

AGENCY = Path(sys.executable).parent / "agency"
WEB_DIST = REPO / "webui" / "dist"
OUT = REPO / "bench" / "out" / "load.md"
POSTGRES_ADMIN = os.environ.get(
    "AGENCY_BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
MIX = {"page": 40, "catalogue": 15, "signup": 5, "login": 5, "lead": 15, "profile": 20}
EXPECTED = {
    "page": 200,
    "catalogue": 200,
    "signup": 201,
    "login": 200,
    "lead": 201,
    "profile": 200,
    "bomb": 202,
}
# The hostile scenario's mix: the same, with analyses of a compression bomb among them.
HOSTILE_MIX = {**MIX, "page": 30, "bomb": 10}
# Domains whose analysis fetches the bomb (20 analyses an hour per domain: enough of them).
BOMB_DOMAINS = [f"bomb-site-{n}.com" for n in range(200)]
PASSWORD = "a long enough password 123"
HEADERS = {"X-Agency-Request": "1", "Accept-Encoding": "br, gzip"}
LEAD_FORM = "ai-onboarding-audit"


@dataclass
class Sample:
    kind: str
    started: float  # seconds since the load started
    duration: float  # seconds
    status: int  # 0: no answer


@dataclass
class Run:
    name: str
    seconds: float
    samples: list[Sample] = field(default_factory=list)
    down: tuple[float, float] | None = None  # outage window, seconds since the load started


# --- the server ------------------------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def server(
    database_url: str, workdir: Path, extra_env: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`agency serve --workers 2` on the given database; yields its base URL and process."""
    web = workdir / "web"
    if (WEB_DIST / "index.html").is_file():
        shutil.copytree(WEB_DIST, web)  # a rebuild during the run changes nothing
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(
        AGENCY_DATABASE_URL=database_url,
        AGENCY_SECRET_KEY="b" * 48,
        AGENCY_DATA_DIR=str(workdir / "data"),
        AGENCY_WEB_DIR=str(web),
        AGENCY_TRUSTED_PROXIES="1",
        AGENCY_ACCESS_LOG="false",
        AGENCY_LOG_LEVEL="warning",
        **(extra_env or {}),
    )
    log = (workdir / "server.log").open("wb")
    argv = [str(AGENCY), "serve", "--workers", "2", "--port", str(port)]
    proc = subprocess.Popen(
        argv, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: see {workdir / 'server.log'}")
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not answer /api/health within 60 s")
            time.sleep(0.2)
        yield base, proc
    finally:
        stop_group(proc)
        log.close()


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(POSTGRES_ADMIN.replace("postgres://", "postgresql://", 1))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh database for one scenario, dropped afterwards; yields its name."""
    name = f"agency_bench_{os.getpid()}_{random.randrange(10**6)}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield name
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def postgres_url(name: str, port: int | None = None) -> str:
    admin = urlsplit(POSTGRES_ADMIN)
    credentials = admin.netloc.rpartition("@")[0]
    host = f"127.0.0.1:{port}" if port else f"{admin.hostname}:{admin.port or 5432}"
    return f"postgres://{credentials}@{host}/{name}" if credentials else f"postgres://{host}/{name}"


# --- the load --------------------------------------------------------------------------------


class Addresses:
    """A distinct client address for every request (10.0.0.0/8)."""

    def __init__(self) -> None:
        self.n = 0

    def next(self) -> str:
        self.n += 1
        return f"10.{(self.n >> 16) & 255}.{(self.n >> 8) & 255}.{self.n & 255}"


def pages() -> list[str]:
    routes = WEB_DIST / "routes.json"
    if routes.is_file():
        listed = json.loads(routes.read_text()).get("prerendered") or []
        if listed:
            return [str(p) for p in listed]
    return ["/"]


async def user(
    n: int,
    base: str,
    run: Run,
    t0: float,
    stop: float,
    addresses: Addresses,
    paths: list[str],
    mix: dict[str, int],
) -> None:
    rng = random.Random(n)
    email = f"load{n}-{os.getpid()}@example.com"
    kinds = list(mix)
    weights = [mix[k] for k in kinds]
    signed_up = False
    async with httpx.AsyncClient(base_url=base, headers=HEADERS, timeout=30) as client:
        while time.monotonic() < stop:
            kind = "signup" if not signed_up else rng.choices(kinds, weights)[0]
            headers = {"X-Forwarded-For": addresses.next()}
            method, path, body = "GET", "/api/catalogue", None
            if kind == "page":
                path = rng.choice(paths)
            elif kind == "signup":
                # Another new account once signed up: on success its session cookie replaces
                # the previous one and the user goes on as the new account.
                candidate = f"load{n}-{os.getpid()}-{rng.randrange(10**9)}@example.com"
                method, path = "POST", "/api/auth/signup"
                body = {
                    "email": candidate if signed_up else email,
                    "password": PASSWORD,
                    "confirm_password": PASSWORD,
                    "first_name": "Load",
                    "last_name": f"User {n}",
                }
            elif kind == "login":
                method, path, body = (
                    "POST",
                    "/api/auth/login",
                    {"email": email, "password": PASSWORD},
                )
            elif kind == "lead":
                method, path = "POST", "/api/leads"
                body = {
                    "source": LEAD_FORM,
                    "email": email,
                    "name": f"Load {n}",
                    "domain": f"site{n}.example.com",
                    "message": "Under load.",
                }
            elif kind == "bomb":
                method, path = "POST", "/api/analyses"
                body = {"url": rng.choice(BOMB_DOMAINS), "email": email, "source": "ai-analysis"}
            elif kind == "profile":
                method, path = "PATCH", "/api/account/profile"
                body = {"first_name": "Load", "last_name": f"User {n} {rng.randrange(1000)}"}
            started = time.monotonic()
            try:
                response = await client.request(method, path, json=body, headers=headers)
                await response.aread()
                status = response.status_code
            except httpx.HTTPError:
                status = 0
            ended = time.monotonic()
            run.samples.append(Sample(kind, started - t0, ended - started, status))
            if kind == "signup" and status == EXPECTED["signup"]:
                email = str(body["email"]) if body else email
                signed_up = True
            elif kind == "signup" and not signed_up:
                await asyncio.sleep(0.2)  # e.g. the database is down: do not spin


async def load(
    base: str,
    run: Run,
    users: int,
    outage: tuple[TcpProxy, float, float] | None,
    mix: dict[str, int] = MIX,
) -> None:
    addresses = Addresses()
    paths = pages()
    t0 = time.monotonic()
    stop = t0 + run.seconds
    tasks = [
        asyncio.create_task(user(n, base, run, t0, stop, addresses, paths, mix))
        for n in range(users)
    ]
    if outage is not None:
        proxy, down_at, down_for = outage
        await asyncio.sleep(down_at)
        proxy.close()
        closed = time.monotonic() - t0
        await asyncio.sleep(down_for)
        proxy.open()
        run.down = (closed, time.monotonic() - t0)
    await asyncio.gather(*tasks)


# --- figures ---------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def is_error(sample: Sample) -> bool:
    return sample.status != EXPECTED[sample.kind]


def report(run: Run) -> tuple[str, int]:
    """A markdown table of the run, and the count of errors that fail it."""
    lines = [
        f"### {run.name}: {run.seconds:.0f} s",
        "",
        "| kind | requests | req/s | p50 ms | p95 ms | p99 ms | errors |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    by_kind: dict[str, list[Sample]] = defaultdict(list)
    for sample in run.samples:
        by_kind[sample.kind].append(sample)
    kinds_seen = [k for k in EXPECTED if k in by_kind]
    for kind in [*kinds_seen, "all"]:
        samples = run.samples if kind == "all" else by_kind.get(kind, [])
        ok = [s.duration * 1000 for s in samples if not is_error(s)]
        errors = sum(1 for s in samples if is_error(s))
        name = f"**{kind}**" if kind == "all" else kind
        lines.append(
            f"| {name} | {len(samples)} | {len(samples) / run.seconds:.1f} | "
            f"{percentile(ok, 50):.0f} | {percentile(ok, 95):.0f} | {percentile(ok, 99):.0f} | "
            f"{errors} |"
        )
    errors = [s for s in run.samples if is_error(s)]
    statuses = Counter(s.status for s in errors)
    failing = len(errors)
    if run.down is not None:
        closed, reopened = run.down
        during = [s for s in errors if closed - 1 <= s.started <= reopened]
        after = [s for s in errors if s.started > reopened]
        before = [s for s in errors if s.started < closed - 1]
        not_503 = Counter(s.status for s in during if s.status != 503)

        def kinds(samples: list[Sample]) -> str:
            counts = Counter(f"{s.kind} {s.status}" for s in samples)
            return ", ".join(f"{key}: {n}" for key, n in sorted(counts.items())) or "none"

        last = max((s.started + s.duration for s in errors), default=None)
        lines += [
            "",
            f"PostgreSQL unreachable from {closed:.1f} s to {reopened:.1f} s: "
            f"{len(during)} errors while down ({dict(Counter(s.status for s in during))}), "
            f"{len(before)} before, {len(after)} after"
            + (f"; last error answered at {last:.1f} s" if last is not None else "")
            + ".",
            "",
            f"While down: {kinds(during)}. After: {kinds(after)}.",
        ]
        failing = len(before) + len(after) + sum(not_503.values())
    elif statuses:
        lines += ["", f"Errors by status: {dict(statuses)} (0 = no answer)."]
    return "\n".join(lines), failing


def open_to_others(data: Path) -> list[str]:
    """The database's files (and the secret key) that give group or others any access: they
    hold password hashes and e-mail addresses, so the program makes them 0600."""
    files = [*sorted(data.glob("agency.db*")), data / "secret_key"]
    modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in files if path.exists()}
    return [f"{name} {oct(mode)}" for name, mode in modes.items() if mode & 0o077]


def group_peaks(leader: int) -> dict[int, int]:
    """Peak resident memory (VmHWM, kB) of every process in the server's process group."""
    peaks: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getpgid(int(entry.name)) != leader:
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks[int(entry.name)] = int(line.split()[1])
        except (OSError, ValueError):
            continue  # gone, or not ours to read
    return peaks


def hostile_env(origin: BombOrigin) -> dict[str, str]:
    """Analyses of BOMB_DOMAINS fetch the bomb, and PageSpeed is the bomb origin too: every
    request stays on loopback (the unsafe settings are for tests and benches only)."""
    return {
        "AGENCY_SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS": "true",
        "AGENCY_ANALYSIS_UNSAFE_FETCH_OVERRIDES": json.dumps(
            dict.fromkeys(BOMB_DOMAINS, origin.base_url + "/")
        ),
        "AGENCY_PAGESPEED_API_BASE": origin.base_url,
        "AGENCY_SPEEDTEST_PROVIDER": "psi",
    }


def scenario(name: str, seconds: float, users: int, args: argparse.Namespace) -> tuple[str, int]:
    run = Run(name, seconds)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="agency-load-") as tmp:
        workdir = Path(tmp)
        exposed: list[str] = []
        peaks: dict[int, int] = {}
        served: int | None = None
        if name == "sqlite":
            with server(f"sqlite://{workdir / 'data' / 'agency.db'}", workdir) as (base, proc):
                asyncio.run(load(base, run, users, None))
                exposed = open_to_others(workdir / "data")  # -wal and -shm exist while it runs
                peaks = group_peaks(proc.pid)
        elif name == "hostile":
            origin = BombOrigin()
            origin.start()
            origin.serve_bomb("gzip, gzip", "text/html; charset=utf-8")
            try:
                database = f"sqlite://{workdir / 'data' / 'agency.db'}"
                with server(database, workdir, hostile_env(origin)) as (base, proc):
                    asyncio.run(load(base, run, users, None, HOSTILE_MIX))
                    time.sleep(3)  # the last analyses' jobs read their bombs
                    peaks = group_peaks(proc.pid)
                    served = len(origin.requests)
            finally:
                origin.stop()
        elif name == "postgres":
            with postgres_database() as db, server(postgres_url(db), workdir) as (base, _):
                asyncio.run(load(base, run, users, None))
        else:
            admin = urlsplit(POSTGRES_ADMIN)
            proxy = TcpProxy(admin.hostname or "127.0.0.1", admin.port or 5432)
            proxy.open()
            try:
                with (
                    postgres_database() as db,
                    server(postgres_url(db, proxy.port), workdir) as (b, _),
                ):
                    asyncio.run(load(b, run, users, (proxy, args.down_at, args.down_for)))
            finally:
                proxy.close()
        log = (workdir / "server.log").read_text(errors="replace")
        OUT.parent.mkdir(parents=True, exist_ok=True)
        (OUT.parent / f"load-{name}-server.log").write_text(log)
        tracebacks = log.count("Traceback")
    table, failing = report(run)
    if exposed:
        table += f"\n\nDatabase files others can read (must be 0600): {', '.join(exposed)}."
        failing += len(exposed)
    if peaks:
        worst = max(peaks.values()) / 1024
        if served is not None:
            table += (
                f"\n\nThe bomb origin answered {served} requests (1.8 kB each, a gigabyte decoded)."
            )
        table += (
            "\n\nPeak memory (VmHWM) of the server's processes: "
            + ", ".join(f"{kb / 1024:.0f} MB" for kb in sorted(peaks.values()))
            + f" (limit {args.max_rss_mb} MB)."
        )
        if served is not None and worst > args.max_rss_mb:
            table += f" FAIL: a process reached {worst:.0f} MB."
            failing += 1
    table += (
        f"\n\nLoad average (1 min) {load_before:.1f} before, {os.getloadavg()[0]:.1f} after "
        f"({os.cpu_count()} CPUs; this run's own server and client included)."
    )
    if tracebacks:
        table += f"\n\nServer log: {tracebacks} tracebacks (bench/out/load-{name}-server.log)."
    return table, failing


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=60, help="load duration per scenario")
    parser.add_argument("--users", type=int, default=24, help="concurrent virtual users")
    parser.add_argument("--db", default="sqlite,postgres,outage", help="scenarios to run")
    parser.add_argument("--down-at", type=float, default=None, help="outage start (s) [1/3 in]")
    parser.add_argument("--down-for", type=float, default=5, help="outage length (s)")
    parser.add_argument(
        "--max-rss-mb", type=int, default=600, help="hostile: most memory a server process may hold"
    )
    args = parser.parse_args()
    if args.down_at is None:
        args.down_at = args.seconds / 3
    header = (
        f"agency load: `agency serve --workers 2`, {args.users} users, "
        f"{os.cpu_count()} CPUs (load generator on the same machine), "
        f"load average {os.getloadavg()[0]:.1f} at start"
    )
    print(header, flush=True)
    tables, failing = [header], 0
    for name in [n.strip() for n in args.db.split(",") if n.strip()]:
        if name not in ("sqlite", "postgres", "outage", "hostile"):
            parser.error(f"unknown scenario {name}")
        table, failed = scenario(name, args.seconds, args.users, args)
        print("\n" + table, flush=True)
        tables.append(table)
        failing += failed
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n\n".join(tables) + "\n")
    print(f"\n{'FAIL' if failing else 'OK'}: {failing} errors that should not be. Wrote {OUT}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
