"""What other modules may use of accounts (plain functions and data, no Quart)."""

from agency.modules.auth.schemas import Account
from agency.modules.auth.service.accounts import (
    accounts_by_ids,
    find_user_ids,
    get_account,
    get_account_by_email,
    register_or_authenticate,
)
from agency.modules.auth.service.figures import signups, user_ids_by_email
from agency.modules.auth.service.validation import (
    MSG_EMAIL_INVALID,
    normalise_email,
    password_problem,
    valid_email,
)

__all__ = [
    "MSG_EMAIL_INVALID",
    "Account",
    "accounts_by_ids",
    "find_user_ids",
    "get_account",
    "get_account_by_email",
    "normalise_email",
    "password_problem",
    "register_or_authenticate",
    "signups",
    "user_ids_by_email",
    "valid_email",
]
