"""Tortoise's SQLite backend with write transactions that take the write lock up front.

A Tortoise engine module (the `engine` of a connection's config names it; Tortoise imports it and
uses its `client_class`). Tortoise 1.x begins every transaction with a plain (deferred) `BEGIN`
and exposes no setting for it. A deferred transaction that reads first and then writes (as
`Model.update_or_create` and `get_or_create` do) holds a read snapshot; when another process has
written meanwhile, SQLite cannot upgrade it to a write lock and answers SQLITE_BUSY at once,
without waiting for busy_timeout: "database is locked" under concurrent use by two processes.
`BEGIN IMMEDIATE` takes the write lock when the transaction starts, waiting
up to busy_timeout for another writer to finish. Readers are never blocked (WAL journal).

Everything else is Tortoise's `SqliteClient`; autocommit statements outside a transaction are
unchanged (each takes its lock for one statement, with busy_timeout).

One more difference: the number of rows a statement changed (what `.update()` and `.delete()`
return) is the statement's own, as on PostgreSQL. Tortoise reads the connection's
`total_changes`, which also counts what triggers changed, so a table with a trigger (the
accounts' revision, migration 0038) reported an UPDATE of one row as two.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from tortoise.backends.base.client import (
    NestedTransactionContext,
    TransactionalDBClient,
    TransactionContext,
)
from tortoise.backends.sqlite.client import (
    SqliteClient,
    SqliteTransactionContext,
    SqliteTransactionWrapper,
    translate_exceptions,
)
from tortoise.connection import get_connections
from tortoise.exceptions import OperationalError


class StatementCounts(SqliteClient):
    """`execute_query` counting the rows the statement itself changed (the cursor's rowcount,
    SQLite's `changes()`), not those its triggers changed too."""

    @translate_exceptions
    async def execute_query(
        self, query: str, values: list[Any] | None = None
    ) -> tuple[int, Sequence[dict[str, Any]]]:
        query = query.replace("\x00", "'||CHAR(0)||'")
        async with self.acquire_connection() as connection:
            self.log.debug("%s: %s", query, values)
            cursor = await connection.execute(query, values)
            try:
                rows = await cursor.fetchall()
                changed = cursor.rowcount
            finally:
                await cursor.close()
            # rowcount is -1 for a statement that changes nothing (a SELECT).
            return (changed if changed > 0 else 0) or len(rows), rows


class ImmediateTransactionWrapper(StatementCounts, SqliteTransactionWrapper):
    """A transaction that begins with `BEGIN IMMEDIATE`."""

    def _in_transaction(self) -> TransactionContext:
        # A nested transaction (a savepoint) counts rows the same way.
        return NestedTransactionContext(ImmediateTransactionWrapper(self))

    async def begin(self) -> None:
        await self._connection.commit()  # as Tortoise does: end any implicit transaction
        try:
            await self._connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            # "database is locked" after busy_timeout: the same error as any other statement.
            raise OperationalError(exc) from exc


class ImmediateTransactionContext(SqliteTransactionContext):
    """Tortoise's context, except that a failed BEGIN gives the connection back (Tortoise's own
    keeps its lock held forever when BEGIN fails, and every later query of the process hangs)."""

    async def __aenter__(self) -> TransactionalDBClient:
        await self._trxlock.acquire()
        try:
            await self.ensure_connection()
            self.token = get_connections().set(self.connection_name, self.connection)
            try:
                await self.connection.begin()
            except BaseException:
                get_connections().reset(self.token)
                raise
        except BaseException:
            self._trxlock.release()
            raise
        return self.connection  # type: ignore[no-any-return]


class ImmediateSqliteClient(StatementCounts):
    def _in_transaction(self) -> TransactionContext:
        return ImmediateTransactionContext(ImmediateTransactionWrapper(self), self._lock)


client_class: type[Any] = ImmediateSqliteClient
