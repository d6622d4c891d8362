/** How plans are worded (their own module: the landing pages' first load does not need them;
 * the price parts load them with the catalogue). */
import type { BadgeTone } from '../../components/ui/Badge'
import { formatPrice, type Plan, type PlanBadge } from './catalogue'

/** "/month" for subscriptions, "one-time" otherwise. */
export function billingSuffix(plan: Pick<Plan, 'mode' | 'interval'>): string {
  if (plan.mode === 'subscription') return `/${plan.interval ?? 'month'}`
  return 'one-time'
}

/** The suffix as it follows the amount: "/month" directly, " one-time" after a space. */
export function suffixAfterPrice(plan: Pick<Plan, 'mode' | 'interval'>): string {
  const suffix = billingSuffix(plan)
  return suffix.startsWith('/') ? suffix : ` ${suffix}`
}

/** "€29/month", "€499 one-time". */
export function priceWithSuffix(plan: Pick<Plan, 'price' | 'currency' | 'mode' | 'interval'>): string {
  return `${formatPrice(plan.price, plan.currency)}${suffixAfterPrice(plan)}`
}

/** A plan's one delivery promise and one guarantee as every page shows them, e.g.
 * "Delivery in 24 hours · 30-day money-back guarantee"; null when it has neither. */
export function planPromises(plan: Pick<Plan, 'delivery' | 'guarantee'>): string | null {
  const parts = [plan.delivery && `Delivery in ${plan.delivery}`, plan.guarantee].filter((part) => !!part)
  return parts.length > 0 ? parts.join(' · ') : null
}

/** The badge text of a plan ("Most Popular" is worded "Perfect for Clinics" for leadgen). */
export function badgeLabel(badge: PlanBadge | null, familyKey: string): string | null {
  switch (badge) {
    case 'popular':
      return familyKey === 'leadgen' ? 'Perfect for Clinics' : 'Most Popular'
    case 'premium':
      return 'Premium'
    case 'launch':
      return 'Launch Offer'
    default:
      return null
  }
}

/** The colour of a plan's badge, the same on every page. Never green: green is the saving's
 * colour ("Save 67%"), and a badge in it reads as a discount. "Launch Offer" is yellow, as the
 * home page's launch-pricing note. */
export function badgeTone(badge: PlanBadge): BadgeTone {
  switch (badge) {
    case 'popular':
      return 'purple'
    case 'premium':
      return 'blue'
    case 'launch':
      return 'yellow'
  }
}
