"""Password hashing: argon2id, run off the event loop."""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# argon2id with OWASP's second recommended setting (19 MiB, 2 passes, 1 lane): about 60 ms
# here. argon2-cffi's defaults (64 MiB, 3 passes, 4 lanes) took 0.9 s on this 2-core machine.
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
# Verified against when the e-mail is unknown, so that answer takes as long as a wrong password.
_dummy_hash = ""


def use_hasher(hasher: PasswordHasher) -> None:
    """Swap the password hasher (tests use argon2's cheapest profile)."""
    global _hasher, _dummy_hash
    _hasher, _dummy_hash = hasher, ""


def unknown_user_hash() -> str:
    """A hash to verify against when there is no user, so that costs a real verification."""
    global _dummy_hash
    if not _dummy_hash:
        _dummy_hash = _hasher.hash(secrets.token_urlsafe(16))
    return _dummy_hash


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def verify(password_hash: str, password: str) -> bool:
    try:
        return await asyncio.to_thread(_hasher.verify, password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """Whether the hash was made with other parameters than the current hasher's."""
    return _hasher.check_needs_rehash(password_hash)
