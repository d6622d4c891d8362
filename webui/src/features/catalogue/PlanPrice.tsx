/**
 * The price parts of the pricing cards and offers, as the visitor sees them: gross incl. VAT
 * or net excl. VAT, the previous price and the saving on the same basis, money in the
 * visitor's locale. Loaded with the catalogue (the pages show skeletons until both are there),
 * so neither the wording nor Intl is on the landing pages' first load.
 */
import type { Plan } from './catalogue'
import { badgeLabel, badgeTone, billingSuffix } from './labels'
import { Badge } from '../../components/ui/Badge'
import { formatMoney } from '../../lib/money-locale'
import { PreviousPrice } from './PreviousPrice'
import { priceView, taxOf, type PriceView, type Prices } from '../tax'

/** A plan's price for this visitor and the money formatter for their locale. */
function wording(prices: Prices, plan: Plan): { view: PriceView; money: (cents: number, currency: string) => string } {
  return {
    view: priceView(taxOf(prices), prices.buyer, plan.price, plan.original_price),
    money: (cents, currency) => formatMoney(cents, currency, prices.locale),
  }
}

/** The top of every plan card: badge, name, description, price with its tax line, struck price
 * and saving (both on the shown price's basis). Shared by the home pricing section and the
 * landing pages' tier cards. */
export function PlanSummary({ plan, titleId, prices }: { plan: Plan; titleId: string; prices: Prices }) {
  const badge = badgeLabel(plan.badge, plan.family)
  const { view, money } = wording(prices, plan)
  return (
    <>
      {badge && plan.badge && (
        <Badge tone={badgeTone(plan.badge)} className="price-card__badge">
          {badge}
        </Badge>
      )}
      <h3 id={titleId} className="price-card__name">
        {plan.name}
      </h3>
      <p className="price-card__desc">{plan.description}</p>
      <p className="price-card__price">
        <span className="price-card__amount">{money(view.amount, plan.currency)}</span>
        <span className="price-card__suffix">{billingSuffix(plan)}</span>
      </p>
      <p className="price-card__tax" data-price-note="">
        {view.note}
      </p>
      {view.was !== null && (
        <p className="price-card__was">
          <PreviousPrice plan={plan} amount={view.was} format={money} />
          {view.save !== null && <span className="save-badge">Save {view.save}%</span>}
        </p>
      )}
    </>
  )
}

export interface OfferFiguresProps {
  plan: Plan
  prices: Prices
  save: 'percent' | 'amount'
  size: 'md' | 'lg'
  className?: string
}

/** An offer's price, its previous price and saving (on the shown basis), terms and tax line. */
export function OfferFigures({ plan, prices, save, size, className }: OfferFiguresProps) {
  const { view, money } = wording(prices, plan)
  const saving =
    view.was === null
      ? null
      : save === 'amount'
        ? `Save ${money(view.was - view.amount, plan.currency)}`
        : view.save !== null
          ? `Save ${view.save}%`
          : null
  return (
    <div className={`offer-price offer-price--${size}${className ? ` ${className}` : ''}`} data-plan={plan.key}>
      <span className="offer-price__amount">{money(view.amount, plan.currency)}</span>
      {view.was !== null && <PreviousPrice plan={plan} amount={view.was} format={money} className="offer-price__was" />}
      {saving && <span className="offer-price__save">{saving}</span>}
      <span className="offer-price__suffix">
        {plan.mode === 'subscription' ? `per ${plan.interval ?? 'month'}` : 'one-time payment'}
        <span className="offer-price__tax" data-price-note="">
          {view.note}
        </span>
      </span>
    </div>
  )
}
