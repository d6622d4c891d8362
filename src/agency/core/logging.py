"""Structured logs: every record carries the request id of the request that caused it.

A record is one line, whatever its fields hold: the text format escapes control characters in
every field (a visitor's path, an e-mail, an event id), so nobody can end a line and forge the
next one, or drive the terminal of whoever reads the log. JSON lines are
escaped by JSON itself. A traceback follows its record on lines of its own, each indented, so a
line that starts at the margin is always the start of a record.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id_var: ContextVar[str] = ContextVar("request_id", default="-")

# Attributes every LogRecord has; anything else was passed with `extra=` and is printed.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "request_id"}


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        return True


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD}


# What must not reach a log line as it is: C0 controls (line feed, carriage return, ESC and the
# rest), DEL, C1 controls (0x9b is a one-byte ESC [), the Unicode line and paragraph
# separators, lone surrogates (unencodable), and the backslash that starts our escapes.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\\]")
_UNSAFE_IN_TRACEBACK = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}
# A traceback's own line breaks are kept; a line of it starts with this, never at the margin.
TRACEBACK_INDENT = "  | "


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape(text: object) -> str:
    """`text` as one line of printable text: each unsafe character as a backslash escape
    (`\\n`, `\\x1b`, `\\u2028`; a backslash itself as `\\\\`)."""
    return _UNSAFE.sub(_escape_char, str(text))


def _indented(traceback: str) -> str:
    """A traceback's lines, each indented and escaped (a backslash kept: it cannot start a
    record there, and source lines stay as written)."""
    return "\n".join(
        TRACEBACK_INDENT + _UNSAFE_IN_TRACEBACK.sub(_escape_char, line)
        for line in traceback.splitlines()
    )


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
            **_extras(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        # JSON escapes every control character but DEL; the line is one line either way.
        return json.dumps(entry, default=str).replace("\x7f", "\\u007f")


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        extras = " ".join(f"{escape(k)}={escape(v)}" for k, v in _extras(record).items())
        line = (
            f"{self.formatTime(record, '%Y-%m-%d %H:%M:%S')} {escape(record.levelname):<7} "
            f"[{escape(getattr(record, 'request_id', '-'))}] {escape(record.name)}: "
            f"{escape(record.getMessage())}"
        )
        if extras:
            line += f" {extras}"
        if record.exc_info:
            line += "\n" + _indented(self.formatException(record.exc_info))
        if record.stack_info:
            line += "\n" + _indented(self.formatStack(record.stack_info))
        return line


def configure_logging(level: str = "info", fmt: str = "text") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("tortoise", "aiosqlite", "asyncio", "httpx", "httpcore", "hpack", "stripe"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # Our own access log replaces the servers' ones.
    for server_logger in ("granian.access", "uvicorn.access", "quart.serving"):
        logging.getLogger(server_logger).disabled = True
