"""Sessions: a random token in the browser's cookie, only its hash in the database, so a
logout, a password change or a reset really ends a session on every server process."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from agency.modules.auth.models import Session

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


async def session_user_id(token: str) -> int | None:
    """The user a live session token belongs to, or None (unknown, ended or expired)."""
    if not token or len(token) > 200:
        return None
    session = await Session.get_or_none(id=token_hash(token), expires_at__gt=datetime.now(UTC))
    return int(session.user_id) if session else None  # type: ignore[attr-defined]


async def end_session(token: str) -> None:
    await Session.filter(id=token_hash(token)).delete()


async def end_sessions(user_id: int, *, keep_token: str | None = None) -> int:
    """End every session of a user (but the one in use, when given); returns how many."""
    query = Session.filter(user_id=user_id)
    if keep_token:
        query = query.exclude(id=token_hash(keep_token))
    return int(await query.delete())
