import { formatPrice, type Plan } from './catalogue'
import { cx } from '../../lib/cx'

/** The plan's previous price, struck through and labelled as such: only a price the catalogue
 * recorded in the plan's price history (`original_price`), never an invented one. */
export function PreviousPrice({ plan, className }: { plan: Plan; className?: string }) {
  if (plan.original_price === null || plan.original_price <= plan.price) return null
  return (
    <span className={cx('previous-price', className)}>
      <span className="previous-price__label">Previous price </span>
      <s>{formatPrice(plan.original_price, plan.currency)}</s>
    </span>
  )
}
