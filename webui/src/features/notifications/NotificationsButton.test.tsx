import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { bellLabel, safeLink } from './notifications'
import { mockSignedIn, renderApp } from '@test/utils'

interface Row {
  id: number
  kind: string
  title: string
  body: string
  link: string | null
  created_at: string
  read: boolean
}

function row(id: number, extra: Partial<Row> = {}): Row {
  return {
    id,
    kind: 'site_live',
    title: `Notice ${id}`,
    body: '',
    link: null,
    created_at: '2026-11-20T10:00:00Z',
    read: false,
    ...extra,
  }
}

/** A server holding `rows` for the signed-in user: the list and the read marks. */
function serve(rows: Row[]) {
  const reads: unknown[] = []
  const fetchMock = mockSignedIn(undefined, (method, url, init) => {
    if (url === '/api/notifications' && method === 'GET') {
      return { status: 200, body: { notifications: rows, unread: rows.filter((r) => !r.read).length } }
    }
    if (url === '/api/notifications/read' && method === 'POST') {
      const body = JSON.parse(String(init.body)) as { ids: number[] }
      reads.push(body)
      for (const r of rows) if (body.ids.includes(r.id)) r.read = true
      return { status: 200, body: { unread: rows.filter((r) => !r.read).length } }
    }
    return undefined
  })
  return { fetchMock, reads }
}

async function bell() {
  await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
  return within(screen.getByRole('banner')).getByRole('button', { name: /^Notifications/ })
}

describe('notifications button', () => {
  it('shows the dot only while something is unread, and opening marks them read', async () => {
    const rows = [
      row(2, { kind: 'support_answered', title: 'We answered: Domain', body: 'Yes.', link: '/dashboard/support' }),
      row(1, { read: true, title: 'Old news' }),
    ]
    const { reads } = serve(rows)
    renderApp('/dashboard')
    const button = await bell()
    await waitFor(() => expect(button).toHaveAccessibleName('Notifications, 1 unread'))
    expect(button.querySelector('.icon-button__dot')).not.toBeNull()

    await userEvent.click(button)
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!
    expect(panel).toBeVisible()
    const items = await within(panel).findAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(within(items[0]!).getByRole('link', { name: 'We answered: Domain' })).toHaveAttribute('href', '/dashboard/support')
    expect(items[0]).toHaveTextContent('New: We answered: Domain')
    expect(items[0]).toHaveTextContent('Yes.')
    expect(items[0]!.querySelector('time')).toHaveAttribute('datetime', '2026-11-20T10:00:00Z')
    expect(items[1]).toHaveTextContent('Old news')
    expect(items[1]).not.toHaveTextContent('New:')

    await waitFor(() => expect(reads).toEqual([{ ids: [2] }]))
    await waitFor(() => expect(button.querySelector('.icon-button__dot')).toBeNull())
    expect(button).toHaveAccessibleName('Notifications')

    // Escape closes and gives the focus back to the bell.
    await userEvent.keyboard('{Escape}')
    expect(panel).not.toBeVisible()
    expect(button).toHaveFocus()
  })

  it('says so when there is nothing', async () => {
    const { reads } = serve([])
    renderApp('/dashboard')
    const button = await bell()
    await userEvent.click(button)
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!
    expect(await within(panel).findByText(/You're all caught up/)).toBeInTheDocument()
    expect(button.querySelector('.icon-button__dot')).toBeNull()
    expect(reads).toEqual([])
  })

  it('shows an error with Try again when the list cannot be loaded', async () => {
    mockSignedIn(undefined, (_method, url) =>
      url === '/api/notifications' ? { status: 503, body: { error: { code: 'unavailable', message: 'Down.' } } } : undefined,
    )
    renderApp('/dashboard')
    const button = await bell()
    await userEvent.click(button)
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!
    expect(await within(panel).findByRole('alert')).toHaveTextContent('We could not load your notifications. Down.')
    expect(within(panel).getByRole('button', { name: 'Try again' })).toBeInTheDocument()
    expect(button.querySelector('.icon-button__dot')).toBeNull()
  })
})

describe('notification helpers', () => {
  it('follows only paths of the app', () => {
    expect(safeLink('/dashboard/billing')).toBe('/dashboard/billing')
    for (const bad of ['https://evil.example', '//evil.example', 'javascript:alert(1)', '', null, undefined]) {
      expect(safeLink(bad)).toBeNull()
    }
  })

  it('names the unread count', () => {
    expect(bellLabel(0)).toBe('Notifications')
    expect(bellLabel(3)).toBe('Notifications, 3 unread')
  })
})
