"""Per-process caches of per-user reads, never trusted past a write made by any process.

A module whose signed-in read costs ORM queries on every request keeps each user's answer in
memory, but only while the revisions that answer is drawn from stand. A revision is a row of
the `revision` table (name, n) whose number database triggers move in the same transaction as
any write to the tables it covers (migration 0039: each module names its own tables), so no
writer (another module's cascade, the CLI, a webhook, a hand-made SQL fix) can forget it.

Before answering, a cache reads every revision row in one query, shared by all the caches of
the process and by the requests waiting at that moment (`Coalesced`: a read that always starts
after the request arrived). If a number it depends on moved since it was filled, the whole
cache is dropped: a write committed through any process is seen by the very next request to
every process, on SQLite and PostgreSQL alike (as the accounts' `auth_revision`, 0038).

Each app holds its own caches (`app.extensions`): a test's new app on a copied database never
trusts what another app cached. The caching is the routes' (a web concern): services stay free
of Quart and name only the revisions their answers depend on.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from quart import current_app, has_app_context
from tortoise import connections

from agency.core.web.coalesce import Coalesced

V = TypeVar("V")

TABLE = "revision"
MAX_ENTRIES = 10_000
EXTENSION_KEY = "agency.revisions"
_NAME = re.compile(r"^[a-z][a-z0-9_.]{0,62}$")


class Revisions:
    """Every revision of the database, read together: (the read's order, name → number)."""

    def __init__(self, connection: str = "default") -> None:
        self.connection = connection
        self._started = 0
        self._read = Coalesced(self._read_all)

    async def read(self) -> tuple[int, dict[str, int]]:
        return await self._read()

    async def _read_all(self) -> tuple[int, dict[str, int]]:
        self._started += 1
        read = self._started
        client = connections.get(self.connection)
        rows = await client.execute_query_dict(f"SELECT name, n FROM {TABLE}")
        return read, {str(row["name"]): int(row["n"]) for row in rows}

    async def restore(self, names: list[str]) -> None:
        """Put missing rows back (emptied by hand, or a test's TRUNCATE) at a number no process
        can have seen; nothing depending on them is trusted until they are read back."""
        client = connections.get(self.connection)
        for name in names:
            await client.execute_query(
                f"INSERT INTO {TABLE} (name, n) VALUES ('{check_name(name)}', "
                f"{secrets.randbits(62)}) ON CONFLICT (name) DO NOTHING"
            )


def check_name(name: str) -> str:
    """Revision names are code constants; checked, as they are written into SQL."""
    if not _NAME.match(name):
        raise ValueError(f"not a revision name: {name!r}")
    return name


class RevisionCache(Generic[V]):
    """key → answer, valid while the revisions `depends_on` stand; at most `max_entries`."""

    def __init__(
        self, revisions: Revisions, depends_on: tuple[str, ...], max_entries: int = MAX_ENTRIES
    ) -> None:
        if not depends_on:
            raise ValueError("a revision cache depends on at least one revision")
        self.revisions = revisions
        self.depends_on = tuple(check_name(name) for name in depends_on)
        self.max_entries = max_entries
        self._entries: dict[Hashable, V] = {}
        self._revision: tuple[int, ...] | None = None
        self._generation = 0  # bumped whenever the entries are dropped
        self._applied = 0  # the newest revision read applied to the entries

    async def get(self, key: Hashable, load: Callable[[], Awaitable[V]]) -> V:
        read, numbers = await self.revisions.read()
        missing = [name for name in self.depends_on if name not in numbers]
        if missing:  # nothing can be trusted: ask every time until the rows are back
            self.clear()
            await self.revisions.restore(missing)
            return await load()
        if read > self._applied:
            # Reads end in the order they start; a later one may have been applied already.
            self._applied = read
            current = tuple(numbers[name] for name in self.depends_on)
            if current != self._revision:
                self.clear()
                self._revision = current
        if key in self._entries:
            return self._entries[key]
        generation = self._generation
        value = await load()
        # Only if nothing was dropped meanwhile: the load then started after the revision read
        # the entries are valid for, so any later write moves a revision past it.
        if generation == self._generation:
            if len(self._entries) >= self.max_entries:
                del self._entries[next(iter(self._entries))]  # the oldest
            self._entries[key] = value
        return value

    def clear(self) -> None:
        self._entries.clear()
        self._generation += 1

    def __len__(self) -> int:
        return len(self._entries)


class _AppCaches:
    def __init__(self) -> None:
        self.revisions = Revisions()
        self.caches: dict[str, RevisionCache[object]] = {}


class Cached(Generic[V]):
    """A cache a module declares once; each app holds its own entries and all of an app's
    caches share one revision read. Outside an app (the CLI, jobs), `get` just loads."""

    def __init__(
        self, name: str, depends_on: tuple[str, ...], max_entries: int = MAX_ENTRIES
    ) -> None:
        self.name = name
        self.depends_on = tuple(check_name(n) for n in depends_on)
        self.max_entries = max_entries

    def cache(self) -> RevisionCache[V] | None:
        if not has_app_context():
            return None
        shared = current_app.extensions.get(EXTENSION_KEY)
        if not isinstance(shared, _AppCaches):
            shared = current_app.extensions[EXTENSION_KEY] = _AppCaches()
        cache = shared.caches.get(self.name)
        if cache is None:
            cache = shared.caches[self.name] = RevisionCache(
                shared.revisions, self.depends_on, self.max_entries
            )
        return cache  # type: ignore[return-value]

    async def get(self, key: Hashable, load: Callable[[], Awaitable[V]]) -> V:
        cache = self.cache()
        if cache is None:
            return await load()
        return await cache.get(key, load)
