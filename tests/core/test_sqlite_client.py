"""SQLite as the program opens it: WAL, busy_timeout, write transactions that lock up front."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from tortoise import Tortoise, connections
from tortoise.exceptions import OperationalError
from tortoise.transactions import in_transaction

from agency.core import db
from tests.conftest import MODEL_MODULES


async def _open(path: Path) -> None:
    await db.init_db(f"sqlite://{path}", MODEL_MODULES)
    await Tortoise.generate_schemas(safe=True)


async def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    await _open(tmp_path / "a.db")
    try:
        conn = connections.get("default")
        assert (await conn.execute_query_dict("PRAGMA journal_mode"))[0]["journal_mode"] == "wal"
        timeout = await conn.execute_query_dict("PRAGMA busy_timeout")
        assert list(timeout[0].values()) == [db.SQLITE_BUSY_TIMEOUT_MS]
        synchronous = await conn.execute_query_dict("PRAGMA synchronous")
        assert list(synchronous[0].values()) == [1]  # NORMAL: no fsync per commit in WAL
    finally:
        await db.close_db()


async def test_a_url_option_chooses_another_synchronous_mode(tmp_path: Path) -> None:
    await db.init_db(f"sqlite://{tmp_path / 'full.db'}?synchronous=FULL", MODEL_MODULES)
    try:
        synchronous = await connections.get("default").execute_query_dict("PRAGMA synchronous")
        assert list(synchronous[0].values()) == [2]
    finally:
        await db.close_db()


async def test_a_transaction_holds_the_write_lock_from_its_start(tmp_path: Path) -> None:
    """Another process cannot write while one of our transactions is open, even one that has
    only read so far: the transaction began IMMEDIATE (a deferred one would let it write and
    then fail itself at its first write)."""
    path = tmp_path / "b.db"
    await _open(path)
    try:
        async with in_transaction() as conn:
            await conn.execute_query("SELECT 1")
            other = sqlite3.connect(path, timeout=0)
            try:
                with pytest.raises(sqlite3.OperationalError, match="locked"):
                    other.execute("CREATE TABLE other_process (id INTEGER)")
            finally:
                other.close()
    finally:
        await db.close_db()


async def test_a_begin_that_times_out_gives_the_connection_back(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    await _open(path)
    try:
        await connections.get("default").execute_query("PRAGMA busy_timeout=100")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(OperationalError, match="locked"):
            async with in_transaction():
                pass
        other.execute("ROLLBACK")
        other.close()
        # The process's connection still answers (it did not stay locked by the failed BEGIN).
        rows = await asyncio.wait_for(connections.get("default").execute_query("SELECT 1"), 5)
        assert rows[0] == 1
    finally:
        await db.close_db()


async def test_a_statement_counts_its_own_rows_not_its_triggers(tmp_path: Path) -> None:
    """`.update()`/`.delete()` counts are the statement's rows, as on PostgreSQL, outside a
    transaction, inside one and in a nested one (a savepoint): a trigger's writes are not
    added (Tortoise's own client reads the connection's total changes, which include them)."""
    await _open(tmp_path / "t.db")
    try:
        conn = connections.get("default")
        await conn.execute_script(
            "CREATE TABLE item (id INTEGER PRIMARY KEY, n INTEGER);"
            "CREATE TABLE item_log (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER);"
            "CREATE TRIGGER item_logged AFTER UPDATE ON item BEGIN "
            "INSERT INTO item_log (n) VALUES (NEW.n); INSERT INTO item_log (n) VALUES (NEW.n); END;"
            "INSERT INTO item (id, n) VALUES (1, 0), (2, 0), (3, 0);"
        )
        changed, _ = await conn.execute_query("UPDATE item SET n = 1 WHERE id = 1")
        assert changed == 1
        async with in_transaction() as trx:
            changed, _ = await trx.execute_query("UPDATE item SET n = 2 WHERE id <= 2")
            assert changed == 2
            async with in_transaction() as nested:
                changed, _ = await nested.execute_query("UPDATE item SET n = 3")
                assert changed == 3
        changed, _ = await conn.execute_query("UPDATE item SET n = 4 WHERE id = 99")
        assert changed == 0
        changed, rows = await conn.execute_query("SELECT n FROM item ORDER BY id")
        assert [row["n"] for row in rows] == [3, 3, 3]
        assert changed == 3  # a SELECT counts its rows, as Tortoise's own client does
        logged = await conn.execute_query_dict("SELECT count(*) AS c FROM item_log")
        assert logged[0]["c"] == 2 * (1 + 2 + 3)
    finally:
        await db.close_db()
