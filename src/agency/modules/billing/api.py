"""What other modules may use of billing (nothing yet beyond the user's subscription)."""

from agency.modules.billing.schemas import SubscriptionOut
from agency.modules.billing.service.reads import current_subscription

__all__ = ["SubscriptionOut", "current_subscription"]
