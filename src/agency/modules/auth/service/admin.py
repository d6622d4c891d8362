"""What an admin does to accounts from the command line (`agency users ...`): create one, list
them, grant or take admin rights, sign a user out everywhere."""

from __future__ import annotations

from datetime import UTC, datetime

from agency.core.errors import ValidationFailed
from agency.modules.auth.models import ROLE_ADMIN, ROLE_USER, Session, User
from agency.modules.auth.schemas import Account
from agency.modules.auth.service import accounts, sessions
from agency.modules.auth.service.validation import normalise_email

MSG_NO_USER = "No user with the e-mail {email}."


async def create_account(
    email: str, password: str, *, admin: bool, first_name: str = "", last_name: str = ""
) -> Account:
    """A user (or, with `admin`, an admin) with a profile."""
    role = ROLE_ADMIN if admin else ROLE_USER
    return await accounts.create_user(email, password, first_name, last_name, role=role)


async def list_accounts() -> list[tuple[Account, int]]:
    """Every account with its number of live sessions, newest first."""
    users = await User.all().order_by("-created_at")
    now = datetime.now(UTC)
    result = []
    for user in users:
        live = await Session.filter(user_id=user.id, expires_at__gt=now).count()
        result.append((await accounts.account_of(user), live))
    return result


async def set_role(email: str, role: str) -> Account:
    """Grant (`admin`) or take (`user`) admin rights."""
    if role not in (ROLE_USER, ROLE_ADMIN):
        raise ValidationFailed(f"Unknown role {role!r}: use 'user' or 'admin'.")
    updated = await User.filter(email=normalise_email(email)).update(role=role)
    account = await accounts.get_account_by_email(email)
    if not updated or account is None:
        raise ValidationFailed(MSG_NO_USER.format(email=email))
    return account


async def revoke_sessions(email: str) -> int:
    """Sign a user out everywhere; returns how many sessions ended."""
    account = await accounts.get_account_by_email(email)
    if account is None:
        raise ValidationFailed(MSG_NO_USER.format(email=email))
    return await sessions.end_sessions(account.id)
