import { formatPrice, type Plan } from './catalogue'

/** The plan's previous price, struck through and labelled as such: only a price the catalogue
 * recorded in the plan's price history (`original_price`), never an invented one. `amount` and
 * `format` give it on the basis of the price shown beside it (gross or net, the visitor's locale). */
export function PreviousPrice({
  plan,
  className,
  amount,
  format = formatPrice,
}: {
  plan: Plan
  className?: string
  amount?: number | null
  format?: (cents: number, currency: string) => string
}) {
  if (plan.original_price === null || plan.original_price <= plan.price) return null
  return (
    <span className={className ? `previous-price ${className}` : 'previous-price'}>
      <span className="previous-price__label">Previous price </span>
      <s>{format(amount ?? plan.original_price, plan.currency)}</s>
    </span>
  )
}
