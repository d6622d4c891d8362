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
"""

from __future__ import annotations

import sqlite3
from typing import Any

from tortoise.backends.base.client import TransactionalDBClient, TransactionContext
from tortoise.backends.sqlite.client import (
    SqliteClient,
    SqliteTransactionContext,
    SqliteTransactionWrapper,
)
from tortoise.connection import get_connections
from tortoise.exceptions import OperationalError


class ImmediateTransactionWrapper(SqliteTransactionWrapper):
    """A transaction that begins with `BEGIN IMMEDIATE`."""

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


class ImmediateSqliteClient(SqliteClient):
    def _in_transaction(self) -> TransactionContext:
        return ImmediateTransactionContext(ImmediateTransactionWrapper(self), self._lock)


client_class: type[Any] = ImmediateSqliteClient
