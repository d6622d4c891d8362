"""`/metrics`: the machine's metrics for Prometheus, and what each request adds to them.

`install_metrics` (called by `create_app` when `metrics_token` is set) puts two thin ASGI
layers around the app and wraps Quart's dispatch:

- `MetricsLayer`, outermost (in front of the static site): answers `/metrics` itself (never
  the static site, no CSRF: a GET with the token), and times every other request, recording
  it by the route cell it put in the scope when the response ends;
- `QuartSide`, between the static site and the request layer: a request that gets this far
  was not answered by the static site, so its cell says `unmatched` until Quart names a route;
- Quart's `full_dispatch_request`, wrapped: the matched rule's template
  (`/api/admin/analyses/<int:analysis_id>`) goes into the cell.

So a file or page of the built site is `static`, a path no route takes is `unmatched`, and
nothing of the request's path reaches a label. A scrape adds up the files of every process of
the machine (`agency.core.metrics`), with the database's figures (job queue, mail outbox) read
at that moment by the process answering. `agency worker --metrics-listen` answers the same
scrape on an address of its own (`serve_metrics`), without Quart.
"""

from __future__ import annotations

import asyncio
import glob
import hmac
import logging
import os
import re
import time
from collections.abc import Callable, Collection, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from quart import Quart

from agency.core import metrics
from agency.core.web.asgi import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)


METRICS_PATH: Final = "/metrics"
# The scope key holding a request's route cell (a one-item list the layers below fill in).
ROUTE_KEY: Final = "agency.metrics.route"
STATIC: Final = "static"
UNMATCHED: Final = "unmatched"
# How often each process writes the requests it counted, and its memory and pool figures.
FLUSH_SECONDS: Final = 1.0
REFRESH_SECONDS: Final = 15.0
# prometheus_client's text format for these names is 0.0.4's (what Prometheus 2 parses).
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"
_LIVE_FILE = re.compile(r"^gauge_live[a-z]+_(\d+)\.db$")

Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


def authorized(header: bytes | None, token: str) -> bool:
    """Whether an Authorization header's value is `Bearer <token>` (scheme in any case),
    compared in constant time. False when no token is set."""
    if not token or header is None:
        return False
    scheme, _, credentials = header.strip().partition(b" ")
    if scheme.lower() != b"bearer":
        return False
    return hmac.compare_digest(credentials.strip(), token.encode())


def _plain(status: int, text: str, *extra: tuple[bytes, bytes]) -> Answer:
    body = text.encode()
    return (
        status,
        [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"cache-control", b"no-store"),
            *extra,
        ],
        body,
    )


async def answer(
    method: str, authorization: bytes | None, token: str, kinds: Iterable[str]
) -> Answer:
    """The answer to a request for `/metrics`: 404 without a token configured, 401 without the
    right one, else the scrape (`kinds`: the job kinds reported even when none is queued)."""
    if not token or not metrics.enabled():
        return _plain(404, "Not found.")
    if not authorized(authorization, token):
        return _plain(401, "Unauthorized.", (b"www-authenticate", b'Bearer realm="metrics"'))
    if method not in ("GET", "HEAD"):
        return _plain(405, "Method not allowed.", (b"allow", b"GET, HEAD"))
    body = await scrape(kinds)
    headers = [
        (b"content-type", CONTENT_TYPE.encode()),
        (b"cache-control", b"no-store"),
        (b"content-length", str(len(body)).encode()),
    ]
    return 200, headers, b"" if method == "HEAD" else body


async def scrape(kinds: Iterable[str]) -> bytes:
    """Every live and past process's metrics of this machine, and the database's figures."""
    directory = metrics.directory()
    assert directory is not None
    metrics.flush()  # this process's requests up to now; the others' are a second old at most
    metrics.refresh_process()
    try:
        families = await database_families(kinds)
    except Exception as error:
        # The process figures are still worth having while the database is away.
        log.warning("metrics: the database's figures are missing (%s)", error)
        families = []
    return await asyncio.to_thread(_collect, directory, families)


def _collect(directory: Path, families: list[Any]) -> bytes:
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    forget_dead_processes(directory)
    registry = CollectorRegistry(auto_describe=False)
    MultiProcessCollector(registry, path=str(directory))  # type: ignore[no-untyped-call]
    registry.register(_Fixed(families))
    return generate_latest(registry)


class _Fixed:
    """A collector of metric families read beforehand (the database's, read asynchronously)."""

    def __init__(self, families: list[Any]) -> None:
        self.families = families

    def collect(self) -> Iterable[Any]:
        return self.families


def forget_dead_processes(directory: Path) -> list[int]:
    """Drop the live gauges (processes, memory, pool, version) of processes that are gone
    without a clean exit (killed, crashed): what a clean exit's `metrics.stopped` does. Their
    counters stay. The pids are this machine's: the directory is never shared between
    machines or containers. Returns the pids dropped."""
    from prometheus_client.multiprocess import mark_process_dead

    dead = set()
    for path in glob.glob(os.path.join(directory, "gauge_live*_*.db")):
        found = _LIVE_FILE.match(os.path.basename(path))
        if found is None:
            continue
        pid = int(found.group(1))
        if pid != os.getpid() and not _alive(pid):
            dead.add(pid)
    for pid in dead:
        mark_process_dead(pid, str(directory))  # type: ignore[no-untyped-call]
    return sorted(dead)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True


async def database_families(kinds: Iterable[str]) -> list[Any]:
    """The job queue (queued, oldest queued's age, failed, per kind) and the mail outbox
    (waiting, sent, failed): two grouped counts, read at each scrape."""
    from prometheus_client.core import GaugeMetricFamily
    from tortoise import connections

    connection = connections.get("default")
    now = datetime.now(UTC)
    queued: dict[str, float] = dict.fromkeys(kinds, 0.0)
    oldest: dict[str, float] = dict.fromkeys(kinds, 0.0)
    failed: dict[str, float] = dict.fromkeys(kinds, 0.0)
    rows = await connection.execute_query_dict(
        "SELECT kind, status, COUNT(*) AS n, MIN(run_at) AS first_run FROM job "
        "WHERE status IN ('queued', 'failed') GROUP BY kind, status"
    )
    for row in rows:
        kind = str(row["kind"])
        for table in (queued, oldest, failed):
            table.setdefault(kind, 0.0)
        if row["status"] == "queued":
            queued[kind] = float(row["n"])
            # Due since `first_run` (a retry or a delayed job waiting its turn is not late).
            first = _timestamp(row["first_run"])
            oldest[kind] = max(0.0, (now - first).total_seconds()) if first else 0.0
        else:
            failed[kind] = float(row["n"])
    outbox = {"waiting": 0.0, "sent": 0.0, "failed": 0.0}
    states = {"queued": "waiting", "outbox": "waiting", "sent": "sent", "failed": "failed"}
    for row in await connection.execute_query_dict(
        "SELECT status, COUNT(*) AS n FROM outbound_mail GROUP BY status"
    ):
        state = states.get(str(row["status"]))
        if state is not None:
            outbox[state] += float(row["n"])

    def family(name: str, text: str, label: str, values: dict[str, float]) -> Any:
        result = GaugeMetricFamily(name, text, labels=[label])
        for key in sorted(values):
            result.add_metric([key], values[key])
        return result

    return [
        family("agency_jobs_queued", "Jobs waiting in the queue, by kind.", "kind", queued),
        family(
            "agency_jobs_oldest_queued_age_seconds",
            "How long the oldest due job of each kind has waited to run.",
            "kind",
            oldest,
        ),
        family(
            "agency_jobs_failed", "Jobs failed for good (kept a while), by kind.", "kind", failed
        ),
        family("agency_mail_outbox", "Outgoing e-mail by state.", "state", outbox),
    ]


def _timestamp(value: object) -> datetime | None:
    """A time the database returned: a datetime (PostgreSQL) or its text (SQLite)."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str) and value:
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


# ---------------------------------------------------------------------------------------------
# The ASGI layers


class MetricsLayer:
    """Outermost layer: `/metrics`, and the time and outcome of every other request."""

    def __init__(self, app: ASGIApp, token: str, kinds: Callable[[], Collection[str]]) -> None:
        self.app = app
        self.token = token
        self.kinds = kinds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        if scope["path"] == METRICS_PATH:
            status = await self._metrics(scope, send)
            metrics.http_request(
                METRICS_PATH, scope["method"], status, time.perf_counter() - started
            )
            return
        cell = [STATIC]
        scope[ROUTE_KEY] = cell
        watch = _Watch(send)
        try:
            await self.app(scope, receive, watch.send)
        except Exception:
            metrics.http_request(
                cell[0], scope["method"], watch.status or 500, time.perf_counter() - started
            )
            raise
        if watch.status:
            metrics.http_request(
                cell[0], scope["method"], watch.status, time.perf_counter() - started
            )

    async def _metrics(self, scope: Scope, send: Send) -> int:
        authorization = None
        for name, value in scope["headers"]:
            if name == b"authorization":
                authorization = value
                break
        status, headers, body = await answer(
            scope["method"], authorization, self.token, self.kinds()
        )
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return status


class _Watch:
    """Notes the status a response starts with, on its way out."""

    __slots__ = ("downstream", "status")

    def __init__(self, downstream: Send) -> None:
        self.downstream = downstream
        self.status = 0

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        await self.downstream(message)


class QuartSide:
    """Between the static site and the rest: what gets here is not a static answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cell = scope.get(ROUTE_KEY)
        if cell is not None:
            cell[0] = UNMATCHED
        await self.app(scope, receive, send)


def name_routes(app: Any) -> None:
    """Wrap the Quart app's `full_dispatch_request`: by then the request context has matched
    the URL rule, whose template goes into the request's route cell."""
    dispatch = app.full_dispatch_request

    async def full_dispatch_request(request_context: Any = None) -> Any:
        if request_context is not None:
            request = request_context.request
            rule = request.url_rule
            if rule is not None:
                cell = request.scope.get(ROUTE_KEY)
                if cell is not None:
                    cell[0] = rule.rule
        return await dispatch(request_context)

    app.full_dispatch_request = full_dispatch_request


def install_metrics(
    app: Quart, token: str, directory: Path, version: str, kinds: Callable[[], Collection[str]]
) -> bool:
    """Record this process's metrics and serve `/metrics` when `token` is set (else leave the
    app as it is: nothing recorded, `/metrics` a 404 like any unknown path). `app.asgi_app`
    must be the static site's layer (`create_app`). Returns whether metrics are on."""
    from agency.core.web.site import StaticSite

    if not metrics.configure(token, directory, version):
        return False
    refresher: list[asyncio.Task[None]] = []

    @app.before_serving
    async def start_metrics() -> None:
        metrics.started()
        refresher.append(asyncio.get_running_loop().create_task(_refresh(), name="metrics"))

    @app.after_serving
    async def stop_metrics() -> None:
        for task in refresher:
            task.cancel()
        refresher.clear()
        metrics.stopped()

    site = app.asgi_app
    if isinstance(site, StaticSite):
        site.app = QuartSide(site.app)
    name_routes(app)
    app.asgi_app = MetricsLayer(site, token, kinds)  # type: ignore[method-assign, assignment, arg-type]
    return True


async def _refresh() -> None:
    refreshed = time.monotonic()
    while True:
        await asyncio.sleep(FLUSH_SECONDS)
        try:
            metrics.flush()
            if time.monotonic() - refreshed >= REFRESH_SECONDS:
                refreshed = time.monotonic()
                metrics.refresh_process()
        except Exception:
            log.exception("metrics: writing this process's figures failed")


# ---------------------------------------------------------------------------------------------
# `agency worker --metrics-listen`: the same answer on an address of its own, without Quart.

# The most a request's head (request line and headers) may hold.
MAX_HEAD = 16 * 1024
HEAD_TIMEOUT_SECONDS = 10.0


def parse_listen(text: str) -> tuple[str, int]:
    """`HOST:PORT` (`127.0.0.1:9101`, `[::1]:9101`, `localhost:9101`) as host and port;
    ValueError when it is not one."""
    host, colon, port_text = text.strip().rpartition(":")
    if not colon or not host or not port_text.isascii() or not port_text.isdigit():
        raise ValueError(f"not HOST:PORT: {text!r}")
    if host.startswith("["):
        if not host.endswith("]") or len(host) < 3:
            raise ValueError(f"not HOST:PORT: {text!r}")
        host = host[1:-1]
    elif ":" in host:
        raise ValueError(f"an IPv6 address is written in brackets: [{host}]:{port_text}")
    if not re.fullmatch(r"[A-Za-z0-9.:%_-]+", host):
        raise ValueError(f"not a host name or address: {host!r}")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise ValueError(f"port out of range: {port}")
    return host, port


def parse_head(head: bytes) -> tuple[str, str, bytes | None]:
    """The method, path (query dropped) and Authorization value of an HTTP/1.x request head
    (`readuntil(b"\\r\\n\\r\\n")`'s bytes); ValueError when it is not one."""
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/1."):
        raise ValueError("not an HTTP/1 request line")
    method, target = parts[0], parts[1]
    if not re.fullmatch(rb"[A-Z]{1,16}", method) or not target.startswith(b"/"):
        raise ValueError("not an HTTP/1 request line")
    authorization = None
    for line in lines[1:]:
        if not line:
            continue
        name, colon, value = line.partition(b":")
        if not colon or not name or name != name.strip():
            raise ValueError("not a header line")
        if name.lower() == b"authorization":
            if authorization is not None:
                raise ValueError("more than one Authorization header")
            authorization = value.strip()
    path = target.split(b"?", 1)[0].decode("latin-1")
    return method.decode("ascii"), path, authorization


async def serve_metrics(
    host: str, port: int, token: str, kinds: Callable[[], Collection[str]]
) -> asyncio.Server:
    """Listen on `host:port` for scrapes of `/metrics` (one request per connection)."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                async with asyncio.timeout(HEAD_TIMEOUT_SECONDS):
                    head = await reader.readuntil(b"\r\n\r\n")
                method, path, authorization = parse_head(head)
            except (
                ValueError,
                asyncio.IncompleteReadError,
                asyncio.LimitOverrunError,
                TimeoutError,
            ):
                status, headers, body = _plain(400, "Bad request.")
            else:
                if path != METRICS_PATH:
                    status, headers, body = _plain(404, "Not found.")
                else:
                    status, headers, body = await answer(method, authorization, token, kinds())
            lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'OK')}".encode()]
            lines += [name + b": " + value for name, value in headers if name != b"content-length"]
            lines += [b"content-length: " + str(len(body)).encode(), b"connection: close"]
            writer.write(b"\r\n".join(lines) + b"\r\n\r\n" + body)
            await writer.drain()
        except (ConnectionError, OSError):
            pass  # the client went away
        except Exception:
            log.exception("metrics: answering a scrape failed")
        finally:
            writer.close()

    return await asyncio.start_server(handle, host, port, limit=MAX_HEAD)


_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    405: "Method Not Allowed",
}
