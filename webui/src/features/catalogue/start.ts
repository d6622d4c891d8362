/** Which family and plan /start shows (its own module: only the purchase pages need it, so
 * the landing pages' first load does not carry it). */
import { DEFAULT_FAMILY, familyPlans, findPlan, type Catalogue, type Family, type Plan } from './catalogue'

/** A family sold through /start: it has at least one plan with checkout. */
function isSoldFamily(catalogue: Catalogue, family: Family): boolean {
  return familyPlans(catalogue, family.key).some((plan) => plan.checkout)
}

/**
 * The (family, plan) /start shows, by the same rule as the server: `plan` is used when it is a
 * known plan sold through /start (of `type`, when `type` is a sold family); otherwise the
 * family's default plan; an unknown family means website (default professional). `plan` is null
 * only when the catalogue's default plan is not on sale (nothing is preselected then).
 */
export function resolveStart(
  catalogue: Catalogue,
  type: string | null | undefined,
  plan: string | null | undefined,
): { family: Family; plan: Plan | null } | null {
  const sold = catalogue.families.filter((family) => isSoldFamily(catalogue, family))
  const requestedFamily = sold.find((family) => family.key === type)
  const requestedPlan = findPlan(catalogue, plan)
  if (requestedPlan && requestedPlan.checkout) {
    const planFamily = sold.find((family) => family.key === requestedPlan.family)
    if (planFamily && (!requestedFamily || requestedFamily.key === planFamily.key)) {
      return { family: planFamily, plan: requestedPlan }
    }
  }
  const family = requestedFamily ?? sold.find((f) => f.key === DEFAULT_FAMILY) ?? sold[0]
  if (!family) return null
  const chosen = findPlan(catalogue, family.default_plan)
  return { family, plan: chosen && chosen.family === family.key && chosen.checkout ? chosen : null }
}
