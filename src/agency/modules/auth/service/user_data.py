"""What a user may ask of their whole account: "export my data" and "delete my account" (the
account itself plus what every other module holds about them, through `agency.core.userdata`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tortoise.transactions import in_transaction

from agency.core import userdata
from agency.core.errors import Unauthorized, ValidationFailed
from agency.modules.auth.models import Profile, Session, User
from agency.modules.auth.service import accounts, profile
from agency.modules.auth.service.validation import MSG_FILL_ALL


async def export_data(user_id: int) -> dict[str, Any]:
    """Everything we hold about the user, as JSON-ready data."""
    account = await accounts.get_account(user_id)
    if account is None:
        raise Unauthorized(accounts.MSG_NOT_SIGNED_IN)
    sessions = await Session.filter(user_id=user_id).order_by("-created_at")
    return {
        "exported_at": datetime.now(UTC).isoformat(),
        "account": {
            "id": account.id,
            "email": account.email,
            "role": account.role,
            "created_at": account.created_at.isoformat(),
        },
        "profile": {
            "first_name": account.first_name,
            "last_name": account.last_name,
            "avatar_url": account.avatar_url,
        },
        "sessions": [
            {
                "created_at": s.created_at.isoformat(),
                "expires_at": s.expires_at.isoformat(),
                "remember": s.remember,
                "user_agent": s.user_agent,
                "ip": s.ip,
            }
            for s in sessions
        ],
        **await userdata.export_all(user_id),
    }


async def delete_account(user_id: int, *, current_password: str) -> None:
    """Delete the account after checking the password; other modules erase or anonymise
    what they hold about the user first."""
    if not current_password:
        raise ValidationFailed(MSG_FILL_ALL)
    user = await profile.user_with_password(user_id, current_password)
    await userdata.erase_all(user.id)
    async with in_transaction():
        await Profile.filter(id=user.id).delete()
        await User.filter(id=user.id).delete()  # sessions and resets cascade
