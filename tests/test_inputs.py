"""No input answers 500 (issue 13, finding 4): bodies that are not UTF-8 or nest too deep, and
text the database would refuse (longer than its column, a NUL), answer 400 in the error shape
on every endpoint that takes a JSON body, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agency.core import ratelimit
from agency.modules.auth.service import admin as auth_admin
from tests.auth.helpers import HEADERS, sign_up

JSON_HEADERS = {**HEADERS, "Content-Type": "application/json"}


@pytest.fixture
def no_rate_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Many requests from one test client address: no limit may answer 429 instead."""

    async def allow(*_args: Any, **_kwargs: Any) -> int:
        return 0

    for name in ("enforce", "check", "hit"):
        if hasattr(ratelimit, name):
            monkeypatch.setattr(ratelimit, name, allow)
    yield


async def body_endpoints(client: Any) -> list[tuple[str, str]]:
    """Every operation of the API document that takes a request body."""
    document = await (await client.get("/openapi.json")).get_json()
    found = [
        (method, path)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation and "{" not in path
    ]
    assert len(found) >= 10, found
    return found


async def signed_in_admin(client: Any) -> None:
    status, _ = await sign_up(client, "admin@example.com")
    assert status == 201
    await auth_admin.set_role("admin@example.com", "admin")


def assert_error_shape(status: int, data: Any, where: str) -> None:
    assert status == 400, (where, status, data)
    assert set(data) == {"error"}, (where, data)
    assert data["error"]["code"] in ("validation_error", "bad_request"), (where, data)
    assert isinstance(data["error"]["message"], str) and data["error"]["message"], (where, data)


async def send_raw(client: Any, method: str, path: str, body: bytes) -> tuple[int, Any]:
    response = await client.open(path, method=method.upper(), data=body, headers=JSON_HEADERS)
    return response.status_code, await response.get_json()


async def test_a_body_that_is_not_utf8_json_answers_400_on_every_endpoint(
    client: Any, no_rate_limits: None
) -> None:
    await signed_in_admin(client)
    for method, path in await body_endpoints(client):
        for body in (
            b'{"email": "\xff\xfe@example.com"}',
            b"\xc3\x28",
            b'{"a": "\xed\xa0\x80"}',  # an encoded surrogate
            b'{"email": "a@b.example",',  # not JSON at all
        ):
            status, data = await send_raw(client, method, path, body)
            assert_error_shape(status, data, f"{method} {path} {body!r}")


@pytest.mark.parametrize("depth", [500, 1000, 100_000])
async def test_json_nested_too_deep_answers_400_on_every_endpoint(
    client: Any, no_rate_limits: None, depth: int
) -> None:
    await signed_in_admin(client)
    for method, path in await body_endpoints(client):
        for body in (
            b"[" * depth + b"]" * depth,
            b'{"email": ' + b'{"a": ' * depth + b"1" + b"}" * depth + b"}",
        ):
            status, data = await send_raw(client, method, path, body)
            assert_error_shape(status, data, f"{method} {path} depth {depth}")
