"""What other modules may use of billing: the user's subscription, the order number format, and
whether a user buys as a consumer or a business (`buyer_type`)."""

from agency.modules.billing.schemas import ContractOrder, ContractSubscription, SubscriptionOut
from agency.modules.billing.service.contracts import (
    cancel_at_period_end,
    cancelled_subscriptions,
    date_time,
    find_order,
    get_subscription,
    is_running,
    long_date,
    orders_for_domain,
)
from agency.modules.billing.service.order_numbers import order_number, parse_order_number
from agency.modules.billing.service.order_terms import TERMS_VERSION, WITHDRAWAL_DAYS
from agency.modules.billing.service.reads import buyer_type, current_subscription

__all__ = [
    "TERMS_VERSION",
    "WITHDRAWAL_DAYS",
    "ContractOrder",
    "ContractSubscription",
    "SubscriptionOut",
    "buyer_type",
    "cancel_at_period_end",
    "cancelled_subscriptions",
    "current_subscription",
    "date_time",
    "find_order",
    "get_subscription",
    "is_running",
    "long_date",
    "order_number",
    "orders_for_domain",
    "parse_order_number",
]
