// In pages/ (a page body, as the build counts it): the small components and helpers it and
// PurchaseForm use are bundled into the purchase pages' own chunk (vite.config.ts pageChunks)
// instead of a dozen shared chunks of a few hundred bytes each, ~1.4 kB gzip less first load.
import { useState, type ReactNode } from 'react'
import { CheckIcon } from '../../../components/icons/CheckIcon'
import { Button } from '../../../components/ui/Button'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { Container } from '../../../components/ui/Section'
import { Spinner } from '../../../components/ui/Spinner'
import { Link } from '../../../lib/router'
import { useCatalogue, type Catalogue, type Family, type Plan } from '../../catalogue'
import { priceView, taxOf, usePrices, type PriceView, type TaxDisplay } from '../../tax'
import { paymentsReady } from '../payments'
import { PurchaseForm, priceTerms, type PurchasePage } from './PurchaseForm'
import { useMoney } from '../purchase-money'
// Purchase styles load with the purchase pages only.
import '../purchase.css'

export const MSG_CANCELED =
  'Your checkout was cancelled and nothing was charged. Your package is still selected below whenever you are ready.'

export interface PurchaseSelection {
  family: Family
  plans: Plan[]
  initialPlan: string | null
  /** Show only the preselected package at first. */
  narrow?: boolean
  title: string
  description: string
}

export interface PurchaseLayoutProps {
  page: PurchasePage
  canceled: boolean
  /** What to offer, from the loaded catalogue (null: nothing to sell). */
  select: (catalogue: Catalogue) => PurchaseSelection | null
  eyebrow?: ReactNode
}

/**
 * /start and /ai-start: the heading, notes and form. Served with the catalogue embedded (the
 * server fills it into the page it prerendered for the query's family and plan), so the page
 * reads complete before its scripts run and hydrates without a fetch; the form shows the
 * signed-in state once the user is known, in the same space.
 */
export function PurchaseLayout({ page, canceled, select, eyebrow }: PurchaseLayoutProps) {
  const state = useCatalogue()

  if (state.status === 'loading') {
    return (
      <div className="page-loading">
        <Spinner label="Loading packages" size="lg" />
      </div>
    )
  }

  if (state.status === 'error') {
    return (
      <Container size="sm" className="purchase-fallback">
        <ErrorBox title="We could not load the packages.">{state.error}</ErrorBox>
        <Button onClick={state.retry}>Try again</Button>
      </Container>
    )
  }

  const selection = select(state.catalogue)
  if (!selection || selection.plans.length === 0) {
    return (
      <Container size="sm" className="purchase-fallback">
        <ErrorBox title="No packages are available right now.">Please contact us to order.</ErrorBox>
      </Container>
    )
  }

  return <PurchaseBody key={selection.family.key} page={page} canceled={canceled} eyebrow={eyebrow} selection={selection} tax={taxOf(state.catalogue)} />
}

function PurchaseBody({
  page,
  canceled,
  eyebrow,
  selection,
  tax,
}: {
  page: PurchasePage
  canceled: boolean
  eyebrow?: ReactNode
  selection: PurchaseSelection
  tax: TaxDisplay
}) {
  const { family, plans, initialPlan, title, description, narrow } = selection
  const [planKey, setPlanKey] = useState(initialPlan)
  // The form's price for the package (its buyer type, country and VAT ID), once it says.
  const [view, setView] = useState<PriceView | null>(null)
  // Read once: the first HTML already says it (the server filled it in), so nothing moves.
  const [payments] = useState(paymentsReady)
  const selected = plans.find((plan) => plan.key === planKey) ?? null
  return (
    <div className="purchase">
      <Container size="lg">
        {!payments && (
          <p className="purchase-note purchase-note--warn" role="status" data-payments-notice="">
            Payments are not set up yet. Please <Link to="/contact">contact us</Link> to order.
          </p>
        )}
        <div className="purchase__head">
          {eyebrow && <p className="purchase__eyebrow">{eyebrow}</p>}
          <h1 className="purchase__title">{title}</h1>
          <p className="purchase__text">{description}</p>
        </div>
        {canceled && (
          <div className="purchase-note" role="status">
            {MSG_CANCELED}
          </div>
        )}
        <div className="purchase__grid">
          <div className="purchase__main">
            <PurchaseForm
              page={page}
              family={family}
              plans={plans}
              initialPlan={initialPlan}
              narrow={narrow ?? false}
              canceled={canceled}
              onPlanChange={setPlanKey}
              tax={tax}
              onViewChange={setView}
            />
          </div>
          <PurchaseAside family={family} selected={selected} tax={tax} formView={view} />
        </div>
      </Container>
    </div>
  )
}

/** The family's promises, and the package picked (it follows the form). */
function PurchaseAside({
  family,
  selected,
  tax,
  formView,
}: {
  family: Family
  selected: Plan | null
  tax: TaxDisplay
  formView: PriceView | null
}) {
  const prices = usePrices({ tax })
  const { money } = useMoney(prices.locale)
  const view = selected ? (formView ?? priceView(tax, prices.buyer, selected.price, selected.original_price)) : null
  return (
    <aside className="purchase__aside" aria-label="Why order with us">
      <div className="purchase-aside card">
        <h2 className="purchase-aside__title">What you get</h2>
        <ul className="check-list">
          {family.bullets.map((bullet) => (
            <li key={bullet}>
              <CheckIcon size={18} className="check-list__icon" />
              {bullet}
            </li>
          ))}
        </ul>
        {selected && (
          <p className="purchase-aside__from">
            {selected.name}: <strong>{priceTerms(selected, money, view?.amount)}</strong> {view?.note}
          </p>
        )}
      </div>
    </aside>
  )
}
