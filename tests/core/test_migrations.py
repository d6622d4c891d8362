"""The one migration tree applies on SQLite and PostgreSQL and matches the models."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tortoise import Tortoise
from tortoise.migrations.autodetector import MigrationAutodetector

from agency.core import db
from tests.conftest import MODEL_MODULES, POSTGRES, postgres_create, postgres_drop


async def test_models_have_no_changes_missing_a_migration() -> None:
    """Fails when a model changed without `scripts/makemigrations`."""
    config = db.tortoise_config("sqlite://:memory:", MODEL_MODULES)
    await Tortoise.init(config=config)
    try:
        context = Tortoise._get_context()
        assert context is not None
        detector = MigrationAutodetector(context.apps, config["apps"])
        changes = await detector.changes()
        assert [w.name for w in changes] == [], "run scripts/makemigrations and commit the result"
    finally:
        await Tortoise.close_connections()


def test_fresh_sqlite_file_is_created_and_migrated_once(tmp_path: Path) -> None:
    url = f"sqlite://{tmp_path / 'nested' / 'dir' / 'agency.db'}"
    first = asyncio.run(db.upgrade(url, MODEL_MODULES))
    assert first and all(name.startswith("models.") for name in first)
    assert (tmp_path / "nested" / "dir" / "agency.db").is_file()
    assert asyncio.run(db.upgrade(url, MODEL_MODULES)) == []


@pytest.mark.skipif(not POSTGRES, reason="PostgreSQL is not running (CI always has it)")
def test_fresh_postgres_database_is_migrated_once() -> None:
    name = "agency_migration_check"
    url = postgres_create(name)
    try:
        assert asyncio.run(db.upgrade(url, MODEL_MODULES))
        assert asyncio.run(db.upgrade(url, MODEL_MODULES)) == []
    finally:
        postgres_drop(name)
