"""No input answers 500: bodies that are not UTF-8 or nest too deep, and
text the database would refuse (longer than its column, a NUL), answer 400 in the error shape
on every endpoint that takes a JSON body, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from agency.modules.auth.service import admin as auth_admin
from tests.billing.conftest import started_shop
from tests.fakes.stripe_server import FakeStripe, run_fake_stripe
from tests.helpers.http import HEADERS, PASSWORD, call, sign_up

JSON_HEADERS = {**HEADERS, "Content-Type": "application/json"}


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
            if depth < 1000 and body.startswith(b"{") and status < 400:
                # 500 levels still parse: an endpoint whose fields are all optional (mark all
                # notifications read) ignores the unknown key. What matters: never a 5xx.
                continue
            assert_error_shape(status, data, f"{method} {path} depth {depth}")


def long_email(length: int) -> str:
    """A well-formed address of `length` characters (a 64-character local part)."""
    local = "a" * 64
    labels: list[str] = []
    while len(local) + 1 + len(".".join([*labels, "com"])) < length:
        room = length - (len(local) + 1 + len(".".join([*labels, "com"]))) - 1
        labels.append("b" * max(1, min(63, room)))
    email = f"{local}@{'.'.join([*labels, 'com'])}"
    assert len(email) == length, (len(email), length)
    return email


@pytest.fixture
def stripe_fake() -> Iterator[FakeStripe]:
    with run_fake_stripe() as fake:
        yield fake


@pytest.fixture
async def shop(tmp_path: Path, database_url: str, stripe_fake: FakeStripe) -> AsyncIterator[Any]:
    async with started_shop(
        tmp_path, database_url, stripe_fake, agency_email="team@agency.test"
    ) as test_app:
        yield test_app


VISITOR = {"full_name": "Ada Lovelace", "email": "buyer@example.com", "password": PASSWORD}
# Each operation that stores or looks up what it is sent, with a body that would succeed;
# `signed_in` ones run as a signed-in admin, the others from a fresh (signed-out) client.
BODIES: list[tuple[str, str, bool, dict[str, Any]]] = [
    (
        "post",
        "/api/auth/signup",
        False,
        {
            "email": "new@example.com",
            "password": PASSWORD,
            "confirm_password": PASSWORD,
            "first_name": "Ada",
            "last_name": "Lovelace",
        },
    ),
    ("post", "/api/auth/login", False, {"email": "admin@example.com", "password": PASSWORD}),
    ("post", "/api/auth/forgot-password", False, {"email": "admin@example.com"}),
    ("post", "/api/auth/reset-password", False, {"token": "x" * 43, "password": PASSWORD}),
    (
        "patch",
        "/api/account/profile",
        True,
        {"first_name": "Ada", "last_name": "Byron", "avatar_url": "https://img.example/a.png"},
    ),
    (
        "post",
        "/api/account/email",
        True,
        {"new_email": "ada@example.org", "current_password": PASSWORD},
    ),
    (
        "post",
        "/api/billing/checkout",
        False,
        {"plan": "professional", "domain": "ada-homes.com", **VISITOR},
    ),
    (
        "post",
        "/api/leads",
        False,
        {
            "source": "free-preview",
            "email": "owner@homes.example",
            "name": "Ann",
            "domain": "ann-homes.com",
            "message": "Hello",
        },
    ),
]
TEXT_FIELDS = [
    (method, path, signed_in, body, field)
    for method, path, signed_in, body in BODIES
    for field, value in body.items()
    if isinstance(value, str) and "password" not in field
]


async def send(shop: Any, admin: Any, signed_in: bool, method: str, path: str, body: Any) -> Any:
    client = admin if signed_in else shop.test_client()
    return await call(client, method, path, body)


@pytest.mark.parametrize("length", [255, 300, 320])
async def test_emails_longer_than_the_column_answer_400(
    shop: Any, no_rate_limits: None, length: int
) -> None:
    admin = shop.test_client()
    await signed_in_admin(admin)
    email = long_email(length)
    for method, path, signed_in, body in BODIES:
        for field in ("email", "new_email"):
            if field in body:
                status, data = await send(
                    shop, admin, signed_in, method, path, {**body, field: email}
                )
                assert_error_shape(status, data, f"{path} {field} {length}")


@pytest.mark.parametrize("length", [254, 280, 300])
async def test_domains_longer_than_the_column_answer_400(
    shop: Any, no_rate_limits: None, length: int
) -> None:
    domain = ("d" * 62 + ".") * 5
    domain = domain[: length - 4].rstrip(".") + ".com"
    domain = domain.rjust(length, "e")
    assert len(domain) == length
    for method, path, signed_in, body in BODIES:
        if "domain" in body:
            status, data = await send(
                shop, None, signed_in, method, path, {**body, "domain": domain}
            )
            assert_error_shape(status, data, f"{path} domain {length}")


@pytest.mark.parametrize(
    "bad", ["a\x00b", "\x00", "a\x01b", "a\x1bb", "a\x7fb", "a\ud800b"], ids=repr
)
async def test_control_characters_in_stored_text_answer_400(
    shop: Any, no_rate_limits: None, bad: str
) -> None:
    """NUL reaches PostgreSQL as an error (SQLite stores it); a lone surrogate cannot be
    encoded for either database; other controls have no place in a name, address or e-mail."""
    admin = shop.test_client()
    await signed_in_admin(admin)
    for method, path, signed_in, body, field in TEXT_FIELDS:
        value = body[field]
        for sent in (bad + value, value + bad):
            status, data = await send(shop, admin, signed_in, method, path, {**body, field: sent})
            assert_error_shape(status, data, f"{path} {field} {sent!r}")


@pytest.mark.parametrize("source", ["s" * 65, "a\x00b", "a\nb"], ids=repr)
async def test_a_leads_filter_no_column_can_hold_answers_400(
    client: Any, no_rate_limits: None, source: str
) -> None:
    await signed_in_admin(client)
    for path in ("/api/admin/leads", "/api/admin/leads.csv"):
        response = await client.get(path, query_string={"source": source}, headers=HEADERS)
        assert_error_shape(response.status_code, await response.get_json(), f"{path} {source!r}")


@pytest.mark.parametrize("session_id", ["c" * 300, "cs_a%00b", "cs_%ED%A0%80"])
async def test_a_checkout_id_no_column_can_hold_is_not_a_server_error(
    client: Any, session_id: str
) -> None:
    await signed_in_admin(client)
    response = await client.get(f"/api/billing/checkout/{session_id}", headers=HEADERS)
    assert response.status_code in (400, 404), (session_id, await response.get_data())
    assert set((await response.get_json())["error"]) >= {"code", "message"}
