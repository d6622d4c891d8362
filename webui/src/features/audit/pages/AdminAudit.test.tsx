import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockSignedIn, renderApp, testUser, type FakeResponse } from '@test/utils'
import type { AuditEntry } from '../audit'

const admin = { ...testUser, id: 2, email: 'grace@agency.example', first_name: 'Grace', last_name: 'Hopper', role: 'admin' }

const ACTIONS = [
  { key: 'site.status_changed', label: 'Website status changed' },
  { key: 'support.replied', label: 'Support reply sent' },
  { key: 'user.role_changed', label: 'User role changed' },
]

function entry(id: number, over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    at: `2026-11-2${id % 10}T09:15:00Z`,
    actor_id: 2,
    actor_email: 'grace@agency.example',
    actor_label: 'grace@agency.example',
    action: 'site.status_changed',
    action_label: 'Website status changed',
    target_type: 'site',
    target_id: String(id),
    target_label: `site-${id}.example`,
    before: { status: 'building' },
    after: { status: 'live' },
    ...over,
  }
}

const LOG: AuditEntry[] = [
  entry(5),
  entry(4, {
    action: 'support.replied',
    action_label: 'Support reply sent',
    target_type: 'support_request',
    target_label: '#4 The contact form',
    before: { status: 'open' },
    after: { status: 'answered', reply_id: 9 },
  }),
  entry(3, {
    actor_id: null,
    actor_email: null,
    actor_label: 'command line',
    action: 'user.role_changed',
    action_label: 'User role changed',
    target_type: 'user',
    target_label: 'ada@example.eu',
    before: { role: 'user' },
    after: { role: 'admin' },
  }),
]

/** Answers the audit API like the server: filters, newest first, pages of `size` after `before_id`. */
function mockAudit(log: AuditEntry[] = LOG, size = 50, respond?: (url: string) => FakeResponse | undefined) {
  return mockSignedIn(admin, (method, url) => {
    const override = respond?.(url)
    if (override) return override
    if (method !== 'GET' || !url.startsWith('/api/admin/audit')) return undefined
    const q = new URL(url, 'http://localhost').searchParams
    const before = Number(q.get('before_id') ?? Infinity)
    const actor = (q.get('actor') ?? '').toLowerCase()
    const found = log.filter(
      (e) =>
        e.id < before &&
        (!q.get('action') || e.action === q.get('action')) &&
        (!actor || (actor === 'command line' ? e.actor_id === null : (e.actor_email ?? '').includes(actor))),
    )
    const page = found.slice(0, size)
    return {
      status: 200,
      body: { entries: page, next_before_id: found.length > size ? page[page.length - 1].id : null, actions: ACTIONS },
    }
  })
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('/dashboard/admin/audit', () => {
  it('lists who did what and when, newest first, with each change before → after', async () => {
    const fetchMock = mockAudit()
    renderApp('/dashboard/admin/audit')
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toBeInTheDocument()
    const table = await screen.findByRole('table', { name: 'Audit log, newest first' })
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['When', 'Who', 'Action', 'What', 'Change'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(3)
    expect(rows[0]).toHaveTextContent('grace@agency.example')
    expect(rows[0]).toHaveTextContent('Website status changed')
    expect(rows[0]).toHaveTextContent('Website site-5.example')
    expect(rows[0]).toHaveTextContent('Status: building → changed to live')
    expect(rows[0].querySelector('time')).toHaveAttribute('datetime', '2026-11-25T09:15:00Z')
    expect(rows[1]).toHaveTextContent('Support request #4 The contact form')
    expect(rows[1]).toHaveTextContent('Reply: — → changed to 9')
    expect(rows[2]).toHaveTextContent('command line')
    expect(rows[2]).toHaveTextContent('Role: user → changed to admin')
    expect(screen.getByText('3 entries')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/audit?limit=50', expect.anything())
  })

  it('filters by action at once, and by admin and dates on "Apply filters"; the address keeps them', async () => {
    const fetchMock = mockAudit()
    const user = userEvent.setup()
    renderApp('/dashboard/admin/audit')
    await screen.findByRole('table')
    const select = screen.getByRole('combobox', { name: 'Action' })
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All actions',
      'Website status changed',
      'Support reply sent',
      'User role changed',
    ])
    await user.selectOptions(select, 'Support reply sent')
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/audit?action=support.replied&limit=50', expect.anything())
    expect(await screen.findByText('1 entry')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Clear filters' }))
    await screen.findByText('3 entries')
    await user.type(screen.getByRole('searchbox', { name: 'Admin' }), 'command line')
    await user.type(screen.getByLabelText('From'), '2026-11-01')
    await user.type(screen.getByLabelText('To'), '2026-11-30')
    await user.click(screen.getByRole('button', { name: 'Apply filters' }))
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/audit?actor=command+line&since=2026-11-01&until=2026-11-30&limit=50',
      expect.anything(),
    )
    expect(await screen.findByText('1 entry')).toBeInTheDocument()
    expect(screen.getByRole('searchbox', { name: 'Admin' })).toHaveValue('command line')
  })

  it('opens with the filters from the address', async () => {
    const fetchMock = mockAudit()
    renderApp('/dashboard/admin/audit?action=user.role_changed&since=2026-11-02')
    expect(await screen.findByText('1 entry')).toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/audit?action=user.role_changed&since=2026-11-02&limit=50', expect.anything())
    expect(screen.getByRole('combobox', { name: 'Action' })).toHaveValue('user.role_changed')
    expect(screen.getByLabelText('From')).toHaveValue('2026-11-02')
  })

  it('refuses a "to" day before the "from" day without asking the server', async () => {
    const fetchMock = mockAudit()
    const user = userEvent.setup()
    renderApp('/dashboard/admin/audit')
    await screen.findByRole('table')
    await user.type(screen.getByLabelText('From'), '2026-11-10')
    await user.type(screen.getByLabelText('To'), '2026-11-01')
    const calls = fetchMock.mock.calls.length
    await user.click(screen.getByRole('button', { name: 'Apply filters' }))
    expect(screen.getByRole('alert')).toHaveTextContent("The 'to' day must not be before the 'from' day.")
    expect(fetchMock.mock.calls.length).toBe(calls)
  })

  it('loads older entries with "Load more" (keyset) until there are none', async () => {
    const log = [9, 8, 7, 6, 5].map((id) => entry(id))
    const fetchMock = mockAudit(log, 2)
    const user = userEvent.setup()
    renderApp('/dashboard/admin/audit')
    await screen.findByText('2 entries shown, older ones below “Load more”')
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/audit?before_id=8&limit=50', expect.anything())
    await screen.findByText('4 entries shown, older ones below “Load more”')
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/audit?before_id=6&limit=50', expect.anything())
    expect(await screen.findByText('5 entries')).toBeInTheDocument()
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1)
    expect(rows.map((row) => row.querySelector('td:nth-child(4)')?.textContent)).toEqual(
      log.map((e) => `Website ${e.target_label}`),
    )
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('says so when loading more fails, and tries again', async () => {
    let fail = true
    mockAudit([9, 8, 7].map((id) => entry(id)), 2, (url) =>
      url.includes('before_id') && fail ? { status: 500, body: { error: { code: 'internal', message: 'Database down.' } } } : undefined,
    )
    const user = userEvent.setup()
    renderApp('/dashboard/admin/audit')
    await user.click(await screen.findByRole('button', { name: 'Load more' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load more entries.Database down.')
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('3 entries')).toBeInTheDocument()
  })

  it('downloads what is shown as CSV', async () => {
    mockAudit()
    const blobs: Blob[] = []
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob)
      return 'blob:audit'
    })
    vi.stubGlobal('URL', class extends URL { static createObjectURL = createObjectURL; static revokeObjectURL = vi.fn() })
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    const user = userEvent.setup()
    renderApp('/dashboard/admin/audit')
    await screen.findByRole('table')
    await user.click(screen.getByRole('button', { name: 'Download CSV of the 3 entries shown' }))
    expect(click).toHaveBeenCalledTimes(1)
    const link = click.mock.contexts[0] as HTMLAnchorElement
    expect(link.download).toBe('audit-log.csv')
    const text = await blobs[0].text()
    const lines = text.replace(/^\ufeff/, '').split('\r\n')
    expect(lines[0]).toBe('Time (UTC),Who,Action,Target type,Target id,Target,Field,Before,After')
    expect(lines[1]).toBe('2026-11-25T09:15:00Z,grace@agency.example,Website status changed,site,5,site-5.example,Status,building,live')
    expect(lines).toHaveLength(6) // header, 1 + 2 + 1 changes, final line end
  })

  it('shows an empty log, and an empty filter with a way back', async () => {
    mockAudit([])
    const user = userEvent.setup()
    renderApp('/dashboard/admin/audit')
    expect(await screen.findByText('Nothing recorded yet.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'User role changed')
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument()
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[1])
    expect(await screen.findByText('Nothing recorded yet.')).toBeInTheDocument()
    expect(screen.getByRole('combobox', { name: 'Action' })).toHaveValue('')
  })

  it('shows an error with a retry that loads again', async () => {
    let fail = true
    mockAudit(LOG, 50, (url) =>
      url.startsWith('/api/admin/audit') && fail
        ? { status: 400, body: { error: { code: 'validation_error', message: "'since' must be a date such as 2026-11-01." } } }
        : undefined,
    )
    const user = userEvent.setup()
    renderApp('/dashboard/admin/audit')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We could not load the audit log.')
    expect(alert).toHaveTextContent("'since' must be a date such as 2026-11-01.")
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('table')).toBeInTheDocument()
  })

  it('is for admins only', async () => {
    mockSignedIn(testUser)
    renderApp('/dashboard/admin/audit')
    expect(await screen.findByText('Only admins can read the audit log.')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Audit log' })).not.toBeInTheDocument()
  })
})
