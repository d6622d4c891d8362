"""What other modules may use of the catalogue."""

from agency.modules.catalogue.schemas import PlanInfo
from agency.modules.catalogue.service import (
    all_plans,
    get_plan,
    plan_by_price_id,
    set_stripe_ids,
)

__all__ = ["PlanInfo", "all_plans", "get_plan", "plan_by_price_id", "set_stripe_ids"]
