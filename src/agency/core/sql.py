"""Hand-written SQL's one dialect difference here: how a statement names its parameters."""

from __future__ import annotations

from tortoise import connections


def placeholders(count: int, connection_name: str = "default") -> list[str]:
    """Numbered parameters ($1 on PostgreSQL, ?1 on SQLite), each usable several times."""
    dialect = connections.get(connection_name).capabilities.dialect
    mark = "$" if dialect == "postgres" else "?"
    return [f"{mark}{i}" for i in range(1, count + 1)]


# An `IntField` primary key's range: a larger number (which a URL can carry) names no row, and
# PostgreSQL would refuse to compare it with the column instead of finding nothing.
INT_ID_MAX = 2**31 - 1


def fits_int_id(value: int) -> bool:
    """Whether `value` can be the id of a row with an `IntField` primary key."""
    return 0 < value <= INT_ID_MAX
