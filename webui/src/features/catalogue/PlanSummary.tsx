import { badgeLabel, billingSuffix, formatPrice, type Plan } from './catalogue'
import { Badge } from '../../components/ui/Badge'
import { PreviousPrice } from './PreviousPrice'

/** The top of every plan card: badge, name, description, price, struck price and saving.
 * Shared by the home pricing section and the landing pages' tier cards. */
export function PlanSummary({ plan, titleId }: { plan: Plan; titleId: string }) {
  const badge = badgeLabel(plan.badge, plan.family)
  const featured = plan.badge === 'popular'
  return (
    <>
      {badge && (
        <Badge tone={featured ? 'purple' : 'blue'} className="price-card__badge">
          {badge}
        </Badge>
      )}
      <h3 id={titleId} className="price-card__name">
        {plan.name}
      </h3>
      <p className="price-card__desc">{plan.description}</p>
      <p className="price-card__price">
        <span className="price-card__amount">{formatPrice(plan.price, plan.currency)}</span>
        <span className="price-card__suffix">{billingSuffix(plan)}</span>
      </p>
      {plan.original_price !== null && plan.original_price > plan.price && (
        <p className="price-card__was">
          <PreviousPrice plan={plan} />
          {plan.save_percent !== null && <span className="save-badge">Save {plan.save_percent}%</span>}
        </p>
      )}
    </>
  )
}
