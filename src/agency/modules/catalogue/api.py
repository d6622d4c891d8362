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

# The revision (`agency.core.revisions`, migration 0039) that moves with any write to the plans
# or their families: other modules' cached answers that include a plan's key or name depend on it.
PLANS_REVISION = "catalogue.plans"

__all__ = [
    "PLANS_REVISION",
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
