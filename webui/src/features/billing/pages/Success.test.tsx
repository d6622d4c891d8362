import { act, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mockFetch, mockSignedIn, renderApp, testUser } from '@test/utils'
import { MSG_LATE } from './Success'

const STATUS_URL = '/api/billing/checkout/cs_test_1'

function mockStatus(getStatus: () => string) {
  return mockSignedIn(testUser, (_method, url) =>
    url === STATUS_URL
      ? { status: 200, body: { status: getStatus(), mode: 'subscription', plan_key: 'professional', plan_name: 'Professional' } }
      : undefined,
  )
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
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
    expect(screen.getByText(/Our team starts on your website immediately/)).toBeInTheDocument()
    expect(screen.getByText(/email with the next steps/)).toBeInTheDocument()
    expect(screen.getByText('Professional')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(screen.getAllByRole('link', { name: 'Contact support' })[0]).toHaveAttribute('href', '/support')

    // Polling stops once paid.
    const calls = fetchMock.mock.calls.length
    await advance(10_000)
    expect(fetchMock.mock.calls.length).toBe(calls)
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
