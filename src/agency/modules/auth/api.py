"""What other modules may use of accounts (plain functions and data, no Quart)."""

from agency.modules.auth.schemas import Account
from agency.modules.auth.service.accounts import (
    accounts_by_ids,
    find_user_ids,
    get_account,
    register_or_authenticate,
)

__all__ = [
    "Account",
    "accounts_by_ids",
    "find_user_ids",
    "get_account",
    "register_or_authenticate",
]
