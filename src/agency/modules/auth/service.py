"""Account use cases: sign-up, log-in, sessions, password reset, profile, export and deletion.

Plain async functions with explicit inputs; no Quart. Messages are the spec's, word for word.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from agency.core import jobs, mail, ratelimit, userdata
from agency.core.errors import Conflict, Unauthorized, ValidationFailed
from agency.core.ratelimit import Limit
from agency.modules.auth.models import ROLE_ADMIN, ROLE_USER, PasswordReset, Profile, Session, User
from agency.modules.auth.schemas import Account

MSG_FILL_ALL = "Please fill in all fields"
MSG_PASSWORDS_DIFFER = "Passwords do not match"
MSG_PASSWORD_SHORT = "Password must be at least 6 characters"
MSG_PASSWORD_LONG = "Password must be at most 128 characters"
MSG_EMAIL_INVALID = "Please enter a valid email address"
MSG_EMAIL_TAKEN = "This email is already registered."
MSG_BAD_LOGIN = "Incorrect email or password. Please try again."
MSG_BAD_CURRENT_PASSWORD = "Your current password is incorrect."
MSG_RESET_INVALID = "This reset link is invalid or has expired. Please request a new one."
MSG_RESET_SENT = "If an account exists for that email, we have sent a link to reset its password."
MSG_AVATAR_URL = "The avatar must be an http:// or https:// image address."
MSG_NOT_SIGNED_IN = "Please log in to continue."

PASSWORD_MIN, PASSWORD_MAX = 6, 128
SESSION_DAYS = 1
REMEMBER_DAYS = 30
RESET_VALID = timedelta(hours=1)
RESET_JOB = "auth.password_reset"

LOGIN_PER_ADDRESS = Limit("login-ip", limit=30, window=15 * 60)
LOGIN_FAILURES_PER_EMAIL = Limit("login-email", limit=10, window=15 * 60)
SIGNUP_PER_ADDRESS = Limit("signup-ip", limit=10, window=60 * 60)
FORGOT_PER_ADDRESS = Limit("forgot-ip", limit=5, window=15 * 60)
RESET_PER_ADDRESS = Limit("reset-ip", limit=20, window=15 * 60)

# argon2id with OWASP's second recommended setting (19 MiB, 2 passes, 1 lane): about 60 ms
# here. argon2-cffi's defaults (64 MiB, 3 passes, 4 lanes) took 0.9 s on this 2-core machine.
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
# Verified against when the e-mail is unknown, so that answer takes as long as a wrong password.
_dummy_hash = ""


def use_hasher(hasher: PasswordHasher) -> None:
    """Swap the password hasher (tests use argon2's cheapest profile)."""
    global _hasher, _dummy_hash
    _hasher, _dummy_hash = hasher, ""


def _unknown_user_hash() -> str:
    global _dummy_hash
    if not _dummy_hash:
        _dummy_hash = _hasher.hash(secrets.token_urlsafe(16))
    return _dummy_hash


# ---------------------------------------------------------------- validation helpers


def normalise_email(raw: str) -> str:
    return raw.strip().lower()


def valid_email(email: str) -> bool:
    """A deliberately loose check (the browser checks the format too): one @, no spaces,
    a dot in the domain, within RFC 5321's 254 characters."""
    if len(email) > 254 or any(ch.isspace() for ch in email) or email.count("@") != 1:
        return False
    local, domain = email.split("@")
    labels = domain.split(".")
    return bool(local) and len(labels) >= 2 and all(labels) and len(local) <= 64


def password_problem(password: str) -> str | None:
    if len(password) < PASSWORD_MIN:
        return MSG_PASSWORD_SHORT
    if len(password) > PASSWORD_MAX:
        return MSG_PASSWORD_LONG
    return None


def _check_new_password(password: str, confirm: str | None, field: str = "password") -> None:
    if confirm is not None and confirm != password:
        raise ValidationFailed(
            MSG_PASSWORDS_DIFFER, fields={"confirm_password": MSG_PASSWORDS_DIFFER}
        )
    problem = password_problem(password)
    if problem:
        raise ValidationFailed(problem, fields={field: problem})


def _check_avatar_url(url: str | None) -> str | None:
    if url is None or not url.strip():
        return None
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValidationFailed(MSG_AVATAR_URL, fields={"avatar_url": MSG_AVATAR_URL})
    return url


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def _verify(password_hash: str, password: str) -> bool:
    try:
        return await asyncio.to_thread(_hasher.verify, password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def _now() -> datetime:
    return datetime.now(UTC)


async def _account(user: User) -> Account:
    profile = await Profile.get_or_none(id=user.id)
    return Account(
        id=user.id,
        email=user.email,
        role=user.role,
        first_name=profile.first_name if profile else "",
        last_name=profile.last_name if profile else "",
        avatar_url=profile.avatar_url if profile else None,
        created_at=user.created_at,
    )


async def get_account(user_id: int) -> Account | None:
    user = await User.get_or_none(id=user_id)
    return await _account(user) if user else None


async def get_account_by_email(email: str) -> Account | None:
    user = await User.get_or_none(email=normalise_email(email))
    return await _account(user) if user else None


# ---------------------------------------------------------------- sign-up and log-in


async def create_user(
    email: str, password: str, first_name: str = "", last_name: str = "", role: str = ROLE_USER
) -> Account:
    """Create the user and their profile in one transaction."""
    email = normalise_email(email)
    if not valid_email(email):
        raise ValidationFailed(MSG_EMAIL_INVALID, fields={"email": MSG_EMAIL_INVALID})
    _check_new_password(password, None)
    password_hash = await hash_password(password)
    try:
        async with in_transaction():
            user = await User.create(email=email, password_hash=password_hash, role=role)
            await Profile.create(
                id=user.id, first_name=first_name.strip()[:100], last_name=last_name.strip()[:100]
            )
    except IntegrityError as exc:
        raise Conflict(MSG_EMAIL_TAKEN, fields={"email": MSG_EMAIL_TAKEN}) from exc
    return await _account(user)


async def sign_up(
    *,
    email: str,
    password: str,
    confirm_password: str | None,
    first_name: str,
    last_name: str,
    client_ip: str,
) -> Account:
    if not (email.strip() and password and first_name.strip() and last_name.strip()):
        raise ValidationFailed(MSG_FILL_ALL)
    _check_new_password(password, confirm_password)
    await ratelimit.enforce(SIGNUP_PER_ADDRESS, client_ip)
    if await User.exists(email=normalise_email(email)):
        raise Conflict(MSG_EMAIL_TAKEN, fields={"email": MSG_EMAIL_TAKEN})
    return await create_user(email, password, first_name, last_name)


async def authenticate(*, email: str, password: str, client_ip: str) -> Account:
    """The account for these credentials, counting attempts per address and failures per
    e-mail. Unknown e-mails cost the same time as wrong passwords."""
    if not email.strip() or not password:
        raise ValidationFailed(MSG_FILL_ALL)
    email = normalise_email(email)
    await ratelimit.enforce(LOGIN_PER_ADDRESS, client_ip)
    await ratelimit.check(LOGIN_FAILURES_PER_EMAIL, email)
    user = await User.get_or_none(email=email)
    verified = await _verify(user.password_hash if user else _unknown_user_hash(), password)
    if user is None or not verified:
        await ratelimit.hit(LOGIN_FAILURES_PER_EMAIL, email)
        raise Unauthorized(MSG_BAD_LOGIN, code="invalid_credentials")
    if _hasher.check_needs_rehash(user.password_hash):
        await User.filter(id=user.id).update(password_hash=await hash_password(password))
    await ratelimit.reset(LOGIN_FAILURES_PER_EMAIL, email)
    return await _account(user)


def split_full_name(full_name: str) -> tuple[str, str]:
    """The spec's rule: first name before the first space, last name the next word."""
    first, _, rest = full_name.strip().partition(" ")
    return first, (rest.split() or [""])[0]


async def register_or_authenticate(
    *, full_name: str, email: str, password: str, client_ip: str
) -> Account:
    """For a signed-out buyer: a new account, or their existing one when the password is right.
    A wrong password for a registered e-mail gets 'This email is already registered.'"""
    email = normalise_email(email)
    if await User.exists(email=email):
        try:
            return await authenticate(email=email, password=password, client_ip=client_ip)
        except Unauthorized as exc:
            raise Conflict(
                MSG_EMAIL_TAKEN, code="email_registered", fields={"email": MSG_EMAIL_TAKEN}
            ) from exc
    _check_new_password(password, None)
    await ratelimit.enforce(SIGNUP_PER_ADDRESS, client_ip)
    first_name, last_name = split_full_name(full_name)
    return await create_user(email, password, first_name, last_name)


# ---------------------------------------------------------------- sessions


async def start_session(user_id: int, *, remember: bool, user_agent: str, ip: str) -> str:
    """A new session; returns the raw token for the cookie (only its hash is stored)."""
    token = secrets.token_urlsafe(32)
    lifetime = timedelta(days=REMEMBER_DAYS if remember else SESSION_DAYS)
    await Session.create(
        id=_token_hash(token),
        user_id=user_id,
        remember=remember,
        expires_at=_now() + lifetime,
        user_agent=user_agent[:255],
        ip=ip[:64],
    )
    return token


async def session_user_id(token: str) -> int | None:
    """The user a live session token belongs to, or None (unknown, ended or expired)."""
    if not token or len(token) > 200:
        return None
    session = await Session.get_or_none(id=_token_hash(token), expires_at__gt=_now())
    return int(session.user_id) if session else None  # type: ignore[attr-defined]


async def end_session(token: str) -> None:
    await Session.filter(id=_token_hash(token)).delete()


async def end_sessions(user_id: int, *, keep_token: str | None = None) -> int:
    """End every session of a user (but the one in use, when given); returns how many."""
    query = Session.filter(user_id=user_id)
    if keep_token:
        query = query.exclude(id=_token_hash(keep_token))
    return int(await query.delete())


# ---------------------------------------------------------------- password reset


async def request_password_reset(*, email: str, client_ip: str, public_url: str) -> str:
    """Queue the reset e-mail. The answer and its timing are the same whether the e-mail has an
    account or not: the lookup happens in a background job."""
    if not email.strip():
        raise ValidationFailed(MSG_FILL_ALL)
    await ratelimit.enforce(FORGOT_PER_ADDRESS, client_ip)
    payload = {"email": normalise_email(email), "public_url": public_url}
    await jobs.enqueue(RESET_JOB, payload, max_attempts=3)
    return MSG_RESET_SENT


async def issue_reset_token(user_id: int) -> str:
    token = secrets.token_urlsafe(32)
    await PasswordReset.create(
        user_id=user_id, token_hash=_token_hash(token), expires_at=_now() + RESET_VALID
    )
    return token


async def send_reset_link(payload: dict[str, Any]) -> None:
    """Job: e-mail a reset link, if the e-mail has an account (nothing happens otherwise)."""
    user = await User.get_or_none(email=payload["email"])
    if user is None:
        return
    token = await issue_reset_token(user.id)
    account = await _account(user)
    await mail.send_mail(
        user.email,
        "password_reset",
        {
            "first_name": account.first_name or "there",
            "reset_url": f"{payload['public_url']}/reset-password?token={token}",
            "valid_minutes": int(RESET_VALID.total_seconds() // 60),
        },
    )


async def reset_password(
    *, token: str, password: str, confirm_password: str | None, client_ip: str
) -> None:
    """Consume a reset token (once: one conditional UPDATE wins) and set the password.
    Every session of the user ends."""
    if not token or not password:
        raise ValidationFailed(MSG_FILL_ALL)
    _check_new_password(password, confirm_password)
    await ratelimit.enforce(RESET_PER_ADDRESS, client_ip)
    now = _now()
    reset = await PasswordReset.get_or_none(
        token_hash=_token_hash(token), used_at=None, expires_at__gt=now
    )
    if reset is None:
        raise ValidationFailed(MSG_RESET_INVALID, code="invalid_token")
    consumed = await PasswordReset.filter(id=reset.id, used_at=None).update(used_at=now)
    if not consumed:
        raise ValidationFailed(MSG_RESET_INVALID, code="invalid_token")
    user_id = int(reset.user_id)  # type: ignore[attr-defined]
    await User.filter(id=user_id).update(password_hash=await hash_password(password))
    await end_sessions(user_id)


# ---------------------------------------------------------------- the account itself


async def update_profile(
    user_id: int, *, first_name: str, last_name: str, avatar_url: str | None
) -> Account:
    if not first_name.strip() or not last_name.strip():
        raise ValidationFailed(MSG_FILL_ALL)
    avatar = _check_avatar_url(avatar_url)
    await Profile.update_or_create(
        defaults={
            "first_name": first_name.strip()[:100],
            "last_name": last_name.strip()[:100],
            "avatar_url": avatar,
        },
        id=user_id,
    )
    account = await get_account(user_id)
    if account is None:
        raise Unauthorized(MSG_NOT_SIGNED_IN)
    return account


async def _user_with_password(user_id: int, password: str) -> User:
    user = await User.get_or_none(id=user_id)
    if user is None:
        raise Unauthorized(MSG_NOT_SIGNED_IN)
    if not password or not await _verify(user.password_hash, password):
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
    """Set a new password; every other session of the user ends."""
    if not current_password or not new_password:
        raise ValidationFailed(MSG_FILL_ALL)
    _check_new_password(new_password, confirm_password, field="new_password")
    user = await _user_with_password(user_id, current_password)
    await User.filter(id=user.id).update(password_hash=await hash_password(new_password))
    await end_sessions(user.id, keep_token=keep_token)


async def change_email(user_id: int, *, new_email: str, current_password: str) -> Account:
    if not new_email.strip() or not current_password:
        raise ValidationFailed(MSG_FILL_ALL)
    email = normalise_email(new_email)
    if not valid_email(email):
        raise ValidationFailed(MSG_EMAIL_INVALID, fields={"new_email": MSG_EMAIL_INVALID})
    user = await _user_with_password(user_id, current_password)
    if email != user.email:
        try:
            await User.filter(id=user.id).update(email=email)
        except IntegrityError as exc:
            raise Conflict(MSG_EMAIL_TAKEN, fields={"new_email": MSG_EMAIL_TAKEN}) from exc
    account = await get_account(user.id)
    assert account is not None
    return account


async def set_role(email: str, role: str) -> Account:
    if role not in (ROLE_USER, ROLE_ADMIN):
        raise ValidationFailed(f"Unknown role {role!r}: use 'user' or 'admin'.")
    updated = await User.filter(email=normalise_email(email)).update(role=role)
    account = await get_account_by_email(email)
    if not updated or account is None:
        raise ValidationFailed(f"No user with the e-mail {email}.")
    return account


async def list_accounts() -> list[tuple[Account, int]]:
    """Every account with its number of live sessions, newest first."""
    users = await User.all().order_by("-created_at")
    now = _now()
    result = []
    for user in users:
        live = await Session.filter(user_id=user.id, expires_at__gt=now).count()
        result.append((await _account(user), live))
    return result


async def export_data(user_id: int) -> dict[str, Any]:
    """Everything we hold about the user, as JSON-ready data."""
    account = await get_account(user_id)
    if account is None:
        raise Unauthorized(MSG_NOT_SIGNED_IN)
    sessions = await Session.filter(user_id=user_id).order_by("-created_at")
    return {
        "exported_at": _now().isoformat(),
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
    user = await _user_with_password(user_id, current_password)
    await userdata.erase_all(user.id)
    async with in_transaction():
        await Profile.filter(id=user.id).delete()
        await User.filter(id=user.id).delete()  # sessions and resets cascade
