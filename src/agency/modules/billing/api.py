"""What other modules may use of billing: the user's subscription, the order number format,
whether a user buys as a consumer or a business (`buyer_type`), and the owner's money figures
(MRR from the movement log, revenue, failed payments, checkouts: docs/features/mrr.md)."""

from agency.modules.billing.schemas import (
    MOVEMENT_KINDS,
    CheckoutCounts,
    ContractOrder,
    ContractSubscription,
    FailedPayment,
    PastDue,
    PlanRevenue,
    SubscriptionOut,
)
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
from agency.modules.billing.service.figures import (
    active_subscriptions,
    buyers_among,
    checkout_counts,
    failed_payment_count,
    failed_payments,
    mrr_at,
    mrr_movements,
    mrr_series,
    new_customers,
    one_time_revenue,
    past_due,
    paying_customers,
    recurring_revenue,
    revenue_by_plan,
)
from agency.modules.billing.service.mrr import monthly_value
from agency.modules.billing.service.order_numbers import order_number, parse_order_number
from agency.modules.billing.service.order_terms import TERMS_VERSION, WITHDRAWAL_DAYS
from agency.modules.billing.service.reads import buyer_type, current_subscription

__all__ = [
    "MOVEMENT_KINDS",
    "TERMS_VERSION",
    "WITHDRAWAL_DAYS",
    "CheckoutCounts",
    "ContractOrder",
    "ContractSubscription",
    "FailedPayment",
    "PastDue",
    "PlanRevenue",
    "SubscriptionOut",
    "active_subscriptions",
    "buyer_type",
    "buyers_among",
    "cancel_at_period_end",
    "cancelled_subscriptions",
    "checkout_counts",
    "current_subscription",
    "date_time",
    "failed_payment_count",
    "failed_payments",
    "find_order",
    "get_subscription",
    "is_running",
    "long_date",
    "monthly_value",
    "mrr_at",
    "mrr_movements",
    "mrr_series",
    "new_customers",
    "one_time_revenue",
    "order_number",
    "orders_for_domain",
    "parse_order_number",
    "past_due",
    "paying_customers",
    "recurring_revenue",
    "revenue_by_plan",
]
