"""What other modules may use of support: the requests as the agency sees them, and the owner's
overview's figures (requests open, answered, the median time to the first reply)."""

from agency.modules.support.schemas import AdminSupportRequestOut, SupportFigures
from agency.modules.support.service import figures as support_figures
from agency.modules.support.service import list_all, open_requests

__all__ = [
    "AdminSupportRequestOut",
    "SupportFigures",
    "list_all",
    "open_requests",
    "support_figures",
]
