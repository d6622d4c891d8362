"""What other modules may use of support (nothing yet but the statuses)."""

from agency.modules.support.models import STATUSES

__all__ = ["STATUSES"]
