"""The accounts' revision: one row whose number changes, in the same transaction, whenever a
session ends or changes, or a user or profile changes or goes. Every server process reads it
(coalesced) before answering a signed-in request and drops its cache of sessions when it
moved, so a cached session is never trusted past a logout, a password change or a role change
made by another process (`agency.modules.auth.service.session_cache`). Triggers rather than
application code, so that nothing that writes these tables (another module's cascade, the CLI,
a hand-made SQL fix) can forget it."""

from typing import Any

from tortoise import migrations
from tortoise.migrations import operations as ops

TABLES = {
    # Signing in (an INSERT) invalidates nothing: a new token is not in any cache.
    "auth_session": ("DELETE", "UPDATE"),
    "auth_user": ("DELETE", "UPDATE"),
    "auth_profile": ("INSERT", "UPDATE", "DELETE"),
}
BUMP = "UPDATE auth_revision SET n = n + 1 WHERE id = 1"


def _sqlite() -> list[str]:
    return [
        f"CREATE TRIGGER {table}_{event.lower()}_revision AFTER {event} ON {table} "
        f"BEGIN {BUMP}; END"
        for table, events in TABLES.items()
        for event in events
    ]


def _postgres() -> list[str]:
    # Once per statement (a retention run deleting thousands of sessions bumps it once);
    # TRUNCATE too, which fires no DELETE trigger.
    statements = [
        "CREATE FUNCTION auth_revision_bump() RETURNS trigger LANGUAGE plpgsql AS "
        f"$$ BEGIN {BUMP}; RETURN NULL; END $$"
    ]
    statements += [
        f"CREATE TRIGGER {table}_revision AFTER {' OR '.join(events)} OR TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION auth_revision_bump()"
        for table, events in TABLES.items()
    ]
    return statements


async def forward(_apps: Any, schema_editor: Any) -> None:
    client = schema_editor.client
    postgres = client.capabilities.dialect == "postgres"
    await client.execute_query(
        "CREATE TABLE auth_revision (id INT PRIMARY KEY NOT NULL, n BIGINT NOT NULL)"
    )
    await client.execute_query("INSERT INTO auth_revision (id, n) VALUES (1, 0)")
    for statement in _postgres() if postgres else _sqlite():
        await client.execute_query(statement)


async def backward(_apps: Any, schema_editor: Any) -> None:
    client = schema_editor.client
    if client.capabilities.dialect == "postgres":
        for table in TABLES:
            await client.execute_query(f"DROP TRIGGER IF EXISTS {table}_revision ON {table}")
        await client.execute_query("DROP FUNCTION IF EXISTS auth_revision_bump()")
    else:
        for table, events in TABLES.items():
            for event in events:
                await client.execute_query(
                    f"DROP TRIGGER IF EXISTS {table}_{event.lower()}_revision"
                )
    await client.execute_query("DROP TABLE IF EXISTS auth_revision")


class Migration(migrations.Migration):
    dependencies = [("models", "0037_operations")]

    initial = False

    operations: list[ops.Operation] = [ops.RunPython(forward, backward)]
