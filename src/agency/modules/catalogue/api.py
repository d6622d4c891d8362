"""What other modules may use of the catalogue."""

from agency.modules.catalogue.schemas import (
    AdminCatalogueOut,
    AdminPlanOut,
    PlanChangesIn,
    PlanInfo,
    PlanUpdate,
    PlanUpdateOut,
)
from agency.modules.catalogue.service import (
    admin_catalogue,
    admin_plan,
    all_plans,
    get_plan,
    pending_changes,
    plan_by_price_id,
    set_stripe_ids,
    update_plan,
)

__all__ = [
    "AdminCatalogueOut",
    "AdminPlanOut",
    "PlanChangesIn",
    "PlanInfo",
    "PlanUpdate",
    "PlanUpdateOut",
    "admin_catalogue",
    "admin_plan",
    "all_plans",
    "get_plan",
    "pending_changes",
    "plan_by_price_id",
    "set_stripe_ids",
    "update_plan",
]
