"""What a signed-in user changes about their account: name and avatar, password, e-mail."""

from __future__ import annotations

from urllib.parse import urlsplit

from tortoise.exceptions import IntegrityError

from agency.core.errors import Conflict, Unauthorized, ValidationFailed
from agency.modules.auth.models import Profile, User
from agency.modules.auth.schemas import BIO_MAX, Account
from agency.modules.auth.service import accounts, passwords, resets, sessions
from agency.modules.auth.service.validation import (
    MSG_EMAIL_INVALID,
    MSG_FILL_ALL,
    check_new_password,
    normalise_email,
    valid_email,
)

MSG_BIO_LONG = f"Your bio may have at most {BIO_MAX} characters."
MSG_AVATAR_URL = "The avatar must be an http:// or https:// image address."
MSG_BAD_CURRENT_PASSWORD = "Your current password is incorrect."
MSG_PASSWORD_CHANGED = "Your password has been changed."


async def update_profile(
    user_id: int,
    *,
    first_name: str,
    last_name: str,
    avatar_url: str | None,
    bio: str | None = None,
) -> Account:
    """Names and avatar; `bio` too unless it is None (then it stays as it is)."""
    if not first_name.strip() or not last_name.strip():
        raise ValidationFailed(MSG_FILL_ALL)
    avatar = _check_avatar_url(avatar_url)
    defaults: dict[str, object] = {
        "first_name": first_name.strip()[:100],
        "last_name": last_name.strip()[:100],
        "avatar_url": avatar,
    }
    if bio is not None:
        defaults["bio"] = clean_bio(bio)
    await Profile.update_or_create(defaults=defaults, id=user_id)
    account = await accounts.get_account(user_id)
    if account is None:
        raise Unauthorized(accounts.MSG_NOT_SIGNED_IN)
    return account


def clean_bio(text: str) -> str:
    """A bio as stored: runs of white space one space, trimmed; at most `BIO_MAX` characters
    (ValidationFailed with `MSG_BIO_LONG` beyond)."""
    bio = " ".join(text.split())
    if len(bio) > BIO_MAX:
        raise ValidationFailed(MSG_BIO_LONG, fields={"bio": MSG_BIO_LONG})
    return bio


def _check_avatar_url(url: str | None) -> str | None:
    if url is None or not url.strip():
        return None
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValidationFailed(MSG_AVATAR_URL, fields={"avatar_url": MSG_AVATAR_URL})
    return url


async def user_with_password(user_id: int, password: str) -> User:
    """The signed-in user, once their current password is checked (before a sensitive change)."""
    user = await User.get_or_none(id=user_id)
    if user is None:
        raise Unauthorized(accounts.MSG_NOT_SIGNED_IN)
    if not password or not await accounts.check_password(user.email, user.password_hash, password):
        raise ValidationFailed(
            MSG_BAD_CURRENT_PASSWORD, fields={"current_password": MSG_BAD_CURRENT_PASSWORD}
        )
    return user


async def change_password(
    user_id: int,
    *,
    current_password: str,
    new_password: str,
    confirm_password: str | None,
    keep_token: str | None,
) -> None:
    """Set a new password; the user's unused reset links are voided and every other session
    of the user ends."""
    if not current_password or not new_password:
        raise ValidationFailed(MSG_FILL_ALL)
    check_new_password(new_password, confirm_password, field="new_password")
    user = await user_with_password(user_id, current_password)
    new_hash = await passwords.hash_password(new_password)
    await User.filter(id=user.id).update(password_hash=new_hash)
    await resets.void_reset_links(user.id)
    await sessions.end_sessions(user.id, keep_token=keep_token)


async def change_email(user_id: int, *, new_email: str, current_password: str) -> Account:
    if not new_email.strip() or not current_password:
        raise ValidationFailed(MSG_FILL_ALL)
    email = normalise_email(new_email)
    if not valid_email(email):
        raise ValidationFailed(MSG_EMAIL_INVALID, fields={"new_email": MSG_EMAIL_INVALID})
    user = await user_with_password(user_id, current_password)
    if email != user.email:
        try:
            await User.filter(id=user.id).update(email=email)
        except IntegrityError as exc:
            raise Conflict(
                accounts.MSG_EMAIL_TAKEN, fields={"new_email": accounts.MSG_EMAIL_TAKEN}
            ) from exc
    account = await accounts.get_account(user.id)
    assert account is not None
    return account
