import { useState } from 'react'
import { Link } from '../../../lib/router'
import { CurrentPlanTop } from '../CurrentPlanTop'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { Badge } from '../../../components/ui/Badge'
import { Button, ButtonLink } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { ErrorBox } from '../../../components/ui/ErrorBox'
import { api, errorMessage } from '../../../lib/api-client'
import {
  cardLabel,
  fetchOrders,
  fetchSubscription,
  formatIsoDate,
  formatPeriodEnd,
  isActive,
  orderStatusTone,
  PORTAL_PATH,
  statusText,
  subscriptionPlanName,
  type Order,
  type Subscription,
} from '../billing'
import { formatPrice, loadCatalogue, type Catalogue } from '../../catalogue'
import { InvoicesSection } from '../../invoices'
import { useApiData } from '../../../lib/use-api-data'

interface Loaded {
  subscription: Subscription | null
  orders: Order[]
  catalogue: Catalogue | null
}

async function loadBilling(): Promise<Loaded> {
  // The catalogue only names a plan the API did not name: its failure is not fatal.
  const catalogue = loadCatalogue().catch(() => null)
  const [subscription, orders, cat] = await Promise.all([fetchSubscription(), fetchOrders(), catalogue])
  return { subscription, orders, catalogue: cat }
}

export default function BillingPage() {
  const billing = useApiData('billing', loadBilling)

  return (
    <div className="dash-page">
      <DashPageHeader heading="Billing" text="Your plan, payment card, next billing date and orders." />
      <LoadState state={billing} loading="Loading your billing details" failed="We could not load your billing details.">
        {(data) => (
          <div className="billing-stack">
            <PlanSummary subscription={data.subscription} catalogue={data.catalogue} />
            <OrdersTable orders={data.orders} />
            <InvoicesSection />
          </div>
        )}
      </LoadState>
    </div>
  )
}

function PlanSummary({ subscription, catalogue }: { subscription: Subscription | null; catalogue: Catalogue | null }) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const active = isActive(subscription)
  const planName = subscriptionPlanName(subscription, catalogue)
  const card = subscription ? cardLabel(subscription.payment_method_brand, subscription.payment_method_last4) : null

  const openPortal = async () => {
    setProblem(null)
    setBusy(true)
    try {
      const { url } = await api.post(PORTAL_PATH)
      window.location.assign(url)
    } catch (err) {
      setProblem(errorMessage(err))
      setBusy(false)
    }
  }

  return (
    <Card className="dash-card plan-card billing-plan">
      <CurrentPlanTop headingId="billing-plan-title" active={active} />
      <p className="plan-card__name">{planName ?? (subscription ? 'Your plan' : 'No plan yet')}</p>
      {subscription ? (
        <dl className="plan-card__facts plan-card__facts--wide">
          <div>
            <dt>Status</dt>
            <dd>{statusText(subscription.subscription_status)}</dd>
          </div>
          <div>
            <dt>{subscription.cancel_at_period_end ? 'Ends on' : 'Next billing date'}</dt>
            <dd>{formatPeriodEnd(subscription.current_period_end)}</dd>
          </div>
          <div>
            <dt>Payment method</dt>
            <dd>{card ?? 'No card on file'}</dd>
          </div>
        </dl>
      ) : (
        <p className="plan-card__note">
          You have no subscription yet. <Link to="/start">Browse our packages</Link> to get started.
        </p>
      )}
      {subscription?.cancel_at_period_end && (
        <p className="plan-card__note">
          Cancelled: your subscription ends on {formatPeriodEnd(subscription.current_period_end)} and will not renew.
        </p>
      )}
      {problem && <ErrorBox className="billing-plan__error">{problem}</ErrorBox>}
      {/* The Stripe portal manages a subscription: without one there is nothing to open. */}
      {subscription && (
        <div className="billing-plan__actions">
          <Button variant="outline" busy={busy} onClick={() => void openPortal()}>
            Manage subscription
          </Button>
          <p className="billing-plan__hint">
            Change your card, download invoices or cancel in the secure Stripe portal, or cancel with{' '}
            <Link to="/cancel">Cancel contracts here</Link>.
          </p>
        </div>
      )}
    </Card>
  )
}

function OrdersTable({ orders }: { orders: Order[] }) {
  return (
    <section className="dash-section" aria-labelledby="orders-title">
      <h2 id="orders-title" className="dash-section__title">
        Orders
      </h2>
      {orders.length === 0 ? (
        <Card className="dash-card empty-state">
          <p className="empty-state__title">No orders yet.</p>
          <p className="empty-state__text">When you buy a package, your orders and receipts appear here.</p>
          <ButtonLink to="/start" size="sm">
            Browse packages
          </ButtonLink>
        </Card>
      ) : (
        <div className="table-wrap card">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Package</th>
                <th scope="col" className="data-table__num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Card</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.id}>
                  <td data-label="Date">{formatIsoDate(order.order_date)}</td>
                  <td data-label="Package">{order.plan_name ?? order.plan_key ?? '—'}</td>
                  <td data-label="Amount" className="data-table__num">{formatPrice(order.amount, order.currency.toUpperCase())}</td>
                  <td data-label="Status">
                    <Badge tone={orderStatusTone(order.status)}>{statusText(order.status)}</Badge>
                  </td>
                  <td data-label="Card">{cardLabel(order.card_brand, order.card_last4) ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
