import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetCatalogueCache } from '../../catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockSignedIn, renderApp, stubLocationAssign, testUser, type FakeResponse } from '@test/utils'

const subscription = {
  subscription_status: 'active',
  price_id: 'price_starter',
  plan_key: 'starter',
  plan_name: 'Starter',
  current_period_end: Date.UTC(2026, 11, 22, 12) / 1000,
  cancel_at_period_end: false,
  payment_method_brand: 'mastercard',
  payment_method_last4: '5555',
}

const orders = [
  { id: 2, plan_key: 'starter', plan_name: 'Starter', amount: 1900, currency: 'eur', status: 'paid', order_date: '2026-11-22T09:00:00Z', card_brand: 'mastercard', card_last4: '5555' },
  { id: 1, plan_key: 'pro-ai', plan_name: 'Pro AI', amount: 99900, currency: 'EUR', status: 'pending', order_date: '2026-10-02T09:00:00Z', card_brand: null, card_last4: null },
]

function mockBilling(sub: object | null, list: object[], portal?: () => FakeResponse) {
  return mockSignedIn(testUser, (method, url) => {
    if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
    if (url === '/api/billing/subscription') return { status: 200, body: { subscription: sub } }
    if (url === '/api/billing/orders') return { status: 200, body: { orders: list } }
    if (url === '/api/invoices') return { status: 200, body: { invoices: [] } }
    if (method === 'POST' && url === '/api/billing/portal' && portal) return portal()
    return undefined
  })
}

beforeEach(() => resetCatalogueCache())

describe('/dashboard/billing', () => {
  it('shows the plan, card, next billing date and the orders newest first', async () => {
    mockBilling(subscription, orders)
    renderApp('/dashboard/billing')
    const table = await screen.findByRole('table')
    expect(screen.getByText('Active subscription')).toBeInTheDocument()
    expect(screen.getAllByText('Mastercard •••• 5555').length).toBeGreaterThanOrEqual(2)
    expect(screen.getByText('22 December 2026')).toBeInTheDocument()
    const headers = within(table).getAllByRole('columnheader').map((th) => th.textContent)
    expect(headers).toEqual(['Date', 'Package', 'Amount', 'Status', 'Card'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows[0]).toHaveTextContent('22 November 2026')
    expect(rows[0]).toHaveTextContent('€19')
    expect(within(rows[0]).getByText('Paid')).toHaveClass('badge--green')
    expect(rows[1]).toHaveTextContent('Pro AI')
    expect(rows[1]).toHaveTextContent('€999')
    expect(within(rows[1]).getByText('Pending')).toHaveClass('badge--yellow')
  })

  it('reads "Ends on DATE" for a subscription set to cancel, not "Next billing date"', async () => {
    mockBilling({ ...subscription, cancel_at_period_end: true }, orders)
    renderApp('/dashboard/billing')
    await screen.findByRole('table')
    expect(screen.getByText('Ends on')).toBeInTheDocument()
    expect(screen.queryByText('Next billing date')).not.toBeInTheDocument()
    expect(screen.getByText(/Cancelled: your subscription ends on 22 December 2026/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Cancel contracts here' })).toHaveAttribute('href', '/cancel')
  })

  it('shows an empty state with a link to /start', async () => {
    mockBilling(null, [])
    renderApp('/dashboard/billing')
    expect(await screen.findByText('No orders yet.')).toBeInTheDocument()
    expect(screen.getByText('No active subscription')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Browse packages' })).toHaveAttribute('href', '/start')
    // No subscription, nothing for the Stripe portal to manage: no button leading to an error.
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).not.toBeInTheDocument()
  })

  it('opens the customer portal', async () => {
    const assign = stubLocationAssign()
    const fetchMock = mockBilling(subscription, orders, () => ({ status: 200, body: { url: 'https://billing.stripe.test/p/1' } }))
    renderApp('/dashboard/billing')
    await screen.findByRole('table')
    await userEvent.click(screen.getByRole('button', { name: 'Manage subscription' }))
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/billing/portal' && (init as RequestInit).method === 'POST')).toBe(true)
    expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/1')
  })

  it('shows the portal error', async () => {
    mockBilling(subscription, [], () => ({
      status: 400,
      body: { error: { code: 'no_customer', message: 'You have no billing account yet: buy a plan first.' } },
    }))
    renderApp('/dashboard/billing')
    await screen.findByText('No orders yet.')
    await userEvent.click(screen.getByRole('button', { name: 'Manage subscription' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You have no billing account yet: buy a plan first.')
    expect(screen.getByRole('button', { name: 'Manage subscription' })).toBeEnabled()
  })
})
