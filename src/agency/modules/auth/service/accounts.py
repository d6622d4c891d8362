"""Accounts: read one, create one, sign up, log in, and the checkout's sign-up-or-log-in.

Password guesses are limited as OWASP's Authentication Cheat Sheet describes, so that a guesser
cannot lock the owner out: wrong passwords are counted per account AND client address (an IPv6
client by its /64), 10 in 15 minutes, and per account from all addresses together, a much higher
100 an hour. One address (or /64) can make at most 40 guesses an hour, so it can never reach the
account's cap: the owner signing in from anywhere else is not held back by it. Only guesses
spread over ten or more networks at once reach the cap; then the refusal tells the owner the way
in that needs no waiting: a password reset (an e-mailed link), which clears the account's
counters, since guesses at the old password say nothing about the new one.
"""

from __future__ import annotations

import hashlib

from tortoise.exceptions import IntegrityError
from tortoise.expressions import Q
from tortoise.transactions import in_transaction

from agency.core import ratelimit
from agency.core.errors import Conflict, TooManyRequests, Unauthorized, ValidationFailed
from agency.core.ratelimit import Limit, RateCounter
from agency.core.web.request_layer import current_client_ip
from agency.modules.auth.models import ROLE_USER, Profile, User
from agency.modules.auth.schemas import Account
from agency.modules.auth.service import passwords
from agency.modules.auth.service.validation import (
    MSG_EMAIL_INVALID,
    MSG_FILL_ALL,
    check_new_password,
    normalise_email,
    valid_email,
)

MSG_EMAIL_TAKEN = "This email is already registered."
MSG_BAD_LOGIN = "Incorrect email or password. Please try again."
MSG_NOT_SIGNED_IN = "Please log in to continue."

MSG_LOCKED_ADVICE = (
    "To sign in now, choose 'Forgot password?' and set a new password with the link we e-mail you."
)

LOGIN_PER_ADDRESS = Limit("login-ip", limit=30, window=15 * 60, per_address=True)
# Password checks of one account (every attempt counts, before its password is checked; a
# right password is given back: it does not count, but never forgives the wrong ones): from one
# client address (subject `email address-subject`), and from all addresses together. The second
# is far above what one address can reach (4 x 10 an hour), so one guesser locks out only
# themselves.
LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS = Limit("login-email-address", limit=10, window=15 * 60)
LOGIN_ATTEMPTS_PER_EMAIL = Limit("login-email", limit=100, window=60 * 60)
SIGNUP_PER_ADDRESS = Limit("signup-ip", limit=10, window=60 * 60, per_address=True)


async def account_of(user: User) -> Account:
    """The user with their profile, as the data other code sees."""
    profile = await Profile.get_or_none(id=user.id)
    return Account(
        id=user.id,
        email=user.email,
        role=user.role,
        first_name=profile.first_name if profile else "",
        last_name=profile.last_name if profile else "",
        avatar_url=profile.avatar_url if profile else None,
        created_at=user.created_at,
        bio=profile.bio if profile else "",
    )


async def get_account(user_id: int) -> Account | None:
    user = await User.get_or_none(id=user_id)
    return await account_of(user) if user else None


async def get_account_by_email(email: str) -> Account | None:
    user = await User.get_or_none(email=normalise_email(email))
    return await account_of(user) if user else None


async def accounts_by_ids(user_ids: list[int]) -> dict[int, Account]:
    """Several accounts at once (an admin list's customers), by id; unknown ids are left out."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    users = await User.filter(id__in=ids)
    profiles = {p.id: p for p in await Profile.filter(id__in=ids)}
    found: dict[int, Account] = {}
    for user in users:
        profile = profiles.get(user.id)
        found[user.id] = Account(
            id=user.id,
            email=user.email,
            role=user.role,
            first_name=profile.first_name if profile else "",
            last_name=profile.last_name if profile else "",
            avatar_url=profile.avatar_url if profile else None,
            created_at=user.created_at,
            bio=profile.bio if profile else "",
        )
    return found


async def find_user_ids(text: str, limit: int = 500) -> list[int]:
    """Ids of the users whose e-mail, first or last name contains `text` (any case), or whose
    full name does; at most `limit` (an admin's search)."""
    text = " ".join(text.split())
    if not text:
        return []
    ids = {u.id for u in await User.filter(email__icontains=text).limit(limit)}
    names = Q(first_name__icontains=text) | Q(last_name__icontains=text)
    first, _, last = text.partition(" ")
    if last:
        names |= Q(first_name__icontains=first, last_name__icontains=last)
    ids.update(p.id for p in await Profile.filter(names).limit(limit))
    return sorted(ids)[:limit]


async def create_user(
    email: str, password: str, first_name: str = "", last_name: str = "", role: str = ROLE_USER
) -> Account:
    """Create the user and their profile in one transaction."""
    email = normalise_email(email)
    if not valid_email(email):
        raise ValidationFailed(MSG_EMAIL_INVALID, fields={"email": MSG_EMAIL_INVALID})
    check_new_password(password, None)
    password_hash = await passwords.hash_password(password)
    try:
        async with in_transaction():
            user = await User.create(email=email, password_hash=password_hash, role=role)
            await Profile.create(
                id=user.id, first_name=first_name.strip()[:100], last_name=last_name.strip()[:100]
            )
    except IntegrityError as exc:
        raise Conflict(MSG_EMAIL_TAKEN, fields={"email": MSG_EMAIL_TAKEN}) from exc
    return await account_of(user)


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
    check_new_password(password, confirm_password)
    await ratelimit.enforce(SIGNUP_PER_ADDRESS, client_ip)
    if await User.exists(email=normalise_email(email)):
        raise Conflict(MSG_EMAIL_TAKEN, fields={"email": MSG_EMAIL_TAKEN})
    return await create_user(email, password, first_name, last_name)


def _account_part(email: str) -> str:
    # A digest, so that a long e-mail and an address always fit in a key (255 characters).
    return hashlib.sha256(email.encode()).hexdigest()[:32]


def account_address_subject(email: str, client_ip: str) -> str:
    """The key of an account's guesses from one client (an IPv6 client by its /64)."""
    return f"{_account_part(email)} {ratelimit.address_subject(client_ip)}"


async def check_password(
    email: str, password_hash: str, password: str, client_ip: str | None = None
) -> bool:
    """Whether the password is right, as one attempt on the account's limits (from this client
    address, `client_ip` or else the request's, and from all addresses): the attempt is
    counted (or refused with 429) in one atomic statement per limit before the password is
    verified, so concurrent guesses get at most `limit` wrong verifications per window,
    whatever their order or a right password among them. A right password is given back: it
    does not count, and it does not clear the wrong ones (a user signing in must not renew a
    guesser's allowance). Used by every path that checks an account's password."""
    pair = account_address_subject(email, client_ip or current_client_ip() or "unknown")
    from_here = await ratelimit.enforce(LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS, pair)
    try:
        counted = await ratelimit.enforce(LOGIN_ATTEMPTS_PER_EMAIL, email)
    except TooManyRequests:
        # Not verified: the attempt does not count against this address either.
        await ratelimit.give_back(LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS, pair, from_here)
        raise
    if not await passwords.verify(password_hash, password):
        return False
    await ratelimit.give_back(LOGIN_ATTEMPTS_PER_EMAIL, email, counted)
    await ratelimit.give_back(LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS, pair, from_here)
    return True


async def clear_failed_log_ins(user_id: int) -> None:
    """Forget the account's counted guesses, from every address: after a password reset they
    say nothing about the new password, and the owner must be able to sign in at once."""
    user = await User.get_or_none(id=user_id)
    if user is None:
        return
    await ratelimit.reset(LOGIN_ATTEMPTS_PER_EMAIL, user.email)
    prefix = LOGIN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS.key(f"{_account_part(user.email)} ")
    await RateCounter.filter(key__startswith=prefix).delete()


async def authenticate(*, email: str, password: str, client_ip: str) -> Account:
    """The account for these credentials, counting attempts per address and per e-mail.
    Unknown e-mails cost the same time as wrong passwords."""
    if not email.strip() or not password:
        raise ValidationFailed(MSG_FILL_ALL)
    email = normalise_email(email)
    await ratelimit.enforce(LOGIN_PER_ADDRESS, client_ip)
    user = await User.get_or_none(email=email)
    password_hash = user.password_hash if user else passwords.unknown_user_hash()
    try:
        verified = await check_password(email, password_hash, password, client_ip)
    except TooManyRequests as refused:
        # Say what else the owner can do than wait (the reset clears the account's counters).
        raise TooManyRequests(
            f"{refused.message} {MSG_LOCKED_ADVICE}", headers=refused.headers
        ) from refused
    if user is None or not verified:
        raise Unauthorized(MSG_BAD_LOGIN, code="invalid_credentials")
    if passwords.needs_rehash(user.password_hash):
        new_hash = await passwords.hash_password(password)
        await User.filter(id=user.id).update(password_hash=new_hash)
    return await account_of(user)


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
    check_new_password(password, None)
    await ratelimit.enforce(SIGNUP_PER_ADDRESS, client_ip)
    first_name, last_name = split_full_name(full_name)
    return await create_user(email, password, first_name, last_name)
