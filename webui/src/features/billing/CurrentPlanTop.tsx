import { Badge } from '../../components/ui/Badge'

/** The top row of a plan card: the "Current Plan" heading (`id` for aria-labelledby) and whether it is active. */
export function CurrentPlanTop({ headingId, active }: { headingId: string; active: boolean }) {
  return (
    <div className="plan-card__top">
      <h2 id={headingId} className="plan-card__label">
        Current Plan
      </h2>
      <Badge tone={active ? 'green' : 'grey'}>{active ? 'Active subscription' : 'No active subscription'}</Badge>
    </div>
  )
}
