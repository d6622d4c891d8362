"""The metrics' rules that need no server process: the Bearer check, the worker's
`--metrics-listen` address and request-head parsers, a crashed process's live gauges dropped,
and `/metrics` a 404 while no token is set (through the whole stack of an app)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.app import create_app
from agency.core import metrics
from agency.core.web.prometheus import authorized, forget_dead_processes, parse_head, parse_listen
from tests.conftest import make_settings, web_client

TOKENS = st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=64
)


@pytest.fixture(autouse=True)
def metrics_off_after() -> Iterator[None]:
    """A test that turned metrics on in this process turns them off again."""
    yield
    metrics.configure("", Path("."), "0")
    os.environ.pop(metrics.MULTIPROC_ENV, None)  # later tests' subprocesses start without it


@given(token=TOKENS)
def test_the_right_bearer_token_passes_in_any_case_of_the_scheme(token: str) -> None:
    assert authorized(f"Bearer {token}".encode(), token)
    assert authorized(f"bearer  {token} ".encode(), token)
    assert authorized(f"BEARER {token}".encode(), token)


@given(token=TOKENS, other=st.binary(max_size=80))
def test_anything_else_is_refused(token: str, other: bytes) -> None:
    assume_right = other.strip().partition(b" ")
    if assume_right[0].lower() == b"bearer" and assume_right[2].strip() == token.encode():
        return  # that one is the right header
    assert not authorized(other, token)
    assert not authorized(f"Basic {token}".encode(), token)
    assert not authorized(f"Bearer {token}x".encode(), token)
    assert not authorized(None, token)
    assert not authorized(f"Bearer {token}".encode(), "")  # no token set: nothing passes


@given(
    host=st.one_of(
        st.ip_addresses(v=4).map(str),
        st.from_regex(r"[a-z][a-z0-9-]{0,20}(\.[a-z][a-z0-9-]{0,20}){0,3}", fullmatch=True),
    ),
    port=st.integers(min_value=1, max_value=65535),
)
def test_a_listen_address_is_host_and_port(host: str, port: int) -> None:
    assert parse_listen(f"{host}:{port}") == (host, port)


@given(address=st.ip_addresses(v=6), port=st.integers(min_value=1, max_value=65535))
def test_an_ipv6_listen_address_is_in_brackets(address: object, port: int) -> None:
    assert parse_listen(f"[{address}]:{port}") == (str(address), port)
    with pytest.raises(ValueError):
        parse_listen(f"{address}:{port}")


@given(text=st.text(max_size=40))
def test_a_listen_address_is_parsed_or_refused_with_a_value_error(text: str) -> None:
    try:
        host, port = parse_listen(text)
    except ValueError:
        return
    assert 1 <= port <= 65535 and host and "/" not in host and " " not in host


@pytest.mark.parametrize(
    "text", ["9101", ":9101", "127.0.0.1:", "127.0.0.1:0", "h:65536", "[::1:9"]
)
def test_listen_addresses_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_listen(text)


HEADER_VALUES = st.binary(max_size=60).filter(lambda b: b"\r" not in b and b"\n" not in b)


@given(
    method=st.sampled_from(["GET", "HEAD", "POST"]),
    path=st.from_regex(r"/[A-Za-z0-9/._-]{0,30}", fullmatch=True),
    query=st.from_regex(r"[A-Za-z0-9=&]{0,20}", fullmatch=True),
    authorization=st.one_of(st.none(), HEADER_VALUES),
    others=st.lists(
        st.tuples(st.from_regex(r"X-[A-Za-z-]{1,12}", fullmatch=True), HEADER_VALUES), max_size=4
    ),
)
def test_a_request_head_gives_its_method_path_and_authorization(
    method: str,
    path: str,
    query: str,
    authorization: bytes | None,
    others: list[tuple[str, bytes]],
) -> None:
    lines = [f"{method} {path}{'?' + query if query else ''} HTTP/1.1".encode(), b"Host: x"]
    lines += [name.encode() + b": " + value for name, value in others]
    if authorization is not None:
        lines.append(b"Authorization: " + authorization)
    head = b"\r\n".join(lines) + b"\r\n\r\n"
    expected = None if authorization is None else authorization.strip()
    assert parse_head(head) == (method, path, expected)


@given(head=st.binary(max_size=200))
def test_any_bytes_are_a_request_head_or_a_value_error(head: bytes) -> None:
    try:
        method, path, _authorization = parse_head(head)
    except ValueError:
        return
    assert method.isupper() and path.startswith("/") and "?" not in path


def test_two_authorization_headers_are_refused() -> None:
    head = b"GET /metrics HTTP/1.1\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n"
    with pytest.raises(ValueError):
        parse_head(head)


def test_a_dead_process_loses_its_live_gauges_and_keeps_its_counters(tmp_path: Path) -> None:
    finished = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead = int(finished.stdout)
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        for pid in (dead, alive.pid):
            for name in (f"gauge_livesum_{pid}.db", f"gauge_livemax_{pid}.db", f"counter_{pid}.db"):
                (tmp_path / name).write_bytes(b"")
        assert forget_dead_processes(tmp_path) == [dead]
    finally:
        alive.kill()
        alive.wait()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(
        [
            f"counter_{dead}.db",
            f"counter_{alive.pid}.db",
            f"gauge_livemax_{alive.pid}.db",
            f"gauge_livesum_{alive.pid}.db",
        ]
    )


async def test_metrics_are_a_404_and_record_nothing_without_a_token(
    tmp_path: Path, database_url: str
) -> None:
    settings = make_settings(tmp_path, database_url, metrics_dir=tmp_path / "metrics")
    app = create_app(settings)
    async with app.test_app() as started, web_client(started.app) as http:
        answer = await http.get("/metrics", headers={"Authorization": "Bearer "})
        assert answer.status_code == 404
        assert (await http.get("/api/catalogue")).status_code == 200
    assert not metrics.enabled()
    assert not (tmp_path / "metrics").exists()


async def test_with_a_token_the_whole_stack_answers_by_route(
    tmp_path: Path, database_url: str
) -> None:
    settings = make_settings(
        tmp_path, database_url, metrics_dir=tmp_path / "metrics", metrics_token="secret"
    )
    app = create_app(settings)
    async with app.test_app() as started, web_client(started.app) as http:
        assert (await http.get("/metrics")).status_code == 401
        assert (await http.get("/api/catalogue")).status_code == 200
        answer = await http.get("/metrics", headers={"Authorization": "Bearer secret"})
        assert answer.status_code == 200
    assert (
        'agency_http_requests_total{method="GET",route="/api/catalogue",status="200"} 1.0'
        in answer.text
    )


def _collected(directory: Path) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector
    from prometheus_client.parser import text_string_to_metric_families

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(directory))
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(generate_latest(registry).decode())
        for sample in family.samples
    }


async def test_job_runs_and_lease_expiries_are_counted_by_kind_and_outcome(
    tmp_path: Path, orm: str
) -> None:
    from datetime import timedelta

    from agency.core import jobs

    directory = tmp_path / "metrics"  # of its own: every *.db file in it is read as metrics
    metrics.configure("on", directory, "0")
    calls = {"flaky": 0}

    async def ok(_payload: dict[str, object]) -> None:
        return None

    async def flaky(_payload: dict[str, object]) -> None:
        calls["flaky"] += 1
        raise RuntimeError("not yet")

    async def broken(_payload: dict[str, object]) -> None:
        raise jobs.PermanentFailure("never")

    now = jobs._now()
    for kind in ("ok", "ok", "broken"):
        await jobs.enqueue(kind)
    await jobs.enqueue("flaky", max_attempts=2)
    # A job left running by a runner that died: its lease ran out a minute ago.
    await jobs.Job.create(
        kind="ok",
        status=jobs.RUNNING,
        run_at=now - timedelta(minutes=5),
        attempts=1,
        locked_by="gone:1:1",
        locked_until=now - timedelta(minutes=1),
    )
    runner = jobs.JobRunner({"ok": ok, "flaky": flaky, "broken": broken})
    await runner.drain()
    await jobs.Job.filter(kind="flaky").update(run_at=now)  # its retry, due now
    await runner.drain()
    assert calls["flaky"] == 2

    found = _collected(directory)
    runs = "agency_job_runs_total"
    assert found[(runs, frozenset({("kind", "ok"), ("outcome", "done")}))] == 3
    assert found[(runs, frozenset({("kind", "flaky"), ("outcome", "retry")}))] == 1
    assert found[(runs, frozenset({("kind", "flaky"), ("outcome", "failed")}))] == 1
    assert found[(runs, frozenset({("kind", "broken"), ("outcome", "failed")}))] == 1
    assert found[("agency_job_lease_expiries_total", frozenset({("kind", "ok")}))] == 1
