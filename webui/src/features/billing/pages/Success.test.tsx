import { act, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mockFetch, mockSignedIn, renderApp, testUser } from '@test/utils'
import { testCatalogue } from '@test/catalogue'
import { resetCatalogueCache } from '../../catalogue'
import { MSG_LATE } from './Success'

const STATUS_URL = '/api/billing/checkout/cs_test_1'

function mockStatus(getStatus: () => string, extra: Record<string, unknown> = {}) {
  return mockSignedIn(testUser, (_method, url) => {
    if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
    if (url !== STATUS_URL) return undefined
    const status = getStatus()
    const paid = status === 'paid' ? { order_number: 'AG-000042', buyer_type: 'business', early_start_consent: false, work_starts_on: null, ...extra } : {}
    return { status: 200, body: { status, mode: 'subscription', plan_key: 'professional', plan_name: 'Professional', ...paid } }
  })
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  resetCatalogueCache()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('/success', () => {
  it('confirms the payment only once the status turns "paid"', async () => {
    let status = 'pending'
    const fetchMock = mockStatus(() => status)
    renderApp('/success?session_id=cs_test_1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Confirming your payment…' })).toBeInTheDocument()
    await advance(2000)
    expect(screen.queryByText('Payment Successful.')).not.toBeInTheDocument()
    expect(fetchMock.mock.calls.filter(([url]) => url === STATUS_URL).length).toBeGreaterThanOrEqual(2)

    status = 'paid'
    await advance(2000)
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful.' })).toBeInTheDocument()
    expect(screen.getByText(/Our team starts on your order immediately/)).toBeInTheDocument()
    expect(screen.getByText('The order confirmation is on its way to your email address.')).toBeInTheDocument()
    expect(screen.getByText('AG-000042')).toBeInTheDocument()
    expect(screen.getByText('Professional')).toBeInTheDocument()
    // The package's promises, from the catalogue as on /start.
    expect(await screen.findByText('Delivery in 24 hours · Cancel anytime')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(screen.getAllByRole('link', { name: 'Contact support' })[0]).toHaveAttribute('href', '/support')

    // Polling stops once paid.
    const calls = fetchMock.mock.calls.length
    await advance(10_000)
    expect(fetchMock.mock.calls.length).toBe(calls)
  })

  it('tells a consumer who did not consent to an early start when work starts', async () => {
    mockStatus(() => 'paid', { buyer_type: 'consumer', work_starts_on: '2026-12-10T12:00:00Z' })
    renderApp('/success?session_id=cs_test_1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful.' })).toBeInTheDocument()
    expect(screen.getByText(/We start work on 10 December 2026, when your 14-day withdrawal period has ended/)).toBeInTheDocument()
    expect(screen.queryByText(/immediately/)).not.toBeInTheDocument()
  })

  it('explains a late confirmation after 60 seconds', async () => {
    mockStatus(() => 'pending')
    renderApp('/success?session_id=cs_test_1')
    await screen.findByRole('heading', { level: 1, name: 'Confirming your payment…' })
    await advance(61_000)
    expect(await screen.findByText(MSG_LATE)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(screen.queryByText('Payment Successful.')).not.toBeInTheDocument()
  })

  it('explains an expired session at once', async () => {
    mockStatus(() => 'expired')
    renderApp('/success?session_id=cs_test_1')
    expect(await screen.findByText(MSG_LATE)).toBeInTheDocument()
  })

  it('explains a missing session id', async () => {
    mockSignedIn()
    renderApp('/success')
    expect(await screen.findByRole('heading', { level: 1, name: 'No payment to confirm' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard')
  })

  it('sends visitors to /login', async () => {
    mockFetch(() => ({ status: 404 }))
    renderApp('/success?session_id=cs_test_1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back.' })).toBeInTheDocument()
  })
})
