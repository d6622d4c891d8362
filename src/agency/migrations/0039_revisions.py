"""Revisions of the dashboard's per-user reads: rows of `revision` (name, n) whose number
changes, in the same transaction, with any write to the tables a cached answer is drawn from
(`agency.core.revisions`). Each module names its own tables; every event counts here (a new
subscription, website or notification changes a user's answer as much as an update does).
Triggers rather than application code, so that nothing that writes these tables (another
module's cascade, a webhook, the CLI, a hand-made SQL fix) can forget it."""

from typing import Any

from tortoise import migrations
from tortoise.migrations import operations as ops

# revision name → the tables whose writes move it
REVISIONS = {
    # billing: the subscription answer (`billing.service.reads.current_subscription`)
    "billing.subscriptions": ("billing_subscription",),
    # catalogue: plan keys and names other modules' answers include
    "catalogue.plans": ("catalogue_plan", "catalogue_family"),
    # sites: the list of websites, with its 'measuring' state from the latest speed check
    "sites.websites": ("sites_website", "sites_speed_check"),
    # notifications: the list and its unread count
    "notifications": ("notifications_notification",),
}
EVENTS = ("INSERT", "UPDATE", "DELETE")


def _bump(name: str) -> str:
    return f"UPDATE revision SET n = n + 1 WHERE name = '{name}'"


def _sqlite() -> list[str]:
    return [
        f"CREATE TRIGGER {table}_{event.lower()}_core_revision AFTER {event} ON {table} "
        f"BEGIN {_bump(name)}; END"
        for name, tables in REVISIONS.items()
        for table in tables
        for event in EVENTS
    ]


def _postgres() -> list[str]:
    # Once per statement; TRUNCATE too, which fires no DELETE trigger.
    statements = [
        "CREATE FUNCTION revision_bump() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN UPDATE revision SET n = n + 1 WHERE name = TG_ARGV[0]; RETURN NULL; END $$"
    ]
    statements += [
        f"CREATE TRIGGER {table}_core_revision AFTER {' OR '.join(EVENTS)} OR TRUNCATE "
        f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION revision_bump('{name}')"
        for name, tables in REVISIONS.items()
        for table in tables
    ]
    return statements


async def forward(_apps: Any, schema_editor: Any) -> None:
    client = schema_editor.client
    postgres = client.capabilities.dialect == "postgres"
    await client.execute_query(
        "CREATE TABLE revision (name VARCHAR(64) PRIMARY KEY NOT NULL, n BIGINT NOT NULL)"
    )
    for name in REVISIONS:
        await client.execute_query(f"INSERT INTO revision (name, n) VALUES ('{name}', 0)")
    for statement in _postgres() if postgres else _sqlite():
        await client.execute_query(statement)


async def backward(_apps: Any, schema_editor: Any) -> None:
    client = schema_editor.client
    if client.capabilities.dialect == "postgres":
        for tables in REVISIONS.values():
            for table in tables:
                await client.execute_query(
                    f"DROP TRIGGER IF EXISTS {table}_core_revision ON {table}"
                )
        await client.execute_query("DROP FUNCTION IF EXISTS revision_bump()")
    else:
        for tables in REVISIONS.values():
            for table in tables:
                for event in EVENTS:
                    await client.execute_query(
                        f"DROP TRIGGER IF EXISTS {table}_{event.lower()}_core_revision"
                    )
    await client.execute_query("DROP TABLE IF EXISTS revision")


class Migration(migrations.Migration):
    dependencies = [("models", "0038_auth_revision")]

    initial = False

    operations: list[ops.Operation] = [ops.RunPython(forward, backward)]
