import { findPlan, formatPrice, useCatalogue, type Plan } from './catalogue'
import { cx } from '../../lib/cx'
import { PreviousPrice } from './PreviousPrice'

/** One plan from the catalogue; `plan` is undefined while loading or when it is missing. */
export function usePlan(key: string): { plan: Plan | undefined; loading: boolean; error: string | null } {
  const state = useCatalogue()
  return {
    plan: state.catalogue ? findPlan(state.catalogue, key) : undefined,
    loading: state.status === 'loading',
    error: state.error,
  }
}

export interface OfferPriceProps {
  planKey: string
  /** How the saving is worded: a percentage ("Save 50%") or an amount ("Save €200"). */
  save?: 'percent' | 'amount'
  className?: string
  size?: 'md' | 'lg'
}

/**
 * The offer's price, its previous price (recorded in the catalogue, labelled) and the saving
 * from the catalogue. Prerender and first client
 * render show a fixed-size placeholder; the figures fill in once the catalogue has loaded.
 */
export function OfferPrice({ planKey, save = 'percent', className, size = 'lg' }: OfferPriceProps) {
  const { plan, error } = usePlan(planKey)
  if (!plan) {
    return (
      <div className={cx('offer-price', `offer-price--${size}`, 'offer-price--pending', className)} aria-busy={!error || undefined}>
        {error ? (
          <p className="offer-price__unavailable">Price currently unavailable. Please reload the page.</p>
        ) : (
          <>
            <span className="visually-hidden" role="status">
              Loading price
            </span>
            <span className="skeleton offer-price__skeleton" aria-hidden="true" />
          </>
        )}
      </div>
    )
  }
  const struck = plan.original_price !== null && plan.original_price > plan.price ? plan.original_price : null
  const saving =
    struck === null
      ? null
      : save === 'amount'
        ? `Save ${formatPrice(struck - plan.price, plan.currency)}`
        : plan.save_percent !== null
          ? `Save ${plan.save_percent}%`
          : null
  return (
    <div className={cx('offer-price', `offer-price--${size}`, className)} data-plan={plan.key}>
      <span className="offer-price__amount">{formatPrice(plan.price, plan.currency)}</span>
      {struck !== null && <PreviousPrice plan={plan} className="offer-price__was" />}
      {saving && <span className="offer-price__save">{saving}</span>}
      <span className="offer-price__suffix">{plan.mode === 'subscription' ? `per ${plan.interval ?? 'month'}` : 'one-time payment'}</span>
    </div>
  )
}
