import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { emptyOverview, renderAppShowingAddress, testOverview } from '@test/overview'
import { mockSignedIn, renderApp, testUser, type FakeResponse } from '@test/utils'

const admin = { ...testUser, id: 2, email: 'grace@example.eu', first_name: 'Grace', role: 'admin' }

function mockAdmin(answer: (url: string) => FakeResponse | undefined = () => ({ status: 200, body: testOverview })) {
  return mockSignedIn(admin, (_method, url) => (url.startsWith('/api/admin/overview') ? answer(url) : undefined))
}

const overviewCalls = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/admin/overview'))

const card = (key: string) => within(document.querySelector(`[data-card="${key}"]`) as HTMLElement)

/** Captures what "Download CSV" saves: the file name and its text. */
function captureDownloads() {
  const blobs: Blob[] = []
  const names: string[] = []
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:csv'), revokeObjectURL: () => undefined }))
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download)
  })
  return {
    names,
    async text(i: number) {
      return await new Promise<string>((resolve) => {
        const reader = new FileReader()
        reader.onload = () => resolve(String(reader.result))
        reader.readAsText(blobs[i])
      })
    },
  }
}

describe('/dashboard for an admin: the overview', () => {
  it('shows the cards with the previous period beside each, in words as well as arrows', async () => {
    const fetchMock = mockAdmin()
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument()
    await screen.findByRole('heading', { name: 'Key figures' })
    expect(overviewCalls(fetchMock)).toEqual(['/api/admin/overview?period=this_month'])
    // No customer home for an admin.
    expect(screen.queryByRole('heading', { name: 'Choose Your Service' })).not.toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/billing/subscription')).toBe(false)

    expect(document.querySelector('.ov-period__shown')).toHaveTextContent('1–26 Nov 2026 compared with 1–26 Oct 2026')

    const mrr = card('mrr')
    expect(mrr.getByRole('heading', { name: 'MRR' })).toBeInTheDocument()
    expect(mrr.getByText('Up 12%')).toBeInTheDocument()
    expect(mrr.getByText(/from €3,100/)).toBeInTheDocument()
    expect(mrr.getByText('Up 12%').closest('p')).toHaveClass('ov-change--good')
    expect(card('arr').getByText('€41,844')).toBeInTheDocument()
    expect(card('one_time_revenue').getByText('Down 17%')).toBeInTheDocument()
    expect(card('one_time_revenue').getByText('Down 17%').closest('p')).toHaveClass('ov-change--bad')
    expect(card('recurring_revenue').getByText('Up 1.1%')).toBeInTheDocument()
    expect(card('new_customers').getByText('No change')).toBeInTheDocument()
    // More failed payments is bad news, said in words and marked so.
    const failed = card('failed_payments')
    expect(failed.getByText('Up from zero').closest('p')).toHaveClass('ov-change--bad')
    expect(card('past_due').getByText('€79 MRR at risk')).toBeInTheDocument()
    expect(card('support_open').getByText('3')).toBeInTheDocument()

    // The definition behind a card, in a disclosure with a name.
    const what = mrr.getByText('What MRR means')
    await userEvent.click(what)
    expect(mrr.getByText(/monthly value of active and past-due subscriptions/)).toBeVisible()
  })

  it('keeps the period in the address and fetches again when it changes', async () => {
    const fetchMock = mockAdmin((url) => {
      const period = new URL(url, 'http://x').searchParams.get('period') ?? 'this_month'
      const label = period === 'last_month' ? 'October 2026' : period === 'custom' ? '1–15 Sep 2026' : '1–26 Nov 2026'
      return { status: 200, body: { ...testOverview, period: { ...testOverview.period, key: period, label } } }
    })
    renderAppShowingAddress('/dashboard?period=last_quarter')
    await screen.findByRole('heading', { name: 'Key figures' })
    expect(overviewCalls(fetchMock)).toEqual(['/api/admin/overview?period=last_quarter'])
    const period = screen.getByRole('combobox', { name: 'Period' })
    expect(period).toHaveValue('last_quarter')

    await userEvent.selectOptions(period, 'Last month')
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/dashboard?period=last_month'))
    await waitFor(() => expect(document.querySelector('.ov-period__shown')).toHaveTextContent('October 2026 compared with'))
    expect(overviewCalls(fetchMock).at(-1)).toBe('/api/admin/overview?period=last_month')

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'This month')
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/dashboard$/))

    // A custom range: nothing is fetched until both days are there and in order.
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Period' }), 'Custom range')
    const first = screen.getByLabelText('First day')
    const last = screen.getByLabelText('Last day')
    // It starts from the days on screen.
    expect(first).toHaveValue('2026-11-01')
    expect(last).toHaveValue('2026-11-26')
    await userEvent.clear(first)
    await userEvent.type(first, '2026-09-15')
    await userEvent.clear(last)
    await userEvent.type(last, '2026-09-01')
    const calls = overviewCalls(fetchMock).length
    await userEvent.click(screen.getByRole('button', { name: 'Show' }))
    expect(screen.getByRole('alert')).toHaveTextContent('The last day must not be before the first day.')
    expect(overviewCalls(fetchMock)).toHaveLength(calls)
    await userEvent.clear(first)
    await userEvent.type(first, '2026-09-01')
    await userEvent.clear(last)
    await userEvent.type(last, '2026-09-15')
    await userEvent.click(screen.getByRole('button', { name: 'Show' }))
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/dashboard?period=custom&start=2026-09-01&end=2026-09-15'))
    await waitFor(() => expect(document.querySelector('.ov-period__shown')).toHaveTextContent('1–15 Sep 2026 compared with'))
    expect(overviewCalls(fetchMock).at(-1)).toBe('/api/admin/overview?period=custom&start=2026-09-01&end=2026-09-15')
  })

  it('has each chart as a table, shown on request, read by the arrow keys, and downloadable as CSV', async () => {
    mockAdmin()
    renderApp('/dashboard')
    await screen.findByRole('heading', { name: 'Key figures' })
    const panel = within(screen.getByRole('heading', { name: 'MRR movements' }).closest('section') as HTMLElement)

    // The table is there for screen readers all along; the button shows it.
    const table = panel.getByRole('table', { name: 'MRR movements: the data' })
    const toggle = panel.getByRole('button', { name: 'Show as table' })
    const shown = document.getElementById(toggle.getAttribute('aria-controls') ?? '') as HTMLElement
    expect(shown).toContainElement(table)
    expect(shown).toHaveClass('visually-hidden')
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(toggle)
    expect(panel.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true')
    expect(shown).not.toHaveClass('visually-hidden')
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent)
    expect(rows).toEqual([
      'MovementAmount',
      'MRR at the start€3,100',
      'New+€299',
      'Expansion+€200',
      'Reactivation+€79',
      'Contraction−€30',
      'Churn−€161',
      'MRR at the end€3,487',
    ])

    // The chart is a keyboard stop; the arrow keys read each bar.
    const chart = panel.getByRole('group', { name: 'MRR movements, chart' })
    expect(panel.getByRole('img', { name: /MRR went from €3,100 to €3,487/ })).toBeInTheDocument()
    chart.focus()
    await userEvent.keyboard('{ArrowRight}')
    expect(panel.getByText('MRR at the start:').parentElement).toHaveTextContent('MRR at the start: €3,100')
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    expect(panel.getByText('Expansion:').parentElement).toHaveTextContent('Expansion: +€200')
    await userEvent.keyboard('{End}')
    expect(panel.getByText('MRR at the end:')).toBeInTheDocument()

    const downloads = captureDownloads()
    await userEvent.click(panel.getByRole('button', { name: 'Download CSV: MRR movements' }))
    expect(downloads.names).toEqual(['mrr-movements-2026-11-01-2026-11-26.csv'])
    expect(await downloads.text(0)).toBe(
      'Movement,Amount\r\nMRR at the start,3100.00\r\nNew,299.00\r\nExpansion,200.00\r\nReactivation,79.00\r\nContraction,-30.00\r\nChurn,-161.00\r\nMRR at the end,3487.00\r\n',
    )
  })

  it('draws MRR over time and the funnel with their tables', async () => {
    mockAdmin()
    renderApp('/dashboard')
    await screen.findByRole('heading', { name: 'Key figures' })
    const mrr = within(screen.getByRole('heading', { name: 'MRR over time' }).closest('section') as HTMLElement)
    expect(mrr.getByRole('img', { name: 'MRR each day from 1 Nov 2026 (€3,100) to 26 Nov 2026 (€3,487).' })).toBeInTheDocument()
    const mrrRows = within(mrr.getByRole('table', { name: 'MRR over time: the data' })).getAllByRole('row')
    expect(mrrRows).toHaveLength(27)
    expect(mrrRows[3]).toHaveTextContent('3 Nov 2026€3,129')

    const funnel = within(screen.getByRole('heading', { name: 'Funnel' }).closest('section') as HTMLElement)
    const funnelRows = within(funnel.getByRole('table', { name: 'Funnel: the data' }))
      .getAllByRole('row')
      .map((row) => [...row.children].map((cell) => cell.textContent))
    expect(funnelRows).toEqual([
      ['Step', '1–26 Nov 2026', '1–26 Oct 2026', 'Share of the step before'],
      ['Leads', '120', '100', '—'],
      ['Sign-ups', '30', '28', '25% of leads'],
      ['Checkouts started', '12', '10', '40% of sign-ups'],
      ['Paid', '7', '7', '58.3% of checkouts started'],
      ['Abandoned checkouts', '4', '3', '33.3% of checkouts started'],
    ])
    const sources = within(screen.getByRole('heading', { name: 'Leads by source' }).closest('section') as HTMLElement)
    expect(within(sources.getByRole('table')).getByRole('rowheader', { name: 'Speed test' }).closest('tr')).toHaveTextContent('Speed test5540')

    // Free tools, revenue, websites and support.
    const tools = within(screen.getByRole('heading', { name: 'Free tools' }).closest('section') as HTMLElement)
    expect(tools.getByRole('rowheader', { name: 'Speed tests' }).closest('tr')).toHaveTextContent('Speed tests41038055 (13.4%)4 (1%)')
    const plans = within(screen.getByRole('heading', { name: 'By plan' }).closest('section') as HTMLElement)
    expect(plans.getByRole('rowheader', { name: 'Pro AI' }).closest('tr')).toHaveTextContent('Pro AIAI Automation€9,999€0€9,999')
    const websites = within(screen.getByRole('heading', { name: 'Websites by status' }).closest('section') as HTMLElement)
    expect(websites.getByText('3 in building: median wait 18.5 h, longest 2.2 days.')).toBeInTheDocument()
    expect(websites.getByRole('rowheader', { name: 'Live' }).closest('tr')).toHaveTextContent('Live3596/100')
    const support = within(screen.getByRole('heading', { name: 'Support' }).closest('section') as HTMLElement)
    expect(support.getByText('2.5 h')).toBeInTheDocument()
    expect(support.getByText('1–26 Oct 2026: 4 h')).toBeInTheDocument()
  })

  it('lists failed and past-due payments with the customer in Stripe and by e-mail, and saves them as CSV', async () => {
    mockAdmin()
    renderApp('/dashboard')
    await screen.findByRole('heading', { name: 'Key figures' })
    const failed = within(document.getElementById('ov-failed')?.closest('section') as HTMLElement)
    const ada = failed.getByRole('link', { name: 'ada@bakery.example' })
    expect(ada).toHaveAttribute('href', 'mailto:ada@bakery.example')
    const stripe = failed.getAllByRole('link', { name: /^Open in Stripe ?\(opens in a new tab\)$/ })[0]
    expect(stripe).toHaveAttribute('href', 'https://dashboard.stripe.com/test/customers/cus_ada')
    expect(stripe).toHaveAttribute('target', '_blank')
    expect(stripe).toHaveAttribute('rel', 'noopener noreferrer')
    const row = ada.closest('tr') as HTMLElement
    expect(row).toHaveTextContent('Professional')
    expect(row).toHaveTextContent('€79')
    expect(row).toHaveTextContent('20 Nov 2026, 09:15 UTC')
    expect(row).toHaveTextContent('Not yet')
    expect(failed.getByRole('link', { name: 'max@shop.example' }).closest('tr')).toHaveTextContent('5 Nov 2026, 08:00 UTC')

    const pastDue = within(document.getElementById('ov-past-due')?.closest('section') as HTMLElement)
    expect(pastDue.getByRole('link', { name: 'ada@bakery.example' })).toHaveAttribute('href', 'mailto:ada@bakery.example')

    const downloads = captureDownloads()
    await userEvent.click(failed.getByRole('button', { name: 'Download CSV: Failed payments' }))
    expect(await downloads.text(0)).toBe(
      'Customer,Plan,Amount,Currency,Failed at,Recovered at,Stripe customer\r\n' +
        'ada@bakery.example,professional,79.00,EUR,2026-11-20T09:15:00+00:00,,https://dashboard.stripe.com/test/customers/cus_ada\r\n' +
        'max@shop.example,starter,29.00,EUR,2026-11-03T17:40:00+00:00,2026-11-05T08:00:00+00:00,https://dashboard.stripe.com/test/customers/cus_max\r\n',
    )
  })

  it('says so on a new install, with every figure at zero', async () => {
    mockAdmin(() => ({ status: 200, body: emptyOverview() }))
    renderApp('/dashboard')
    expect(await screen.findByText('Nothing to count yet.')).toBeInTheDocument()
    expect(card('mrr').getByText('€0')).toBeInTheDocument()
    expect(card('mrr').getByText('No change')).toBeInTheDocument()
    expect(screen.getByText('No failed payments in this period.')).toBeInTheDocument()
    expect(screen.getByText('No subscription is past due.')).toBeInTheDocument()
    expect(screen.getByText('No leads in this period.')).toBeInTheDocument()
    expect(screen.getAllByText('No revenue in this period.')).toHaveLength(2)
    expect(screen.queryByRole('link', { name: /Open in Stripe/ })).not.toBeInTheDocument()
  })

  it('shows a failure with "Try again", which loads again', async () => {
    let fail = true
    mockAdmin(() =>
      fail ? { status: 500, body: { error: { code: 'boom', message: 'The overview is down.' } } } : { status: 200, body: testOverview },
    )
    renderApp('/dashboard')
    expect(await screen.findByRole('alert')).toHaveTextContent('The overview is down.')
    expect(screen.getByText('We could not load the overview.')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { name: 'Key figures' })).toBeInTheDocument()
  })

  it('shows a loading skeleton with a status until the figures arrive', async () => {
    let release: (value: FakeResponse) => void = () => undefined
    const pending = new Promise<FakeResponse>((resolve) => (release = resolve))
    mockSignedIn(admin)
    const fetchMock = vi.mocked(fetch)
    const original = fetchMock.getMockImplementation()
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).startsWith('/api/admin/overview')) {
        const { status, body } = await pending
        return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
      }
      return original!(input, init)
    })
    renderApp('/dashboard')
    expect(await screen.findByText('Loading the overview')).toBeInTheDocument()
    expect(document.querySelector('.ov-skeleton')).toHaveAttribute('aria-busy', 'true')
    release({ status: 200, body: testOverview })
    expect(await screen.findByRole('heading', { name: 'Key figures' })).toBeInTheDocument()
    expect(screen.queryByText('Loading the overview')).not.toBeInTheDocument()
  })
})

describe('/dashboard for a customer', () => {
  it('keeps the customer home and never asks for the overview', async () => {
    const fetchMock = mockSignedIn(testUser, (_m, url) => {
      if (url === '/api/billing/subscription') return { status: 200, body: { subscription: null } }
      if (url === '/api/sites') return { status: 200, body: { websites: [] } }
      return undefined
    })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ada' })).toBeInTheDocument()
    await screen.findByRole('heading', { level: 2, name: 'Choose Your Service' })
    expect(screen.queryByRole('heading', { name: 'Overview' })).not.toBeInTheDocument()
    expect(overviewCalls(fetchMock)).toEqual([])
  })
})
