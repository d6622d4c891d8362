"""Retention of what auth keeps only for a while (core runs it hourly and in `agency db prune`):
expired sessions, and reset links that were used or have expired."""

from __future__ import annotations

from datetime import datetime, timedelta

from tortoise.expressions import Q

from agency.modules.auth.models import PasswordReset, Session
from agency.modules.auth.service import sessions as auth_sessions
from agency.modules.auth.settings import AuthSettings


async def prune(settings: AuthSettings, now: datetime) -> dict[str, int]:
    """Delete sessions expired `retention_sessions_days` ago and reset links used or expired
    `retention_password_resets_days` ago; returns how many of each."""
    session_cutoff = now - timedelta(days=settings.retention_sessions_days)
    reset_cutoff = now - timedelta(days=settings.retention_password_resets_days)
    sessions = await auth_sessions.delete_sessions(Session.filter(expires_at__lt=session_cutoff))
    resets = await PasswordReset.filter(
        Q(used_at__lt=reset_cutoff) | Q(expires_at__lt=reset_cutoff)
    ).delete()
    return {"auth.sessions": sessions, "auth.password_resets": resets}
