"""The accounts' figures for the owner's overview."""

from __future__ import annotations

from datetime import datetime

from agency.modules.auth.models import ROLE_USER, User


async def signups(start: datetime, end: datetime) -> int:
    """Accounts created in [start, end) that are customers' (role `user`; admins' accounts are
    not sign-ups). One query."""
    return await User.filter(created_at__gte=start, created_at__lt=end, role=ROLE_USER).count()
