"""What other modules may use of billing: the user's subscription and the order number format."""

from agency.modules.billing.schemas import SubscriptionOut
from agency.modules.billing.service.order_numbers import order_number, parse_order_number
from agency.modules.billing.service.reads import current_subscription

__all__ = ["SubscriptionOut", "current_subscription", "order_number", "parse_order_number"]
