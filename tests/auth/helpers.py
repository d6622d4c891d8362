"""Moved to tests/helpers/http.py (the suite's request helpers are not auth's): import from
there. This name stays for tests written against it meanwhile."""

from tests.helpers.http import HEADERS, PASSWORD, call, error_message, sign_up

__all__ = ["HEADERS", "PASSWORD", "call", "error_message", "sign_up"]
