import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockSignedIn, renderApp, testUser, type FakeResponse } from '@test/utils'
import { LEADS_PATH, mailtoHref } from './Leads'

const admin = { ...testUser, id: 2, email: 'admin@example.eu', first_name: 'Grace', last_name: 'Hopper', role: 'admin' }

const leads = [
  {
    id: 3,
    source: 'free-preview',
    source_label: 'Real Estate Website Rebuild',
    email: 'nina@brightkeys.eu',
    name: 'Nina Berg',
    domain: 'brightkeys.eu',
    message: null,
    created_at: '2026-11-22T09:15:00+00:00',
  },
  {
    id: 2,
    source: 'clinic-consultation',
    source_label: 'Clinic consultation',
    email: 'dr.hahn@praxis-hahn.de',
    name: null,
    domain: null,
    message: null,
    created_at: '2026-11-21T16:40:00+00:00',
  },
  {
    id: 1,
    source: 'spring-webinar',
    source_label: 'spring-webinar',
    email: 'leo@example.eu',
    name: null,
    domain: null,
    message: null,
    created_at: '2026-11-20T08:00:00+00:00',
  },
]

/** Answers the leads API like the server: `?source=` filters. */
function mockLeads(respond?: (url: string) => FakeResponse | undefined) {
  return mockSignedIn(admin, (method, url) => {
    const override = respond?.(url)
    if (override) return override
    if (method !== 'GET' || !url.startsWith('/api/admin/leads')) return undefined
    const source = new URL(url, 'http://localhost').searchParams.get('source')
    return { status: 200, body: { leads: leads.filter((lead) => !source || lead.source === source) } }
  })
}

describe('/dashboard/leads', () => {
  it('lists the leads newest first with time, e-mail, name, domain and source', async () => {
    const fetchMock = mockLeads()
    renderApp('/dashboard/leads')
    expect(await screen.findByRole('heading', { level: 1, name: 'Leads' })).toBeInTheDocument()
    const table = await screen.findByRole('table')
    const headers = within(table).getAllByRole('columnheader').map((th) => th.textContent)
    expect(headers).toEqual(['Received', 'E-mail', 'Name', 'Domain', 'Source'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(3)
    expect(rows[0]).toHaveTextContent('22 Nov 2026')
    expect(within(rows[0]).getByRole('link', { name: 'nina@brightkeys.eu' })).toHaveAttribute('href', 'mailto:nina@brightkeys.eu')
    expect(rows[0]).toHaveTextContent('Nina Berg')
    expect(rows[0]).toHaveTextContent('brightkeys.eu')
    expect(rows[0]).toHaveTextContent('Real Estate Website Rebuild')
    expect(rows[1]).toHaveTextContent('Clinic consultation')
    expect(within(rows[1]).getAllByText('—')).toHaveLength(2)
    expect(rows[0].querySelector('time')).toHaveAttribute('datetime', '2026-11-22T09:15:00+00:00')
    expect(screen.getByText('3 leads')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/admin/leads.csv')
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/leads', expect.anything())
  })

  it('links an e-mail as mailto: that cannot carry extra headers, subject or body', async () => {
    const stored = { ...leads[0], id: 9, email: 'x@e.com?cc=attacker@evil.example&body=hi' }
    mockSignedIn(admin, (method, url) =>
      method === 'GET' && url.startsWith(LEADS_PATH) ? { status: 200, body: { leads: [stored] } } : undefined,
    )
    renderApp('/dashboard/leads')
    const link = await screen.findByRole('link', { name: stored.email })
    const href = link.getAttribute('href') ?? ''
    expect(href).toBe('mailto:x%40e.com%3Fcc%3Dattacker@evil.example%26body%3Dhi')
    const target = new URL(href)
    expect(target.search).toBe('')
    expect(decodeURIComponent(target.pathname)).toBe(stored.email)
    expect(mailtoHref('o\'brien+news@mail.example.ie')).toBe("mailto:o'brien%2Bnews@mail.example.ie")
  })

  it('shows a spinner while the leads load', async () => {
    const fetchMock = mockLeads()
    const answer = fetchMock.getMockImplementation()!
    // The leads request never answers.
    fetchMock.mockImplementation((input, init) =>
      String(input).startsWith('/api/admin/leads') ? new Promise<Response>(() => {}) : answer(input, init),
    )
    renderApp('/dashboard/leads')
    expect(await screen.findByText('Loading the leads')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Leads' })).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('filters by source through the API and the CSV link follows the filter', async () => {
    const fetchMock = mockLeads()
    const user = userEvent.setup()
    renderApp('/dashboard/leads')
    await screen.findByRole('table')
    const select = screen.getByRole('combobox', { name: 'Source' })
    const labels = within(select)
      .getAllByRole('option')
      .map((option) => option.textContent)
    // The known forms plus the unknown source seen in the data, by label.
    expect(labels).toEqual([
      'All sources',
      'AI automation strategy call',
      'AI booking demo',
      'AI onboarding audit',
      'Clinic consultation',
      'Real Estate Website Rebuild',
      'spring-webinar',
    ])
    await user.selectOptions(select, 'Clinic consultation')
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/leads?source=clinic-consultation', expect.anything())
    await screen.findByText('1 lead from Clinic consultation')
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toHaveTextContent('dr.hahn@praxis-hahn.de')
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/admin/leads.csv?source=clinic-consultation',
    )
    await user.selectOptions(select, 'All sources')
    expect(await screen.findByText('3 leads')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/admin/leads.csv')
  })

  it('opens with the filter from the address', async () => {
    const fetchMock = mockLeads()
    renderApp('/dashboard/leads?source=free-preview')
    expect(await screen.findByText('1 lead from Real Estate Website Rebuild')).toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/leads?source=free-preview', expect.anything())
    expect(screen.getByRole('combobox', { name: 'Source' })).toHaveValue('free-preview')
  })

  it('shows an empty state, and one per source with a way back to all sources', async () => {
    mockLeads((url) => (url.startsWith('/api/admin/leads') ? { status: 200, body: { leads: [] } } : undefined))
    const user = userEvent.setup()
    renderApp('/dashboard/leads')
    expect(await screen.findByText('No leads yet.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    await user.selectOptions(screen.getByRole('combobox', { name: 'Source' }), 'AI booking demo')
    expect(await screen.findByText('No leads from “AI booking demo” yet.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Show all sources' }))
    expect(await screen.findByText('No leads yet.')).toBeInTheDocument()
    expect(screen.getByRole('combobox', { name: 'Source' })).toHaveValue('')
  })

  it('shows an error with a retry that loads again', async () => {
    let fail = true
    mockLeads((url) =>
      url.startsWith('/api/admin/leads') && fail
        ? { status: 500, body: { error: { code: 'internal', message: 'The database is not reachable.' } } }
        : undefined,
    )
    const user = userEvent.setup()
    renderApp('/dashboard/leads')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We could not load the leads.')
    expect(alert).toHaveTextContent('The database is not reachable.')
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('table')).toBeInTheDocument()
  })

  it('is listed for admins only; a non-admin sees the admin-only message', async () => {
    mockSignedIn(testUser)
    const { unmount } = renderApp('/dashboard/leads')
    expect(await screen.findByText('Only admins can see the leads from the website forms.')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Leads' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Leads' })).not.toBeInTheDocument()
    unmount()

    mockLeads()
    renderApp('/dashboard/leads')
    await screen.findByRole('table')
    const sidebar = within(screen.getByRole('navigation', { name: 'Dashboard' }))
    expect(sidebar.getByRole('link', { name: 'Leads' })).toHaveAttribute('href', '/dashboard/leads')
  })
})
