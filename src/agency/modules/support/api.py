"""What other modules may use of support: the requests as the agency sees them."""

from agency.modules.support.schemas import AdminSupportRequestOut
from agency.modules.support.service import list_all

__all__ = ["AdminSupportRequestOut", "list_all"]
