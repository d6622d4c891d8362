"""Signed-in sessions remembered by each server process, never trusted past a revocation.

Looking a session up (its row, the user, the profile) cost a database query, a cookie signature
check and two date parses on every signed-in request: most of `/api/auth/me`'s time. A process
now keeps each session cookie it has checked with the account it belongs to, but before
answering any signed-in request it reads the accounts' revision (one row that triggers bump,
in the same transaction, whenever a session ends or changes, or a user or profile changes or
goes: migration 0038). If the number moved since the cache was filled, the whole cache is
dropped. That read is shared by the requests waiting at the same moment (`Coalesced`: it always
starts after the request arrived), so a logout, a password change or an admin's demotion
committed through *any* process is seen by the very next request to every process, on SQLite
and on PostgreSQL alike.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable

from tortoise import connections

from agency.core.web.coalesce import Coalesced
from agency.modules.auth.schemas import Account

MAX_ENTRIES = 10_000
REVISION_TABLE = "auth_revision"
Loader = Callable[[], Awaitable[tuple[Account, float] | None]]


class SessionCache:
    """Session cookie → (account, session's end as a Unix time), valid for one revision."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._entries: dict[str, tuple[Account, float]] = {}
        self._revision: int | None = None
        self._generation = 0  # bumped whenever the entries are dropped
        self._started = 0  # revision reads started
        self._applied = 0  # the newest revision read applied to the entries
        self._read = Coalesced(self._read_revision)

    async def account(self, cookie: str, load: Loader) -> Account | None:
        """The account of this session cookie: from memory while the revision stands, else
        `load()` (the signature check and the query), remembered if the session is live."""
        read, revision = await self._read()
        if revision is None:  # no revision row: nothing can be trusted, ask every time
            self.clear()
            found = await load()
            return None if found is None else found[0]
        if read > self._applied:
            # Reads end in the order they start; a later one may have been applied already.
            self._applied = read
            if revision != self._revision:
                self.clear()
                self._revision = revision
        hit = self._entries.get(cookie)
        if hit is not None:
            if hit[1] > time.time():
                return hit[0]
            del self._entries[cookie]
        generation = self._generation
        found = await load()
        if found is None:
            return None
        # Only if nothing was dropped meanwhile: the query then started after the revision read
        # that the entries are valid for, so any later revocation moves the revision past it.
        if generation == self._generation:
            if len(self._entries) >= self.max_entries:
                del self._entries[next(iter(self._entries))]  # the oldest
            self._entries[cookie] = found
        return found[0]

    def clear(self) -> None:
        self._entries.clear()
        self._generation += 1

    def __len__(self) -> int:
        return len(self._entries)

    async def _read_revision(self) -> tuple[int, int | None]:
        self._started += 1
        read = self._started
        client = connections.get("default")
        rows = await client.execute_query_dict(f"SELECT n FROM {REVISION_TABLE} WHERE id = 1")
        if rows:
            return read, int(rows[0]["n"])
        # Emptied by hand (or a test's TRUNCATE): put a row back, at a number no process can
        # have seen, and trust nothing until it is read back.
        await client.execute_query(
            f"INSERT INTO {REVISION_TABLE} (id, n) VALUES (1, {secrets.randbits(62)}) "
            "ON CONFLICT (id) DO NOTHING"
        )
        return read, None
