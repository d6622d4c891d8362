import { useEffect } from 'react'
import { ClockIcon } from '../../components/icons/ClockIcon'
import { Button, ButtonLink } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { findPlan, useCatalogue, type Catalogue } from './catalogue'
import { cx } from '../../lib/cx'
import { CheckList, startUrl } from '../content'
import { usePrices, type Prices } from '../tax'
import { PlanSummary, PricesFor, preloadPlanPrice } from './OfferPrice'

export interface PlanTierCardProps {
  /** Catalogue plan key, e.g. `pro-ai`. */
  planKey: string
  /** `/start` type of the call to action, e.g. `ai`. */
  type: string
  /** The loaded catalogue; `null` while loading (a skeleton card is shown). */
  catalogue: Catalogue | null
  ctaLabel?: string
  /** Show the plan's delivery time ("Delivered in 48 hours"). */
  showDelivery?: boolean
  /** Where the button goes instead of `/start` (plans sold after a consultation, e.g. `#book`). */
  ctaTo?: string
  /** Whom the prices are for, the locale (the section's switch). */
  prices: Prices
}

/** One pricing tier read from the catalogue by key; a stable skeleton until it is loaded. */
export function PlanTierCard({
  planKey,
  type,
  catalogue,
  ctaLabel = 'Get Started',
  showDelivery = true,
  ctaTo,
  prices,
}: PlanTierCardProps) {
  const plan = catalogue ? findPlan(catalogue, planKey) : undefined
  if (!plan) {
    return (
      <div className="price-card price-card--skeleton card" aria-hidden="true">
        <span className="skeleton skeleton--title" />
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--price" />
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--line skeleton--short" />
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--button" />
      </div>
    )
  }
  const featured = plan.badge === 'popular'
  const titleId = `tier-${plan.key}`
  return (
    <Card className={cx('price-card', 'tier-card', featured && 'price-card--featured')} data-plan={plan.key}>
      <PlanSummary plan={plan} titleId={titleId} prices={prices} />
      {showDelivery && plan.delivery && (
        <p className="tier-card__delivery">
          <ClockIcon size={16} />
          Delivered in {plan.delivery}
        </p>
      )}
      <CheckList items={plan.features} className="check-list price-card__features" />
      {plan.guarantee && <p className="tier-card__guarantee">{plan.guarantee}</p>}
      <ButtonLink
        to={ctaTo ?? startUrl(type, plan.key)}
        block
        variant={featured ? 'primary' : 'outline'}
        className="price-card__cta"
        aria-describedby={titleId}
      >
        {ctaLabel}
      </ButtonLink>
    </Card>
  )
}

export interface PlanTiersProps {
  type: string
  planKeys: readonly string[]
  ctaLabel?: string
  showDelivery?: boolean
  ctaTo?: string
}

/** A row of tier cards for the given plan keys, loaded from the catalogue. */
export function PlanTiers({ type, planKeys, ctaLabel, showDelivery, ctaTo }: PlanTiersProps) {
  const state = useCatalogue()
  const prices = usePrices(state.catalogue)
  useEffect(preloadPlanPrice, [])
  if (state.status === 'error') {
    return (
      <div className="pricing-fallback">
        <ErrorBox title="We could not load the packages.">{state.error}</ErrorBox>
        <Button variant="outline" onClick={state.retry}>
          Try again
        </Button>
      </div>
    )
  }
  return (
    <>
      <PricesFor value={prices.buyer} onChange={prices.setBuyer} className="pricing-switch" />
      <ul className={cx('pricing-grid', planKeys.length === 4 && 'pricing-grid--4')} aria-busy={state.status === 'loading' || undefined}>
        {state.status === 'loading' && (
          // An <li> may not carry role="status" (axe: aria-allowed-role, list), so the live region sits inside it.
          <li className="visually-hidden">
            <span role="status">Loading packages</span>
          </li>
        )}
        {planKeys.map((key) => (
          <li key={key}>
            <PlanTierCard planKey={key} type={type} catalogue={state.catalogue} ctaLabel={ctaLabel} showDelivery={showDelivery} ctaTo={ctaTo} prices={prices} />
          </li>
        ))}
      </ul>
    </>
  )
}
