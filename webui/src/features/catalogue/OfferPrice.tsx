import { lazy, useEffect, useId } from 'react'
import { findPlan, useCatalogue, type Plan } from './catalogue'
import { cx } from '../../lib/cx'
import { usePrices, type BuyerType, type Prices } from '../tax'

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

// The switch lives here rather than with the buyer type's store (features/tax/prices.tsx): the
// build gives every page its own copy of this module (vite.config.ts pageChunks), so the pages
// with pricing sections carry the switch in their own chunk, and the purchase pages, which share
// only the store, do not load it (~0.25 kB gzip less first load there).

const OPTIONS: readonly [BuyerType, string][] = [
  ['consumer', 'Private'],
  ['business', 'Business'],
]

/**
 * The Private / Business switch: a radio group labelled "Prices for". Native radios (arrow
 * keys move the choice, Tab leaves the group); both options keep their width whichever is
 * checked, so nothing moves when the remembered choice applies after hydration.
 */
export function PricesFor({ value, onChange, className }: { value: BuyerType; onChange: (value: BuyerType) => void; className?: string }) {
  const id = useId()
  return (
    <div className={className ? `prices-for ${className}` : 'prices-for'} role="radiogroup" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="prices-for__label">
        Prices for
      </span>
      <span className="prices-for__options">
        {OPTIONS.map(([option, label]) => (
          <label key={option} className="prices-for__option">
            <input type="radio" name={`${id}-buyer`} value={option} checked={value === option} onChange={() => onChange(option)} />
            <span>{label}</span>
          </label>
        ))}
      </span>
    </div>
  )
}
