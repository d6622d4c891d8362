"""What other modules may use of accounts (plain functions and data, no Quart)."""

from agency.modules.auth.schemas import Account
from agency.modules.auth.service.accounts import get_account, register_or_authenticate

__all__ = ["Account", "get_account", "register_or_authenticate"]
