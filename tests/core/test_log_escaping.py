"""A log record is one line whatever its fields hold: a path such as
`/api/x%0a<fake line>` once wrote a line break into the text access log, forging a line, and
`%1b[31m` reached the terminal as an escape sequence. Control characters are escaped in every
field of the text format; JSON lines are escaped by JSON."""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.logging import TRACEBACK_INDENT, JsonFormatter, TextFormatter, escape
from tests.conftest import free_port
from tests.e2e.conftest import wait_until_up

# C0, DEL, C1, the Unicode line and paragraph separators, lone surrogates.
UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
TEXT = st.lists(
    st.characters(codec=None)  # every code point, surrogates included
    | st.sampled_from(["\n", "\r", "\x1b[31m", "\x1b]0;title\x07", "\x9b2J", "\u2028", "\\"]),
    max_size=20,
).map("".join)  # not st.text(a | b): that would draw from the union evenly, losing the bias
KEYS = st.from_regex(r"[a-z_]{1,8}", fullmatch=True).filter(
    lambda key: key not in logging.makeLogRecord({}).__dict__ and key != "message"
)


def _record(message: str, level: str = "INFO", **extra: object) -> logging.LogRecord:
    return logging.makeLogRecord(
        {"name": "agency.test", "levelname": level, "msg": "%s", "args": (message,), **extra}
    )


def _one_safe_line(line: str) -> None:
    assert len(line.splitlines()) == 1, line
    assert UNSAFE.search(line) is None, line
    line.encode("utf-8")  # the handler can write it


@given(message=TEXT, extras=st.dictionaries(KEYS, TEXT, max_size=3), request_id=TEXT)
def test_any_text_makes_one_escaped_line(
    message: str, extras: dict[str, str], request_id: str
) -> None:
    record = _record(message, request_id=request_id, **extras)
    text = TextFormatter().format(record)
    _one_safe_line(text)
    assert escape(message) in text
    for key, value in extras.items():
        assert f"{key}={escape(value)}" in text
    line = JsonFormatter().format(record)
    _one_safe_line(line)
    entry = json.loads(line)
    assert entry["message"] == message and entry["request_id"] == request_id


@given(TEXT)
def test_the_escape_is_unambiguous(text: str) -> None:
    """Different texts never log alike: the escapes read back to the text."""
    escaped = escape(text)
    assert UNSAFE.search(escaped) is None
    assert _unescape(escaped) == text


def _unescape(escaped: str) -> str:
    named = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}

    def one(match: re.Match[str]) -> str:
        body = match.group(1)
        return named[body] if body in named else chr(int(body[1:], 16))

    return re.sub(r"\\(n|r|t|\\|x[0-9a-f]{2}|u[0-9a-f]{4})", one, escaped)


@given(message=TEXT)
def test_a_traceback_never_starts_a_line_of_its_own(message: str) -> None:
    try:
        raise ValueError(message)
    except ValueError:
        record = _record("failed", level="ERROR", exc_info=sys.exc_info())
    first, *rest = TextFormatter().format(record).split("\n")
    _one_safe_line(first)
    assert rest and all(line.startswith(TRACEBACK_INDENT) for line in rest), rest
    assert all(UNSAFE.search(line) is None for line in rest)
    _one_safe_line(JsonFormatter().format(record))


# --- the real server ---------------------------------------------------------------------------

FORGED = [
    ("/api/x%0a2030-01-01%2000:00:00%20INFO%20forged", "/api/x%0A2030-01-01%2000:00:00%20INFO"),
    ("/api/x%1b[31mred%1b[0m", "/api/x%1B%5B31mred%1B%5B0m"),
    ("/api/x%0d%e2%80%a8%c2%9b2J", "/api/x%0D%E2%80%A8%C2%9B2J"),
]


def _get(port: int, target: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.slow  # starts real agency or job-runner processes
@pytest.mark.parametrize("log_format", ["text", "json"])
def test_forged_paths_make_one_escaped_line_each(tmp_path: Path, log_format: str) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENCY_")}
    env.update(
        AGENCY_DATABASE_URL=f"sqlite://{tmp_path / 'agency.db'}",
        AGENCY_SECRET_KEY="s" * 40,
        AGENCY_DATA_DIR=str(tmp_path / "data"),
        AGENCY_WEB_DIR=str(tmp_path / "no-web"),
        AGENCY_LOG_LEVEL="info",
        AGENCY_LOG_FORMAT=log_format,
    )
    errors = tmp_path / "stderr.log"
    with errors.open("wb") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", "agency", "serve", "--port", str(port)],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            wait_until_up(f"http://127.0.0.1:{port}", server)
            for target, _ in FORGED:
                assert _get(port, target).startswith(b"HTTP/1.1 404"), target
            deadline = time.monotonic() + 5
            while errors.read_bytes().count(b"/api/x") < len(FORGED) and (
                time.monotonic() < deadline
            ):
                time.sleep(0.05)
        finally:
            server.terminate()
            server.wait(timeout=10)
    output = errors.read_bytes().decode("utf-8")
    lines = output.splitlines()
    for line in lines:
        _one_safe_line(line)
    for _, logged in FORGED:
        [line] = [line for line in lines if logged in line]
        assert (" 404" if log_format == "text" else ' 404"') in line
    assert not any(line.startswith(("2030", '{"time": "2030')) for line in lines)  # no forgery
