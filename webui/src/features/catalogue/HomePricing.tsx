import { useEffect, useState } from 'react'
import { CheckIcon } from '../../components/icons/CheckIcon'
import { Badge } from '../../components/ui/Badge'
import { Button, ButtonLink } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { ErrorBox } from '../../components/ui/ErrorBox'
import { useAuth, type User } from '../../lib/auth'
import { api } from '../../lib/api-client'
import { DEFAULT_FAMILY, familyPlans, useCatalogue, type Plan } from './catalogue'
import { claimAttrs, claimText } from '../../lib/claims'
import { cx } from '../../lib/cx'
import { usePrices, type Prices } from '../tax'
import { PlanSummary, PricesFor, preloadPlanPrice } from './OfferPrice'

/**
 * The home page's website plans. Prerendered (and first rendered on the client) as skeleton
 * cards, so hydration matches; the plans come from the catalogue in an effect.
 */
export function HomePricing() {
  const { user } = useAuth()
  const state = useCatalogue()
  const prices = usePrices(state.catalogue)
  useEffect(preloadPlanPrice, [])
  // The price id paid for, remembered with the user it was fetched for: another user (or none)
  // has no current plan until their own answer arrives.
  const [paid, setPaid] = useState<{ user: User; priceId: string | null } | null>(null)
  const currentPriceId = paid && paid.user === user ? paid.priceId : null

  useEffect(() => {
    if (!user) return undefined
    let live = true
    // Only the price id is needed here (no need to pull the dashboard's billing helpers).
    api.get('/api/billing/subscription').then(
      ({ subscription }) =>
        live && setPaid({ user, priceId: subscription?.subscription_status === 'active' ? subscription.price_id : null }),
      () => undefined, // the cards still work without it
    )
    return () => {
      live = false
    }
  }, [user])

  if (state.status === 'error') {
    return (
      <div className="pricing-fallback">
        <ErrorBox title="We could not load the plans.">{state.error}</ErrorBox>
        <Button variant="outline" onClick={state.retry}>
          Try again
        </Button>
      </div>
    )
  }

  // Prerendered with the default choice; the remembered one applies once hydrated.
  const pricesFor = <PricesFor value={prices.buyer} onChange={prices.setBuyer} className="pricing-switch" />

  if (state.status === 'loading') {
    return (
      <>
        {pricesFor}
        <div className="pricing-grid" aria-busy="true">
          <span className="visually-hidden" role="status">
            Loading plans
          </span>
          {[0, 1, 2].map((n) => (
            <div key={n} className={cx('price-card', 'price-card--skeleton', 'card', n === 1 && 'price-card--featured')} aria-hidden="true">
              <span className="skeleton skeleton--title" />
              <span className="skeleton skeleton--line" />
              <span className="skeleton skeleton--price" />
              <span className="skeleton skeleton--line" />
              <span className="skeleton skeleton--line skeleton--short" />
              <span className="skeleton skeleton--line" />
              <span className="skeleton skeleton--button" />
            </div>
          ))}
        </div>
      </>
    )
  }

  const plans = familyPlans(state.catalogue, DEFAULT_FAMILY)
  // An urgency claim (the operator's, switched off with the others): only above plans whose
  // previous price the catalogue recorded.
  const launchNote = claimText('launch_pricing')
  const launch = launchNote !== null && plans.some((plan) => plan.original_price !== null && plan.original_price > plan.price)
  return (
    <>
      {pricesFor}
      {launch && (
        <p className="pricing-launch" {...claimAttrs('launch_pricing')}>
          <Badge tone="yellow">{launchNote}</Badge>
        </p>
      )}
      <ul className="pricing-grid">
        {plans.map((plan) => (
          <li key={plan.key}>
            <PriceCard plan={plan} prices={prices} current={plan.price_id !== null && plan.price_id === currentPriceId} />
          </li>
        ))}
      </ul>
    </>
  )
}

function PriceCard({ plan, prices, current }: { plan: Plan; prices: Prices; current: boolean }) {
  const featured = plan.badge === 'popular'
  const titleId = `price-${plan.key}`
  return (
    <Card className={cx('price-card', featured && 'price-card--featured', current && 'price-card--current')}>
      <PlanSummary plan={plan} titleId={titleId} prices={prices} />
      <ul className="check-list price-card__features">
        {plan.features.map((feature) => (
          <li key={feature}>
            <CheckIcon size={18} className="check-list__icon" />
            {feature}
          </li>
        ))}
      </ul>
      {current ? (
        <Button block disabled variant="outline" className="price-card__cta">
          Current Plan
        </Button>
      ) : (
        <ButtonLink
          to={`/start?type=${encodeURIComponent(plan.family)}&plan=${encodeURIComponent(plan.key)}`}
          block
          variant={featured ? 'primary' : 'outline'}
          className="price-card__cta"
          aria-describedby={titleId}
        >
          Get Started
        </ButtonLink>
      )}
    </Card>
  )
}
