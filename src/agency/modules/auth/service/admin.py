"""What an admin does to accounts from the command line (`agency users ...`): create one, list
them, grant or take admin rights, sign a user out everywhere."""

from __future__ import annotations

from datetime import UTC, datetime

from tortoise.transactions import in_transaction

from agency.core.errors import ValidationFailed
from agency.modules.audit import api as audit_api
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


async def set_role(email: str, role: str, actor: audit_api.Actor | None = None) -> Account:
    """Grant (`admin`) or take (`user`) admin rights; a change is written to the audit log in
    the same transaction (by `actor`, the command line unless given)."""
    if role not in (ROLE_USER, ROLE_ADMIN):
        raise ValidationFailed(f"Unknown role {role!r}: use 'user' or 'admin'.")
    async with in_transaction():
        user = await User.get_or_none(email=normalise_email(email))
        if user is None:
            raise ValidationFailed(MSG_NO_USER.format(email=email))
        if user.role != role:
            await User.filter(id=user.id).update(role=role)
            await audit_api.record(
                actor or audit_api.Actor.cli(),
                "user.role_changed",
                target_type="user",
                target_id=user.id,
                target_label=user.email,
                before={"role": user.role},
                after={"role": role},
            )
    account = await accounts.get_account_by_email(email)
    if account is None:
        raise ValidationFailed(MSG_NO_USER.format(email=email))
    return account


async def revoke_sessions(email: str) -> int:
    """Sign a user out everywhere; returns how many sessions ended."""
    account = await accounts.get_account_by_email(email)
    if account is None:
        raise ValidationFailed(MSG_NO_USER.format(email=email))
    return await sessions.end_sessions(account.id)
