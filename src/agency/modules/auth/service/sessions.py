"""Sessions: a random token in the browser's cookie, only its hash in the database, so a
logout, a password change or a reset really ends a session on every server process."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from tortoise import connections
from tortoise.queryset import QuerySet

from agency.core.sql import placeholders
from agency.modules.auth.models import Profile, Session, User
from agency.modules.auth.schemas import Account

SESSION_DAYS = 1
REMEMBER_DAYS = 30


def token_hash(token: str) -> str:
    """What is stored of a session or reset token."""
    return hashlib.sha256(token.encode()).hexdigest()


async def start_session(user_id: int, *, remember: bool, user_agent: str, ip: str) -> str:
    """A new session; returns the raw token for the cookie (only its hash is stored)."""
    token = secrets.token_urlsafe(32)
    lifetime = timedelta(days=REMEMBER_DAYS if remember else SESSION_DAYS)
    await Session.create(
        id=token_hash(token),
        user_id=user_id,
        remember=remember,
        expires_at=datetime.now(UTC) + lifetime,
        user_agent=user_agent[:255],
        ip=ip[:64],
    )
    return token


def _session_account_sql() -> str:
    (token,) = placeholders(1)
    return (
        "SELECT s.expires_at, u.id, u.email, u.role, u.created_at, "
        "p.first_name, p.last_name, p.avatar_url, p.bio "
        f"FROM {Session._meta.db_table} s "
        f"JOIN {User._meta.db_table} u ON u.id = s.user_id "
        f"LEFT JOIN {Profile._meta.db_table} p ON p.id = u.id "
        f"WHERE s.id = {token}"
    )


async def session_account(token: str) -> Account | None:
    """The account a live session token belongs to, or None, in one query: every signed-in
    request asks this (the session, the user and the profile were three round trips)."""
    found = await session_entry(token)
    return None if found is None else found[0]


async def session_entry(token: str) -> tuple[Account, float] | None:
    """A live session's account and the moment it ends (a Unix time), or None."""
    if not token or len(token) > 200:
        return None
    rows = await connections.get("default").execute_query_dict(
        _session_account_sql(), [token_hash(token)]
    )
    if not rows:
        return None
    row = rows[0]
    # The ORM's own conversion: SQLite hands back stored text, PostgreSQL a datetime.
    expires_at = Session._meta.fields_map["expires_at"].to_python_value(row["expires_at"])
    if expires_at <= datetime.now(UTC):
        return None
    account = Account(
        id=int(row["id"]),
        email=row["email"],
        role=row["role"],
        first_name=row["first_name"] or "",
        last_name=row["last_name"] or "",
        avatar_url=row["avatar_url"],
        created_at=User._meta.fields_map["created_at"].to_python_value(row["created_at"]),
        bio=row["bio"] or "",
    )
    return account, expires_at.timestamp()


async def end_session(token: str) -> None:
    await Session.filter(id=token_hash(token)).delete()


async def end_sessions(user_id: int, *, keep_token: str | None = None) -> int:
    """End every session of a user (but the one in use, when given); returns how many."""
    query = Session.filter(user_id=user_id)
    if keep_token:
        query = query.exclude(id=token_hash(keep_token))
    return await delete_sessions(query)


async def delete_sessions(query: QuerySet[Session]) -> int:
    """Delete the sessions `query` selects; returns how many (the statement's own rows: the
    SQLite client leaves out the revision trigger's, `agency.core.sqlite_client`)."""
    return int(await query.delete())
