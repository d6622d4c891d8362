"""Two real server processes on one database: a session ended or changed through one process (or
the CLI) is refused, or answered as it now is, on the very next request to the other, although
each process keeps the sessions it has checked in memory (`auth.service.session_cache`).

Each round signs in, has both processes answer (so both have the session cached) while a
thread keeps asking the other process with the same cookies, revokes through one process, and
checks the very next request to the other, many times over, alternating the processes.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import agency_servers, run_agency, server_env

pytestmark = pytest.mark.slow

PASSWORD = "a long enough password 123"
ROUNDS = 25
_addresses = itertools.count(1)


def _address() -> str:
    """A new client address per sign-in (the per-address limits would refuse the loop)."""
    n = next(_addresses)
    return f"10.{n // 62500 % 250}.{n // 250 % 250}.{n % 250 + 1}"


def _call(
    base: str, method: str, path: str, cookie: str | None = None, body: Any = None
) -> httpx.Response:
    headers = {"X-Agency-Request": "1", "X-Forwarded-For": _address()}
    if cookie:
        headers["Cookie"] = f"agency_session={cookie}"
    return httpx.request(method, base + path, headers=headers, json=body, timeout=30)


def _session(response: httpx.Response) -> str:
    assert response.status_code in (200, 201), response.text
    cookie = response.cookies.get("agency_session")
    assert cookie, response.headers
    return cookie


def _sign_up(base: str, email: str) -> str:
    body = {"email": email, "password": PASSWORD, "first_name": "Ada", "last_name": "Lovelace"}
    return _session(_call(base, "POST", "/api/auth/signup", body=body))


def _log_in(base: str, email: str, password: str = PASSWORD) -> str:
    body = {"email": email, "password": password}
    return _session(_call(base, "POST", "/api/auth/login", body=body))


def _me(base: str, cookie: str) -> httpx.Response:
    return _call(base, "GET", "/api/auth/me", cookie)


class Hammer:
    """A thread asking `base` for `path` (/api/auth/me) with `cookies` without pause, so that
    the revocation or write lands while the other process is busy with (and has cached) those
    sessions and answers."""

    def __init__(self, base: str, cookies: list[str], path: str = "/api/auth/me") -> None:
        self.base, self.cookies, self.path = base, cookies, path
        self.stop = threading.Event()
        self.requests = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as client:
            while not self.stop.is_set():
                for cookie in self.cookies:
                    client.cookies.clear()
                    client.get(self.path, headers={"Cookie": f"agency_session={cookie}"})
                    self.requests += 1

    def __enter__(self) -> Hammer:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.thread.join(30)


@pytest.fixture
def servers(tmp_path: Path, database_url: str) -> Iterator[tuple[list[str], dict[str, str]]]:
    env = server_env(tmp_path, database_url, TRUSTED_PROXIES="1", ACCESS_LOG="false")
    with agency_servers(tmp_path, env, count=2) as urls:
        yield urls, env


def _pairs(urls: list[str], rounds: int) -> Iterator[tuple[int, str, str]]:
    for n in range(rounds):
        yield n, urls[n % 2], urls[(n + 1) % 2]


def test_logout_through_one_process_is_refused_by_the_other_at_once(
    servers: tuple[list[str], dict[str, str]],
) -> None:
    urls, _env = servers
    email = "logout@example.com"
    _sign_up(urls[0], email)
    kept = _log_in(urls[0], email)  # another browser of the same user, never signed out
    hammered = 0
    for n, here, there in _pairs(urls, ROUNDS):
        cookie = _log_in(here, email)
        assert _me(here, cookie).status_code == 200
        assert _me(there, cookie).status_code == 200
        with Hammer(there, [cookie, kept]) as hammer:
            assert _call(here, "POST", "/api/auth/logout", cookie).status_code == 204
            answer = _me(there, cookie)
            assert answer.status_code == 401, (n, answer.text)
        hammered += hammer.requests
        assert _me(here, cookie).status_code == 401
        assert _me(there, kept).status_code == 200
    assert hammered > ROUNDS  # the other process really was busy with those sessions


def test_password_change_ends_the_other_sessions_in_every_process(
    servers: tuple[list[str], dict[str, str]],
) -> None:
    urls, _env = servers
    email = "password@example.com"
    password = PASSWORD
    _sign_up(urls[0], email)
    for n, here, there in _pairs(urls, 4):
        current, other = _log_in(here, email, password), _log_in(there, email, password)
        for base, cookie in itertools.product(urls, (current, other)):
            assert _me(base, cookie).status_code == 200
        new = f"another long password {n}"
        with Hammer(there, [other, current]):
            changed = _call(
                here,
                "POST",
                "/api/account/password",
                current,
                {"current_password": password, "new_password": new},
            )
            assert changed.status_code == 200, changed.text
            answer = _me(there, other)
            assert answer.status_code == 401, (n, answer.text)
        password = new
        assert _me(there, current).status_code == 200  # the session that changed it stays


def test_profile_change_is_seen_by_the_other_process_at_once(
    servers: tuple[list[str], dict[str, str]],
) -> None:
    urls, _env = servers
    cookie = _sign_up(urls[0], "profile@example.com")
    for n, here, there in _pairs(urls, ROUNDS):
        assert _me(there, cookie).status_code == 200
        with Hammer(there, [cookie]):
            body = {"first_name": f"Ada{n}", "last_name": "Byron"}
            assert _call(here, "PATCH", "/api/account/profile", cookie, body).status_code == 200
            answer = _me(there, cookie)
        assert answer.json()["user"]["first_name"] == f"Ada{n}", (n, answer.text)


def test_deleted_account_is_refused_by_the_other_process_at_once(
    servers: tuple[list[str], dict[str, str]],
) -> None:
    urls, _env = servers
    for n, here, there in _pairs(urls, 3):
        cookie = _sign_up(here, f"deleted{n}@example.com")
        assert _me(there, cookie).status_code == 200
        with Hammer(there, [cookie]):
            deleted = _call(
                here, "POST", "/api/account/delete", cookie, {"current_password": PASSWORD}
            )
            assert deleted.status_code == 204, deleted.text
            answer = _me(there, cookie)
            assert answer.status_code == 401, (n, answer.text)


def test_an_operator_demoting_or_signing_out_through_the_cli_is_seen_by_both_processes(
    servers: tuple[list[str], dict[str, str]], tmp_path: Path
) -> None:
    urls, env = servers
    email = "operator@example.com"
    cookie = _sign_up(urls[0], email)

    def cli(*args: str) -> None:
        done = run_agency(tmp_path, "users", *args, **env)
        assert done.returncode == 0, done.stdout + done.stderr

    for _round in range(2):
        cli("set-role", email, "admin")
        for base in urls:
            assert _call(base, "GET", "/api/admin/audit", cookie).status_code == 200
        cli("set-role", email, "user")
        for base in urls:
            assert _call(base, "GET", "/api/admin/audit", cookie).status_code == 403
            assert _me(base, cookie).json()["user"]["role"] == "user"
    cli("sessions", "revoke", email)
    for base in urls:
        assert _me(base, cookie).status_code == 401
