import { lazy, useEffect } from 'react'
import { findPlan, useCatalogue, type Plan } from './catalogue'
import { cx } from '../../lib/cx'
import { PricesFor, usePrices, type Prices } from '../tax'

/** The price parts, loaded beside the catalogue (see PlanPrice.tsx). */
export const loadPlanPrice = () => import('./PlanPrice')
const OfferFigures = lazy(() => loadPlanPrice().then((m) => ({ default: m.OfferFigures })))
/** The top of a plan card (badge, name, description, price with its tax line, previous price). */
export const PlanSummary = lazy(() => loadPlanPrice().then((m) => ({ default: m.PlanSummary })))
/** Starts loading the price parts while the catalogue is fetched (an effect). */
export function preloadPlanPrice(): void {
  void loadPlanPrice()
}

/** One plan from the catalogue; `plan` is undefined while loading or when it is missing.
 * `prices` words its price for the visitor (the shared Private / Business choice). */
export function usePlan(key: string): { plan: Plan | undefined; loading: boolean; error: string | null; prices: Prices } {
  const state = useCatalogue()
  const prices = usePrices(state.catalogue)
  useEffect(preloadPlanPrice, [])
  return {
    plan: state.catalogue ? findPlan(state.catalogue, key) : undefined,
    loading: state.status === 'loading',
    error: state.error,
    prices,
  }
}

export interface OfferPriceProps {
  planKey: string
  /** How the saving is worded: a percentage ("Save 50%") or an amount ("Save €200"). */
  save?: 'percent' | 'amount'
  className?: string
  size?: 'md' | 'lg'
  /** Show the Private / Business switch under the price (default). */
  switcher?: boolean
}

/**
 * The offer's price, its previous price (recorded in the catalogue, labelled) and the saving
 * from the catalogue, worded for the visitor (gross incl. VAT or net excl. VAT), and the
 * Private / Business switch under it. Prerender and first client render show a fixed-size
 * placeholder and the switch with the default; the figures fill in once the catalogue (and
 * the price parts) have loaded.
 */
export function OfferPrice({ planKey, save = 'percent', className, size = 'lg', switcher = true }: OfferPriceProps) {
  const { plan, error, prices } = usePlan(planKey)
  // Prerendered with the default choice, in the same place whether the price has loaded or not.
  const pricesFor = switcher ? <PricesFor value={prices.buyer} onChange={prices.setBuyer} className="offer-price__switch" /> : null
  if (!plan) {
    return (
      <>
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
        {pricesFor}
      </>
    )
  }
  return (
    <>
      <OfferFigures plan={plan} prices={prices} save={save} size={size} className={className} />
      {pricesFor}
    </>
  )
}
