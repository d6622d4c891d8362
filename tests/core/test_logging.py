"""Structured logs carry the request id of the request that wrote them."""

from __future__ import annotations

import json
import logging

from agency.core.logging import JsonFormatter, RequestIdFilter, TextFormatter, request_id_var


def record(message: str, **extra: object) -> logging.LogRecord:
    entry = logging.makeLogRecord(
        {"name": "agency.test", "levelname": "INFO", "msg": message, **extra}
    )
    RequestIdFilter().filter(entry)
    return entry


def test_json_lines_hold_the_request_id_and_extras() -> None:
    token = request_id_var.set("req-42")
    try:
        line = JsonFormatter().format(record("GET /api/health 200", duration_ms=1.5))
    finally:
        request_id_var.reset(token)
    entry = json.loads(line)
    assert entry["request_id"] == "req-42"
    assert entry["message"] == "GET /api/health 200"
    assert entry["duration_ms"] == 1.5
    assert entry["level"] == "info"


def test_text_lines_outside_a_request_say_so() -> None:
    line = TextFormatter().format(record("started"))
    assert "[-] agency.test: started" in line
