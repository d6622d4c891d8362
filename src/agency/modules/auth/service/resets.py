"""A forgotten password: the reset e-mail (sent by a background job) and the reset itself."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from agency.core import jobs, mail, ratelimit
from agency.core.errors import TooManyRequests, ValidationFailed
from agency.core.ratelimit import Limit
from agency.modules.auth.models import PasswordReset, User
from agency.modules.auth.service import accounts, passwords, sessions
from agency.modules.auth.service.validation import (
    MSG_FILL_ALL,
    check_new_password,
    normalise_email,
)

MSG_RESET_INVALID = "This reset link is invalid or has expired. Please request a new one."
MSG_RESET_SENT = "If an account exists for that email, we have sent a link to reset its password."
MSG_RESET_DONE = "Your password has been reset. You can now log in."

RESET_VALID = timedelta(hours=1)
RESET_JOB = "auth.password_reset"
FORGOT_PER_ADDRESS = Limit("forgot-ip", limit=5, window=15 * 60, per_address=True)
RESET_PER_ADDRESS = Limit("reset-ip", limit=20, window=15 * 60, per_address=True)
# Reset e-mails one account receives, whoever asks (counted in the job: the answer never changes).
RESET_MAILS_PER_ACCOUNT = Limit("reset-mail", limit=3, window=60 * 60)


async def request_password_reset(*, email: str, client_ip: str, public_url: str) -> str:
    """Queue the reset e-mail. The answer and its timing are the same whether the e-mail has an
    account or not: the lookup happens in a background job."""
    if not email.strip():
        raise ValidationFailed(MSG_FILL_ALL)
    await ratelimit.enforce(FORGOT_PER_ADDRESS, client_ip)
    payload = {"email": normalise_email(email), "public_url": public_url}
    await jobs.enqueue(RESET_JOB, payload, max_attempts=3)
    return MSG_RESET_SENT


async def send_reset_link(payload: dict[str, Any]) -> None:
    """Job: e-mail a reset link, if the e-mail has an account (nothing happens otherwise) and
    it has not been sent `RESET_MAILS_PER_ACCOUNT` links within the hour."""
    user = await User.get_or_none(email=payload["email"])
    if user is None:
        return
    try:
        await ratelimit.enforce(RESET_MAILS_PER_ACCOUNT, normalise_email(user.email))
    except TooManyRequests:
        return
    token = await issue_reset_token(user.id)
    account = await accounts.account_of(user)
    await mail.send_mail(
        user.email,
        "password_reset",
        {
            "first_name": account.first_name or "there",
            "reset_url": f"{payload['public_url']}/reset-password?token={token}",
            "valid_minutes": int(RESET_VALID.total_seconds() // 60),
        },
    )


async def issue_reset_token(user_id: int) -> str:
    token = secrets.token_urlsafe(32)
    await PasswordReset.create(
        user_id=user_id,
        token_hash=sessions.token_hash(token),
        expires_at=datetime.now(UTC) + RESET_VALID,
    )
    return token


async def void_reset_links(user_id: int) -> None:
    """Mark every unused reset link of the user as used: a new password voids the old links."""
    await PasswordReset.filter(user_id=user_id, used_at=None).update(used_at=datetime.now(UTC))


async def reset_password(
    *, token: str, password: str, confirm_password: str | None, client_ip: str
) -> None:
    """Consume a reset token (once: one conditional UPDATE wins) and set the password.
    The user's other reset links are voided and every session of the user ends."""
    if not token or not password:
        raise ValidationFailed(MSG_FILL_ALL)
    check_new_password(password, confirm_password)
    await ratelimit.enforce(RESET_PER_ADDRESS, client_ip)
    now = datetime.now(UTC)
    reset = await PasswordReset.get_or_none(
        token_hash=sessions.token_hash(token), used_at=None, expires_at__gt=now
    )
    if reset is None:
        raise ValidationFailed(MSG_RESET_INVALID, code="invalid_token")
    consumed = await PasswordReset.filter(id=reset.id, used_at=None).update(used_at=now)
    if not consumed:
        raise ValidationFailed(MSG_RESET_INVALID, code="invalid_token")
    user_id = int(reset.user_id)  # type: ignore[attr-defined]
    await User.filter(id=user_id).update(password_hash=await passwords.hash_password(password))
    await void_reset_links(user_id)
    await sessions.end_sessions(user_id)
    await accounts.clear_failed_log_ins(user_id)
