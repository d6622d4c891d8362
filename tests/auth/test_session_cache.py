"""The per-process session cache and the accounts' revision that invalidates it (migration 0038).

The cache is only as good as the revision: every write that can change what a session cookie
stands for must move it, in the same transaction, and no other write should (a sign-in would
otherwise empty every process's cache)."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import UTC, datetime
from typing import Any

from tortoise import connections

from agency.modules.auth.models import Profile, Session, User
from agency.modules.auth.schemas import Account
from agency.modules.auth.service import sessions
from agency.modules.auth.service.session_cache import SessionCache
from tests.helpers.http import call, sign_up


async def _revision() -> int | None:
    rows = await connections.get("default").execute_query_dict(
        "SELECT n FROM auth_revision WHERE id = 1"
    )
    return int(rows[0]["n"]) if rows else None


async def _bump() -> None:
    await connections.get("default").execute_query(
        "UPDATE auth_revision SET n = n + 1 WHERE id = 1"
    )


def _account(n: int) -> Account:
    return Account(
        id=n,
        email=f"user{n}@example.com",
        role="user",
        first_name="Ada",
        last_name="",
        avatar_url=None,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
    )


class Loads:
    """A loader that counts its calls, standing in for the signature check and the query."""

    def __init__(self, account: Account | None, lifetime: float = 3600) -> None:
        self.account, self.lifetime, self.calls = account, lifetime, 0

    async def __call__(self) -> tuple[Account, float] | None:
        self.calls += 1
        if self.account is None:
            return None
        return self.account, time.time() + self.lifetime


async def _ready(app: Any) -> None:
    """A request through the app: on PostgreSQL the test's TRUNCATE took the revision row, and
    the first revision read puts it back."""
    await SessionCache().account("warm-up", Loads(None))
    assert await _revision() is not None


async def test_a_session_is_loaded_once_while_the_revision_stands(app: Any) -> None:
    await _ready(app)
    cache, load = SessionCache(), Loads(_account(1))
    for _ in range(3):
        assert await cache.account("cookie", load) == _account(1)
    assert load.calls == 1
    await _bump()
    assert await cache.account("cookie", load) == _account(1)
    assert load.calls == 2


async def test_unknown_and_expired_sessions_are_not_kept(app: Any) -> None:
    await _ready(app)
    cache, missing, short = SessionCache(), Loads(None), Loads(_account(2), lifetime=0.05)
    assert await cache.account("nobody", missing) is None
    assert await cache.account("nobody", missing) is None
    assert missing.calls == 2
    assert await cache.account("short", short) is not None
    await asyncio.sleep(0.1)
    short.account = None  # the database agrees: the session is over
    assert await cache.account("short", short) is None
    assert short.calls == 2 and len(cache) == 0


async def test_nothing_is_cached_without_the_revision_row_and_it_is_put_back(app: Any) -> None:
    await _ready(app)
    await connections.get("default").execute_query("DELETE FROM auth_revision")
    cache, load = SessionCache(), Loads(_account(3))
    assert await cache.account("cookie", load) is not None
    assert load.calls == 1 and len(cache) == 0
    assert await _revision() is not None  # restored, at a number no process had seen
    await cache.account("cookie", load)
    await cache.account("cookie", load)
    assert load.calls == 2


async def test_a_session_loaded_while_the_revision_moved_is_not_kept(app: Any) -> None:
    """A revocation committed while a lookup's query ran: another request already saw the new
    revision and emptied the cache; the lookup's answer, maybe from before, is not stored."""
    await _ready(app)
    cache = SessionCache()

    class Racing(Loads):
        async def __call__(self) -> tuple[Account, float] | None:
            found = await super().__call__()
            await _bump()
            await cache.account("other", Loads(_account(5)))  # sees the bump, empties
            return found

    racing = Racing(_account(4))
    await cache.account("cookie", racing)
    assert "cookie" not in cache._entries
    await cache.account("cookie", racing)
    assert racing.calls == 2


async def test_the_oldest_entry_makes_room(app: Any) -> None:
    await _ready(app)
    cache = SessionCache(max_entries=2)
    loads = {name: Loads(_account(n)) for n, name in enumerate("abc")}
    for name in "abc":
        await cache.account(name, loads[name])
    assert len(cache) == 2
    await cache.account("a", loads["a"])
    await cache.account("c", loads["c"])
    assert loads["a"].calls == 2 and loads["c"].calls == 1


async def test_random_lookups_and_revocations_never_serve_a_session_past_a_revocation(
    app: Any,
) -> None:
    """Against a model: after a revocation, every cookie's next lookup asks the database."""
    await _ready(app)
    rng = random.Random(30)
    cache = SessionCache(max_entries=4)
    loads = {n: Loads(_account(n)) for n in range(6)}
    trusted: set[int] = set()  # cookies looked up since the last revocation
    for _ in range(400):
        if rng.random() < 0.15:
            await _bump()
            trusted.clear()
            continue
        n = rng.randrange(6)
        before = loads[n].calls
        await cache.account(str(n), loads[n])
        if n not in trusted:
            assert loads[n].calls == before + 1
        trusted.add(n)


async def test_every_change_to_what_a_session_stands_for_moves_the_revision(
    app: Any, client: Any
) -> None:
    await _ready(app)
    status, data = await sign_up(client, email="grace@example.com")
    assert status == 201
    user_id = data["user"]["id"]

    async def moves(change: Any) -> bool:
        before = await _revision()
        await change
        return await _revision() != before

    # A sign-in adds a session no cache can hold yet: nothing to invalidate.
    token = await sessions.start_session(user_id, remember=False, user_agent="", ip="")
    assert not await moves(asyncio.sleep(0))
    assert not await moves(sessions.start_session(user_id, remember=True, user_agent="", ip=""))
    assert await moves(Profile.filter(id=user_id).update(first_name="Grace"))
    assert await moves(User.filter(id=user_id).update(role="admin"))
    assert await moves(Session.filter(id=sessions.token_hash(token)).update(remember=True))
    assert await moves(sessions.end_session(token))
    assert await moves(Profile.filter(id=user_id).delete())
    assert await moves(Profile.create(id=user_id, first_name="Grace"))
    assert await moves(sessions.end_sessions(user_id))
    assert await moves(User.filter(id=user_id).delete())


async def test_a_profile_change_shows_at_once_in_the_same_process(client: Any) -> None:
    status, _data = await sign_up(client, email="grace@example.com")
    assert status == 201
    for n in range(3):
        assert (await call(client, "get", "/api/auth/me"))[0] == 200
        body = {"first_name": f"Grace{n}", "last_name": "Hopper"}
        assert (await call(client, "patch", "/api/account/profile", body))[0] == 200
        _status, me = await call(client, "get", "/api/auth/me")
        assert me["user"]["first_name"] == f"Grace{n}"


async def test_ending_sessions_counts_them_exactly(app: Any, client: Any) -> None:
    """On SQLite the driver's count of a DELETE would add the revision trigger's updates."""
    await _ready(app)
    status, data = await sign_up(client, email="grace@example.com")
    assert status == 201
    user_id = data["user"]["id"]
    tokens = [
        await sessions.start_session(user_id, remember=False, user_agent="", ip="")
        for _ in range(3)
    ]
    assert await sessions.end_sessions(user_id, keep_token=tokens[0]) == 3  # and sign-up's
    assert await sessions.end_sessions(user_id) == 1
    assert await sessions.end_sessions(user_id) == 0
