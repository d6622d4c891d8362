import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { checkSupport, statusLabel, statusTone } from '../support'
import { mockFetch, mockSignedIn, renderApp, sentBody, testUser } from '@test/utils'

const THANKS = 'Thank you! We received your request and will reply by email.'
const admin = { ...testUser, id: 2, role: 'admin' }
const GRACE_REQUEST = {
  name: 'Grace Hopper',
  email: 'grace@example.com',
  subject: 'Plans',
  message: 'Do you build shops?',
  company_website: '',
}

function request(id: number, extra: object = {}) {
  return {
    id,
    subject: `Subject ${id}`,
    message: 'Hello.\nSecond line.',
    status: 'open',
    website_id: null,
    website_domain: null,
    created_at: '2026-11-20T10:00:00Z',
    replies: [],
    ...extra,
  }
}

describe('/support (visitors)', () => {
  it('names every missing field without a call, then sends and confirms', async () => {
    const fetchMock = mockFetch((method, url) => {
      if (url === '/api/support' && method === 'POST') return { status: 201, body: { message: THANKS } }
      return { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
    })
    renderApp('/support')
    expect(await screen.findByRole('heading', { level: 1, name: 'Support' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your name')
    expect(screen.getByText('Please enter your email address')).toBeInTheDocument()
    expect(screen.getByText('Please enter a subject')).toBeInTheDocument()
    expect(screen.getByText('Please enter a message')).toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/support')).toBe(false)

    await userEvent.type(screen.getByLabelText(/Your Name/), 'Grace Hopper')
    await userEvent.type(screen.getByLabelText(/Email Address/), 'grace@example.com')
    await userEvent.type(screen.getByLabelText(/Subject/), 'Plans')
    await userEvent.type(screen.getByLabelText(/Message/), 'Do you build shops?')
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('status')).toHaveTextContent(THANKS)
    expect(sentBody(fetchMock, '/api/support')).toEqual(GRACE_REQUEST)
  })

  it('sends what was typed before React hydrated the prerendered form', async () => {
    const fetchMock = mockFetch((method, url) => {
      if (url === '/api/support' && method === 'POST') return { status: 201, body: { message: THANKS } }
      return { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
    })
    renderApp('/support')
    await screen.findByRole('heading', { level: 1, name: 'Support' })
    const silently = (label: RegExp, value: string) => {
      ;(screen.getByLabelText(label) as HTMLInputElement | HTMLTextAreaElement).value = value
    }
    silently(/Your Name/, 'Grace Hopper')
    silently(/Email Address/, 'grace@example.com')
    silently(/Subject/, 'Plans')
    silently(/Message/, 'Do you build shops?')
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('status')).toHaveTextContent(THANKS)
    expect(sentBody(fetchMock, '/api/support')).toEqual(GRACE_REQUEST)
  })

  it("shows the server's field messages", async () => {
    mockFetch((method, url) => {
      if (url === '/api/support' && method === 'POST') {
        return {
          status: 429,
          body: { error: { code: 'rate_limited', message: 'Too many requests. Please try again later.' } },
        }
      }
      return { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
    })
    renderApp('/support')
    await userEvent.type(await screen.findByLabelText(/Your Name/), 'Grace')
    await userEvent.type(screen.getByLabelText(/Email Address/), 'grace@example.com')
    await userEvent.type(screen.getByLabelText(/Subject/), 'Plans')
    await userEvent.type(screen.getByLabelText(/Message/), 'Hello')
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Please try again later.')
  })

  it('sends a signed-in user to the dashboard form', async () => {
    mockSignedIn(testUser, (_method, url) => {
      if (url === '/api/support') return { status: 200, body: { requests: [] } }
      if (url === '/api/sites') return { status: 200, body: { websites: [] } }
      return undefined
    })
    renderApp('/support')
    expect(await screen.findByRole('heading', { level: 2, name: 'Your requests' })).toBeInTheDocument()
  })
})

describe('/dashboard/support', () => {
  it('lists past requests with status and replies, and sends one about a website', async () => {
    const rows = [
      request(2, {
        status: 'answered',
        website_id: 7,
        website_domain: 'ada-shop.com',
        replies: [{ id: 1, body: 'Yes, we can.', created_at: '2026-11-21T10:00:00Z' }],
      }),
      request(1, { status: 'resolved' }),
    ]
    const fetchMock = mockSignedIn(testUser, (method, url) => {
      if (url === '/api/support' && method === 'GET') return { status: 200, body: { requests: rows } }
      if (url === '/api/support' && method === 'POST') {
        rows.unshift(request(3, { subject: 'New one', website_id: 7, website_domain: 'ada-shop.com' }))
        return { status: 201, body: { message: THANKS } }
      }
      if (url === '/api/sites') {
        return {
          status: 200,
          body: { websites: [{ id: 7, domain: 'ada-shop.com', page_speed: null, status: 'live', created_at: '2026-11-01T00:00:00Z' }] },
        }
      }
      return undefined
    })
    renderApp('/dashboard/support')
    const past = await screen.findByRole('region', { name: 'Your requests' })
    const items = await within(past).findAllByRole('heading', { level: 3 })
    expect(items.map((h) => h.textContent)).toEqual(['Subject 2', 'Subject 1'])
    expect(within(past).getByText('Answered')).toBeInTheDocument()
    expect(within(past).getByText('Resolved')).toBeInTheDocument()
    expect(within(past).getByText('Yes, we can.')).toBeInTheDocument()
    expect(within(past).getByText(/ada-shop\.com/)).toBeInTheDocument()
    // No name or e-mail for a customer: the account's are used.
    expect(screen.queryByLabelText(/Your Name/)).not.toBeInTheDocument()

    const website = await screen.findByLabelText('Website (optional)')
    await waitFor(() => expect(within(website).getByRole('option', { name: 'ada-shop.com' })).toBeInTheDocument())
    await userEvent.selectOptions(website, '7')
    await userEvent.type(screen.getByLabelText(/Subject/), 'New one')
    await userEvent.type(screen.getByLabelText(/Message/), 'Please look.')
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByText(THANKS)).toBeInTheDocument()
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/support' && init?.method === 'POST')
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      subject: 'New one',
      message: 'Please look.',
      company_website: '',
      website_id: 7,
    })
    await waitFor(() => expect(within(past).getByRole('heading', { level: 3, name: 'New one' })).toBeInTheDocument())
  })

  it('has an empty state', async () => {
    mockSignedIn(testUser, (_method, url) => {
      if (url === '/api/support') return { status: 200, body: { requests: [] } }
      if (url === '/api/sites') return { status: 200, body: { websites: [] } }
      return undefined
    })
    renderApp('/dashboard/support')
    expect(await screen.findByText('No support requests yet.')).toBeInTheDocument()
    expect(screen.queryByLabelText('Website (optional)')).not.toBeInTheDocument()
  })
})

describe('/dashboard/admin/support', () => {
  it('refuses a non-admin', async () => {
    mockSignedIn(testUser)
    renderApp('/dashboard/admin/support')
    expect(await screen.findByText('Only admins can see the support requests.')).toBeInTheDocument()
  })

  it('filters, replies and resolves', async () => {
    const row = {
      ...request(5, { subject: 'Domain' }),
      user_id: 1,
      name: 'Ada Lovelace',
      email: 'ada@example.eu',
    }
    const calls: string[] = []
    mockSignedIn(admin, (method, url, init) => {
      calls.push(`${method} ${url}`)
      if (url.startsWith('/api/admin/support?') || url === '/api/admin/support') {
        return { status: 200, body: { requests: [row] } }
      }
      if (url === '/api/admin/support/5/reply') {
        const { body } = JSON.parse(String(init.body)) as { body: string }
        row.status = 'answered'
        row.replies = [{ id: 1, body, created_at: '2026-11-21T10:00:00Z' }] as never
        return { status: 200, body: row }
      }
      if (url === '/api/admin/support/5/resolve') {
        row.status = 'resolved'
        return { status: 200, body: row }
      }
      return undefined
    })
    renderApp('/dashboard/admin/support')
    expect(await screen.findByRole('heading', { level: 2, name: 'Domain' })).toBeInTheDocument()
    expect(screen.getByText(/from Ada Lovelace <ada@example\.eu>/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Support Requests' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Send reply' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Please write a reply')
    await userEvent.type(screen.getByLabelText('Reply to Ada Lovelace'), 'We can move it.')
    await userEvent.click(screen.getByRole('button', { name: 'Send reply' }))
    expect(await screen.findByText('Reply sent to ada@example.eu.')).toBeInTheDocument()
    expect(screen.getByText('We can move it.')).toBeInTheDocument()
    expect(screen.getByText('Answered', { selector: '.badge' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Mark resolved' }))
    await waitFor(() => expect(screen.getByText('Resolved', { selector: '.badge' })).toBeInTheDocument())

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'open')
    await waitFor(() => expect(calls).toContain('GET /api/admin/support?status=open'))
  })

  it('sends the reply the box holds (also one put there without typing, as autofill does) and empties the box after sending', async () => {
    const row = { ...request(6, { subject: 'Invoice' }), user_id: 1, name: 'Ada Lovelace', email: 'ada@example.eu' }
    const sent: string[] = []
    mockSignedIn(admin, (_method, url, init) => {
      if (url.startsWith('/api/admin/support?') || url === '/api/admin/support') return { status: 200, body: { requests: [row] } }
      if (url === '/api/admin/support/6/reply') {
        sent.push((JSON.parse(String(init.body)) as { body: string }).body)
        return { status: 200, body: { ...row, status: 'answered' } }
      }
      return undefined
    })
    renderApp('/dashboard/admin/support')
    const box = (await screen.findByLabelText('Reply to Ada Lovelace')) as HTMLTextAreaElement
    box.value = '  Paid, thank you.  '
    await userEvent.click(screen.getByRole('button', { name: 'Send reply' }))
    expect(await screen.findByText('Reply sent to ada@example.eu.')).toBeInTheDocument()
    expect(sent).toEqual(['Paid, thank you.'])
    expect(box).toHaveValue('')
  })
})

describe('support helpers', () => {
  it('checks the fields in the form order', () => {
    const empty = { name: '', email: '', subject: '', message: '' }
    expect(Object.keys(checkSupport(empty, true)?.fields ?? {})).toEqual(['name', 'email', 'subject', 'message'])
    expect(Object.keys(checkSupport(empty, false)?.fields ?? {})).toEqual(['subject', 'message'])
    expect(checkSupport({ ...empty, name: 'A', email: 'not-an-email', subject: 'S', message: 'M' }, true)?.message).toBe(
      'Please enter a valid email address',
    )
    expect(checkSupport({ name: 'A', email: 'a@b.co', subject: 'S', message: 'M' }, true)).toBeNull()
  })

  it('labels and colours the statuses', () => {
    expect(['open', 'answered', 'resolved'].map(statusLabel)).toEqual(['Open', 'Answered', 'Resolved'])
    expect(['open', 'answered', 'resolved'].map(statusTone)).toEqual(['blue', 'green', 'grey'])
  })
})
