"""JSON requests through the Quart test client, and signing up or in: the one request helper of
the suite (tests/conftest.py builds its `customer` and `admin` fixtures on it)."""

from __future__ import annotations

from typing import Any

from agency.modules.auth.service import admin as auth_admin

# The header the CSRF rule asks of every unsafe request (see docs/architecture.md, security).
HEADERS = {"X-Agency-Request": "1"}
# The password of every account the helpers make.
PASSWORD = "correct horse"
CUSTOMER_EMAIL = "ada@example.com"
ADMIN_EMAIL = "admin@example.com"


async def call(client: Any, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """`method` (`"get"`, `"post"`, ...) `path` with `body` as JSON and the CSRF header: the
    status and the decoded JSON answer (None when the answer is empty)."""
    response = await getattr(client, method)(path, json=body, headers=HEADERS)
    data = await response.get_json() if response.content_length else None
    return response.status_code, data


async def sign_up(client: Any, email: str = CUSTOMER_EMAIL, **extra: Any) -> tuple[int, Any]:
    """Sign up as `email` (Ada Lovelace, PASSWORD, `extra` fields besides); signed in after."""
    body = {
        "email": email,
        "password": PASSWORD,
        "confirm_password": PASSWORD,
        "first_name": "Ada",
        "last_name": "Lovelace",
        **extra,
    }
    return await call(client, "post", "/api/auth/signup", body)


async def log_in(client: Any, email: str, password: str = PASSWORD) -> None:
    """Sign `client` out, then in as `email`; fails the test unless the login succeeds."""
    await call(client, "post", "/api/auth/logout")
    status, data = await call(
        client, "post", "/api/auth/login", {"email": email, "password": password}
    )
    assert status == 200, data


async def signed_up(app: Any, email: str = CUSTOMER_EMAIL, *, admin: bool = False) -> Any:
    """A new test client of `app` signed up and signed in as `email` (an admin when `admin`),
    with the account's id in `client.user_id`."""
    client = app.test_client()
    status, data = await sign_up(client, email)
    assert status in (200, 201), data
    if admin:
        await auth_admin.set_role(email, "admin")
    client.user_id = data["user"]["id"]
    return client


def error_message(data: Any) -> str:
    """The message of an error answer (`{"error": {"message": ...}}`)."""
    return str(data["error"]["message"])
