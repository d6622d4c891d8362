"""What other modules may use of contracts: the admins' lists, and the withdrawal information
as the /withdrawal page shows it (content fills the prerendered page with it)."""

from agency.modules.contracts.schemas import AdminContracts
from agency.modules.contracts.service import (
    WITHDRAWAL_PAGE_TITLE,
    admin_lists,
    withdrawal_information_html,
)

__all__ = ["WITHDRAWAL_PAGE_TITLE", "AdminContracts", "admin_lists", "withdrawal_information_html"]
