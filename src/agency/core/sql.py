"""Hand-written SQL's one dialect difference here: how a statement names its parameters."""

from __future__ import annotations

from tortoise import connections


def placeholders(count: int, connection_name: str = "default") -> list[str]:
    """Numbered parameters ($1 on PostgreSQL, ?1 on SQLite), each usable several times."""
    dialect = connections.get(connection_name).capabilities.dialect
    mark = "$" if dialect == "postgres" else "?"
    return [f"{mark}{i}" for i in range(1, count + 1)]
