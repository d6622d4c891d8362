"""The accounts' figures for the owner's overview."""

from __future__ import annotations

from datetime import datetime

from agency.modules.auth.models import ROLE_USER, User


async def signups(start: datetime, end: datetime) -> int:
    """Accounts created in [start, end) that are customers' (role `user`; admins' accounts are
    not sign-ups). One query."""
    return await User.filter(created_at__gte=start, created_at__lt=end, role=ROLE_USER).count()


# Above this many addresses one read of every account's (id, e-mail) beats a query with that
# many parameters (SQLite and asyncpg also cap a statement's parameters).
MANY_EMAILS = 500


async def user_ids_by_email(emails: set[str]) -> dict[str, int]:
    """The accounts of these e-mail addresses (as stored: trimmed, lower-case), by address;
    addresses without one are left out. One query."""
    wanted = {email.strip().lower() for email in emails if email}
    if not wanted:
        return {}
    if len(wanted) > MANY_EMAILS:
        rows = await User.all().values_list("email", "id")
    else:
        rows = await User.filter(email__in=sorted(wanted)).values_list("email", "id")
    return {str(email): int(user_id) for email, user_id in rows if email in wanted}
