import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockSignedIn, renderApp, sentBody, testUser } from '@test/utils'

const site = { id: 7, domain: 'hopper.example', page_speed: null, status: 'building', created_at: '2026-11-20T10:00:00Z' }
const other = { id: 8, domain: 'bakery.example', page_speed: 93, status: 'live', created_at: '2026-11-19T10:00:00Z' }

const result = {
  score: 95,
  rating: 'Excellent',
  speed_index_ms: 1200,
  total_blocking_time_ms: 40,
  largest_contentful_paint_ms: 1800,
  cumulative_layout_shift: 0.02,
  first_contentful_paint_ms: 900,
  field_data: [{ name: 'LCP', percentile: 2100, category: 'FAST' }],
  opportunities: [],
  provider: 'psi',
}

function detail(extra: object = {}) {
  return {
    website: { ...site, status: 'live', page_speed: 95 },
    status_text: 'Your website is live. We test its speed regularly and tell you if the score drops.',
    plan_name: 'Professional',
    delivery: 'Your Professional plan is delivered within 24 hours.',
    latest: result,
    latest_at: '2026-11-21T10:00:00Z',
    history: [{ at: '2026-11-21T10:00:00Z', score: 95 }],
    check: null,
    ...extra,
  }
}

describe('/dashboard/websites', { timeout: 20000 }, () => {
  it('shows the cards, New Website and the dashed tile', async () => {
    mockSignedIn(testUser, (method, url) => (method === 'GET' && url === '/api/sites' ? { status: 200, body: { websites: [site, other] } } : undefined))
    renderApp('/dashboard/websites')
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Websites' })).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'hopper.example' })).toBeInTheDocument()
    expect(screen.getByText('BUILDING')).toBeInTheDocument()
    expect(screen.getByText('LIVE')).toBeInTheDocument()
    expect(screen.getByText('N/A')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'New Website' })).toHaveAttribute('href', '/start?type=website')
    expect(screen.getByRole('link', { name: 'Create a new website' })).toHaveAttribute('href', '/start?type=website')
    expect(screen.getByRole('link', { name: /View details\s*of hopper\.example/ })).toHaveAttribute('href', '/dashboard/websites/7')
  })

  it('says so when there are none, and shows a load failure with Try again', async () => {
    let fail = true
    mockSignedIn(testUser, (_method, url) => {
      if (url !== '/api/sites') return undefined
      return fail ? { status: 500, body: { error: { code: 'internal', message: 'Boom.' } } } : { status: 200, body: { websites: [] } }
    })
    renderApp('/dashboard/websites')
    expect(await screen.findByText('We could not load your websites.')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('You have no websites yet.')).toBeInTheDocument()
  })

  it('removes a site only after the confirmation', async () => {
    const fetchMock = mockSignedIn(testUser, (method, url) => {
      if (method === 'GET' && url === '/api/sites') return { status: 200, body: { websites: [site, other] } }
      if (method === 'DELETE' && url === '/api/sites/7') return { status: 200, body: { websites: [other] } }
      return undefined
    })
    renderApp('/dashboard/websites')
    await userEvent.click(await screen.findByRole('button', { name: /^Remove\s*hopper\.example$/ }))
    const confirm = screen.getByRole('group', { name: /^Remove\s*hopper\.example$/ })
    expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit).method === 'DELETE')).toBe(false)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('group', { name: /^Remove\s*hopper\.example$/ })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: /^Remove\s*hopper\.example$/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Yes, remove it' }))
    expect(await screen.findByText('hopper.example was removed from your websites.')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'hopper.example' })).toBeNull()
    expect(screen.getByRole('heading', { name: 'bakery.example' })).toBeInTheDocument()
  })
})

describe('/dashboard/websites: going live, removing and a new website for a subscriber', { timeout: 20000 }, () => {
  const subscription = {
    subscription_status: 'active',
    price_id: 'price_pro',
    plan_key: 'professional',
    plan_name: 'Professional',
    current_period_end: null,
    cancel_at_period_end: false,
    payment_method_brand: null,
    payment_method_last4: null,
  }
  const measuring = { ...other, page_speed: null, went_live_at: '2026-11-25T10:00:00Z', measuring: true }

  it('says a site that went live is being measured, never an old score, then shows the new one', async () => {
    let done = false
    mockSignedIn(testUser, (method, url) => {
      if (method === 'GET' && url === '/api/sites')
        return { status: 200, body: { websites: [done ? { ...measuring, page_speed: 99, measuring: false } : measuring] } }
      if (url === '/api/billing/subscription') return { status: 200, body: { subscription: null } }
      return undefined
    })
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      renderApp('/dashboard/websites')
      const card = (await screen.findByRole('heading', { name: 'bakery.example' })).closest('article') as HTMLElement
      expect(within(card).getByText('Measuring…')).toBeInTheDocument()
      expect(within(card).getByText(/Measuring your new site/)).toBeInTheDocument()
      expect(within(card).queryByText('N/A')).toBeNull()
      expect(within(card).getByRole('progressbar')).toHaveAttribute('aria-valuetext', 'Being measured')
      done = true
      await vi.advanceTimersByTimeAsync(10_500)
      await waitFor(() => expect(within(card).getByText('99')).toBeInTheDocument())
      expect(within(card).queryByText('Measuring…')).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it('sends a subscriber to Billing before removing a live site, and says what removing does not do', async () => {
    mockSignedIn(testUser, (method, url) => {
      if (method === 'GET' && url === '/api/sites') return { status: 200, body: { websites: [other] } }
      if (url === '/api/billing/subscription') return { status: 200, body: { subscription } }
      if (method === 'DELETE' && url === '/api/sites/8') return { status: 200, body: { websites: [] } }
      return undefined
    })
    renderApp('/dashboard/websites')
    await userEvent.click(await screen.findByRole('button', { name: /^Remove\s*bakery\.example$/ }))
    const confirm = screen.getByRole('group', { name: /^Remove\s*bakery\.example$/ })
    expect(confirm).toHaveTextContent(
      'Removing bakery.example only takes it off this list. Your Professional subscription keeps running and being charged, and we keep hosting the site. To stop paying, cancel the subscription on Billing first.',
    )
    expect(within(confirm).getByRole('link', { name: 'Go to Billing' })).toHaveAttribute('href', '/dashboard/billing')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove from list only' }))
    expect(await screen.findByText('bakery.example was removed from your websites.')).toBeInTheDocument()
  })

  it('says a live site without a subscription is only taken off the list', async () => {
    mockSignedIn(testUser, (method, url) => {
      if (method === 'GET' && url === '/api/sites') return { status: 200, body: { websites: [other] } }
      if (url === '/api/billing/subscription') return { status: 200, body: { subscription: null } }
      return undefined
    })
    renderApp('/dashboard/websites')
    await userEvent.click(await screen.findByRole('button', { name: /^Remove\s*bakery\.example$/ }))
    const confirm = screen.getByRole('group', { name: /^Remove\s*bakery\.example$/ })
    expect(confirm).toHaveTextContent('it does not take the site offline or change anything in Billing')
    expect(within(confirm).queryByRole('link', { name: 'Go to Billing' })).toBeNull()
    expect(within(confirm).getByRole('button', { name: 'Yes, remove it' })).toBeInTheDocument()
  })

  it('tells a subscriber that New Website starts a second subscription before the plans', async () => {
    mockSignedIn(testUser, (method, url) => {
      if (method === 'GET' && url === '/api/sites') return { status: 200, body: { websites: [other] } }
      if (url === '/api/billing/subscription') return { status: 200, body: { subscription } }
      return undefined
    })
    renderApp('/dashboard/websites')
    const button = await screen.findByRole('button', { name: 'New Website' })
    expect(screen.queryByRole('link', { name: 'New Website' })).toBeNull()
    await userEvent.click(button)
    expect(button).toHaveAttribute('aria-expanded', 'true')
    const note = screen.getByRole('group', { name: 'A new website' })
    expect(note).toHaveFocus()
    expect(note).toHaveTextContent(
      'Each website is a plan of its own, so a new website starts a second subscription with its own monthly payment, next to your Professional subscription, which stays as it is.',
    )
    expect(within(note).getByRole('link', { name: 'See website plans' })).toHaveAttribute('href', '/start?type=website')
    await userEvent.click(within(note).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('group', { name: 'A new website' })).toBeNull()
    expect(button).toHaveFocus()
    await userEvent.click(button)
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('group', { name: 'A new website' })).toBeNull()
    // The dashed tile says the same.
    await userEvent.click(screen.getByRole('button', { name: 'Create a new website' }))
    expect(screen.getByRole('group', { name: 'A new website' })).toHaveTextContent('starts a second subscription')
  })
})

describe('/dashboard/websites/{id}', () => {
  it('says the live site is being measured and marks the day it went live on the chart', async () => {
    mockSignedIn(testUser, (_method, url) =>
      url === '/api/sites/7'
        ? {
            status: 200,
            body: detail({
              website: { ...site, status: 'live', page_speed: null, went_live_at: '2026-11-25T10:00:00Z', measuring: true },
              latest: null,
              latest_at: null,
              history: [{ at: '2026-11-21T10:00:00Z', score: 55 }],
            }),
          }
        : undefined,
    )
    renderApp('/dashboard/websites/7')
    expect(await screen.findByText(/Measuring your new site: the first speed test of the live site is running/)).toBeInTheDocument()
    expect(screen.queryByText('No speed test yet.')).toBeNull()
    expect(
      screen.getByRole('img', { name: 'Speed score history of hopper.example: one test, 55 out of 100. Live since 25 Nov 2026. The first test measured the site before it went live.' }),
    ).toBeInTheDocument()
    expect(screen.getByText('Live', { selector: 'text' })).toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Speed scores of hopper.example, oldest first' })
    expect(within(table).getByRole('cell', { name: 'Before going live' })).toBeInTheDocument()
  })


  it('shows status, promise, latest figures and the chart with its table', async () => {
    mockSignedIn(testUser, (_method, url) => (url === '/api/sites/7' ? { status: 200, body: detail({ website: site, latest: null, latest_at: null, history: [], status_text: 'We are building your website.' }) } : undefined))
    renderApp('/dashboard/websites/7')
    expect(await screen.findByRole('heading', { level: 1, name: 'hopper.example' })).toBeInTheDocument()
    expect(screen.getByText('We are building your website.')).toBeInTheDocument()
    expect(screen.getByText('Your Professional plan is delivered within 24 hours.')).toBeInTheDocument()
    expect(screen.getByText('No speed test yet.')).toBeInTheDocument()
    expect(screen.getByText(/No speed tests of hopper.example yet/)).toBeInTheDocument()
  })

  it('runs a speed test, shows its progress and reloads the figures when it ends', async () => {
    let ended = false
    const fetchMock = mockSignedIn(testUser, (method, url) => {
      if (method === 'GET' && url === '/api/sites/7')
        return { status: 200, body: ended ? detail({ history: [{ at: '2026-11-21T10:00:00Z', score: 95 }, { at: '2026-11-22T10:00:00Z', score: 91 }], latest: { ...result, score: 91 } }) : detail() }
      if (method === 'POST' && url === '/api/sites/7/speed-tests')
        return { status: 202, body: { id: 3, kind: 'manual', status: 'queued', score: null, error: null, created_at: '2026-11-22T10:00:00Z', finished_at: null } }
      if (method === 'GET' && url === '/api/sites/7/speed-tests/latest') {
        ended = true
        return { status: 200, body: { id: 3, kind: 'manual', status: 'done', score: 91, error: null, created_at: '2026-11-22T10:00:00Z', finished_at: '2026-11-22T10:00:20Z' } }
      }
      return undefined
    })
    renderApp('/dashboard/websites/7')
    const table = await screen.findByRole('table', { name: 'Speed scores of hopper.example, oldest first' })
    expect(within(table).getAllByRole('row')).toHaveLength(2)
    expect(screen.getAllByText('Largest Contentful Paint')).toHaveLength(2)
    expect(screen.getByText('What real visitors experienced')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Run speed test' }))
    expect(await screen.findByRole('progressbar', { name: 'Speed test of hopper.example' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Speed test running…' })).toBeDisabled()
    await waitFor(() => expect(within(screen.getByRole('table', { name: /Speed scores/ })).getAllByRole('row')).toHaveLength(3), { timeout: 5000 })
    expect(screen.getByRole('img', { name: 'Speed score history of hopper.example: 2 tests, from 95 to 91 out of 100.' })).toBeInTheDocument()
    expect(fetchMock.mock.calls.filter(([input]) => input === '/api/sites/7/speed-tests')).toHaveLength(1)
  })

  it('shows the server refusing a second running test', async () => {
    mockSignedIn(testUser, (method, url) => {
      if (url === '/api/sites/7') return { status: 200, body: detail() }
      if (method === 'POST') return { status: 409, body: { error: { code: 'speed_test_running', message: 'A speed test of this website is already running.' } } }
      return undefined
    })
    renderApp('/dashboard/websites/7')
    await userEvent.click(await screen.findByRole('button', { name: 'Run speed test' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('A speed test of this website is already running.')
  })

  it("answers another customer's site with the server's 404", async () => {
    mockSignedIn(testUser, () => ({ status: 404, body: { error: { code: 'not_found', message: 'This website does not exist.' } } }))
    renderApp('/dashboard/websites/99')
    expect(await screen.findByText('This website does not exist.')).toBeInTheDocument()
  })
})

describe('/dashboard/admin/websites', () => {
  const admin = { ...testUser, id: 2, role: 'admin' }
  const row = { ...site, user_id: 1, customer_email: 'grace@hopper.example', customer_name: 'Grace Hopper', plan_key: 'professional', status_changed_at: null }

  it('filters, searches and moves a site to live', async () => {
    let status = 'building'
    const fetchMock = mockSignedIn(admin, (method, url) => {
      if (method === 'GET' && url.startsWith('/api/admin/sites')) return { status: 200, body: { websites: [{ ...row, status }] } }
      if (method === 'PUT' && url === '/api/admin/sites/7/status') {
        status = 'live'
        return { status: 200, body: { ...row, status: 'live' } }
      }
      return undefined
    })
    renderApp('/dashboard/admin/websites')
    const tr = (await screen.findByRole('rowheader', { name: 'hopper.example' })).closest('tr') as HTMLElement
    expect(tr).toHaveTextContent('grace@hopper.example')
    expect(within(tr).getByRole('button', { name: /^Update\s*hopper\.example$/ })).toBeDisabled()
    await userEvent.selectOptions(within(tr).getByLabelText('New status of hopper.example'), 'live')
    await userEvent.click(within(tr).getByRole('button', { name: /^Update\s*hopper\.example$/ }))
    expect(await screen.findByText('hopper.example is now live.')).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/admin/sites/7/status')).toEqual({ status: 'live' })
    // The row's status is now the one picked: nothing to update until another is picked.
    const updated = within((await screen.findByRole('rowheader', { name: 'hopper.example' })).closest('tr') as HTMLElement)
    const update = updated.getByRole('button', { name: /^Update\s*hopper\.example$/ })
    await waitFor(() => expect(update).toBeDisabled())
    await userEvent.selectOptions(updated.getByLabelText('New status of hopper.example'), 'paused')
    expect(update).toBeEnabled()
    await userEvent.selectOptions(updated.getByLabelText('New status of hopper.example'), 'live')
    expect(update).toBeDisabled()
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'live')
    await userEvent.type(screen.getByLabelText('Domain or customer'), 'grace')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/admin/sites?status=live&q=grace', expect.anything()))
  })

  it('searches for what the box holds (also text put there without typing, as autofill does), starting from the address', async () => {
    const fetchMock = mockSignedIn(admin, (method, url) =>
      method === 'GET' && url.startsWith('/api/admin/sites') ? { status: 200, body: { websites: [row] } } : undefined,
    )
    renderApp('/dashboard/admin/websites?q=grace')
    await screen.findByRole('rowheader', { name: 'hopper.example' })
    const box = screen.getByLabelText('Domain or customer') as HTMLInputElement
    expect(box).toHaveValue('grace')
    box.value = ' hopper '
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/admin/sites?q=hopper', expect.anything()))
  })

  it('is refused to a customer', async () => {
    mockSignedIn(testUser)
    renderApp('/dashboard/admin/websites')
    expect(await screen.findByText('Only admins can see every customer website.')).toBeInTheDocument()
  })
})
