"""Small helpers for auth tests: JSON calls through the Quart test client with the CSRF header."""

from __future__ import annotations

from typing import Any

HEADERS = {"X-Agency-Request": "1"}
PASSWORD = "correct horse"


async def call(client: Any, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    response = await getattr(client, method)(path, json=body, headers=HEADERS)
    data = await response.get_json() if response.content_length else None
    return response.status_code, data


async def sign_up(client: Any, email: str = "ada@example.com", **extra: Any) -> tuple[int, Any]:
    body = {
        "email": email,
        "password": PASSWORD,
        "confirm_password": PASSWORD,
        "first_name": "Ada",
        "last_name": "Lovelace",
        **extra,
    }
    return await call(client, "post", "/api/auth/signup", body)


def error_message(data: Any) -> str:
    return str(data["error"]["message"])
