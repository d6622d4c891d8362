"""Per-account limits hold: concurrent log-in guesses, the settings' current-password checks,
and reset e-mails for one account, on SQLite and PostgreSQL. And they do not lock the owner out:
guesses count per account and client address (an IPv6 client by its /64) under a much higher
cap per account, and a password reset lets the owner in at once.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from agency.core import mail
from agency.core.errors import Conflict, TooManyRequests
from agency.core.web import job_runner
from agency.modules.auth.service import accounts
from tests.conftest import make_settings
from tests.helpers.http import HEADERS, PASSWORD, call, sign_up


@pytest.fixture
async def proxied(tmp_path: Path, database_url: str) -> AsyncIterator[Any]:
    """The app behind one trusted proxy: each request's X-Forwarded-For is its client."""
    quart_app = create_app(make_settings(tmp_path, database_url, trusted_proxies=1))
    async with quart_app.test_app() as test_app:
        yield test_app


async def post_from(client: Any, address: str, path: str, body: Any) -> Any:
    return await client.post(path, json=body, headers={**HEADERS, "X-Forwarded-For": address})


async def test_concurrent_guesses_get_at_most_the_limit_of_verifications(
    proxied: Any, backend: str
) -> None:
    """Simultaneous log-ins for one account from as many networks, the right password among
    them: at most the account's cap of wrong verifications."""
    cap = accounts.LOGIN_ATTEMPTS_PER_EMAIL.limit
    assert (await sign_up(proxied.test_client()))[0] == 201
    bodies = [{"email": "ada@example.com", "password": f"guess {n}"} for n in range(cap + 25)]
    bodies[cap + 10]["password"] = PASSWORD
    responses = await asyncio.gather(
        *(
            post_from(proxied.test_client(), f"2001:db8:{n:x}::1", "/api/auth/login", body)
            for n, body in enumerate(bodies)
        )
    )
    statuses = Counter(r.status_code for r in responses)
    assert statuses[401] <= cap and sum(statuses.values()) == len(bodies), statuses
    assert set(statuses) <= {200, 401, 429}, statuses
    # SQLite runs the statements in arrival order: the right password comes after the cap.
    # PostgreSQL's pool admits them in no fixed order; when the right password is among the
    # counted, it signs in (as it should) and does not buy the guesses one more wrong try.
    assert statuses[200] <= (0 if backend == "sqlite" else 1), statuses
    for response in responses:
        if response.status_code == 429:
            assert 0 < int(response.headers["Retry-After"]) <= 3600
            message = (await response.get_json())["error"]["message"]
            assert message.startswith("Too many attempts. Please try again in ")
            assert message.endswith(accounts.MSG_LOCKED_ADVICE)


async def test_guesses_from_one_network_are_limited_together(proxied: Any) -> None:
    """15 addresses of one IPv6 /64 guess 15 times: 10 verified, as from one address."""
    client = proxied.test_client()
    await sign_up(client)
    body = {"email": "ada@example.com", "password": "wrong password"}
    statuses = [
        (await post_from(client, f"2001:db8:1:2::{n:x}", "/api/auth/login", body)).status_code
        for n in range(1, 16)
    ]
    assert statuses == [401] * 10 + [429] * 5


async def test_a_right_password_does_not_count_and_forgives_nothing(proxied: Any) -> None:
    client = proxied.test_client()
    await sign_up(client)

    async def log_in(address: str, password: str) -> int:
        body = {"email": "ada@example.com", "password": password}
        return int((await post_from(client, address, "/api/auth/login", body)).status_code)

    assert [await log_in("192.0.2.1", PASSWORD) for _ in range(12)] == [200] * 12
    assert [await log_in("192.0.2.1", "wrong password") for _ in range(9)] == [401] * 9
    assert await log_in("192.0.2.1", PASSWORD) == 200
    assert await log_in("192.0.2.1", "wrong password") == 401
    assert await log_in("192.0.2.1", "wrong password") == 429
    assert await log_in("192.0.2.1", PASSWORD) == 429


async def test_a_guesser_does_not_lock_the_owner_out(proxied: Any) -> None:
    """The probe's case: ten wrong passwords from one address locked the account for 15 minutes,
    also for its owner with the right password from another address."""
    client = proxied.test_client()
    await sign_up(client)

    async def log_in(address: str, password: str) -> int:
        body = {"email": "ada@example.com", "password": password}
        return int((await post_from(client, address, "/api/auth/login", body)).status_code)

    guesses = [await log_in("203.0.113.66", f"guess {n}") for n in range(15)]
    assert guesses == [401] * 10 + [429] * 5
    assert await log_in("198.51.100.7", PASSWORD) == 200
    assert await log_in("2001:db8:5::7", PASSWORD) == 200
    assert await log_in("203.0.113.66", PASSWORD) == 429  # the guesser's address stays locked


async def test_when_many_networks_lock_the_account_a_reset_lets_the_owner_in(
    proxied: Any,
) -> None:
    """Guesses from more networks than the account's cap allows: the owner is refused too, is
    told how to get in without waiting, and after a password reset signs in at once."""
    client = proxied.test_client()
    await sign_up(client)
    cap = accounts.LOGIN_ATTEMPTS_PER_EMAIL.limit
    per_address = accounts.LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS.limit
    body = {"email": "ada@example.com", "password": "wrong password"}
    for n in range(cap // per_address):
        for _ in range(per_address):
            response = await post_from(client, f"2001:db8:{n:x}::1", "/api/auth/login", body)
            assert response.status_code == 401
    owner = {"email": "ada@example.com", "password": PASSWORD}
    refused = await post_from(client, "198.51.100.7", "/api/auth/login", owner)
    assert refused.status_code == 429
    message = (await refused.get_json())["error"]["message"]
    assert "'Forgot password?'" in message and "set a new password" in message

    forgot = {"email": "ada@example.com"}
    assert (
        await post_from(client, "198.51.100.7", "/api/auth/forgot-password", forgot)
    ).status_code == 202
    await job_runner(proxied.app).drain()
    [message_sent] = await mail.OutboundMail.all()
    token = message_sent.text.split("/reset-password?token=")[1].split()[0]
    reset = {"token": token, "password": "a new password", "confirm_password": "a new password"}
    assert (
        await post_from(client, "198.51.100.7", "/api/auth/reset-password", reset)
    ).status_code == 200
    new = {"email": "ada@example.com", "password": "a new password"}
    assert (await post_from(client, "198.51.100.7", "/api/auth/login", new)).status_code == 200
    # The guessers start again from nothing, against a password they know nothing about.
    assert (await post_from(client, "2001:db8::1", "/api/auth/login", body)).status_code == 401


async def test_current_password_checks_in_the_settings_count_too(client: Any) -> None:
    await sign_up(client)
    wrong = {"current_password": "nope nope", "new_password": "another pw"}
    attempts = await asyncio.gather(
        *(call(client, "post", "/api/account/password", wrong) for _ in range(15))
    )
    statuses = Counter(status for status, _ in attempts)
    assert statuses == {400: 10, 429: 5}
    right = {"current_password": PASSWORD, "new_password": "another pw"}
    assert (await call(client, "post", "/api/account/password", right))[0] == 429
    status, _ = await call(client, "post", "/api/account/email", {"new_email": "x@y.co"})
    assert status == 400  # no password given: nothing verified, nothing counted
    body = {"new_email": "x@y.co", "current_password": PASSWORD}
    assert (await call(client, "post", "/api/account/email", body))[0] == 429


async def test_one_account_gets_at_most_three_reset_links_an_hour(proxied: Any) -> None:
    """48 requests for one account from 48 addresses: the same answer every time, 3 e-mails."""
    await sign_up(proxied.test_client())
    answers = []
    for n in range(48):
        response = await post_from(
            proxied.test_client(),
            f"203.0.113.{n}",
            "/api/auth/forgot-password",
            {"email": "Ada@Example.com" if n % 2 else "ada@example.com"},
        )
        answers.append((response.status_code, await response.get_json()))
        unknown = await post_from(
            proxied.test_client(),
            f"203.0.113.{n}",
            "/api/auth/forgot-password",
            {"email": "nobody@example.com"},
        )
        assert (unknown.status_code, await unknown.get_json()) == answers[-1]
    assert answers == [answers[0]] * 48
    assert answers[0][0] == 202
    await job_runner(proxied.app).drain()
    sent = await mail.OutboundMail.all()
    assert [m.to for m in sent] == ["ada@example.com"] * 3


async def test_the_checkout_sign_in_counts_its_guesses_too(orm: str) -> None:
    """A signed-out buyer's e-mail and password (auth's register_or_authenticate)."""
    await accounts.create_user("ada@example.com", PASSWORD)

    async def guess(n: int) -> str:
        try:
            await accounts.register_or_authenticate(
                full_name="Eve",
                email="ada@example.com",
                password=f"guess {n}",
                client_ip=f"2001:db8::{n:x}",  # one /64: one client
            )
        except (Conflict, TooManyRequests) as refused:
            return type(refused).__name__
        return "signed in"

    outcomes = Counter(await asyncio.gather(*(guess(n) for n in range(25))))
    assert outcomes == {"Conflict": 10, "TooManyRequests": 15}
