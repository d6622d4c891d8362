import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch, renderApp, sentBody } from '@test/utils'
import { MSG_INVALID, tokenAddress } from './Unsubscribe'

/** A token as the server makes it: base64url(address) "." base64url(signature). */
function tokenFor(address: string): string {
  const bytes = new TextEncoder().encode(address)
  const body = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  return `${body}.c2lnbmF0dXJl`
}

const ADDRESS = 'ann.lee+speed@gmail.com'
const TOKEN = tokenFor(ADDRESS)
const UNSUBSCRIBE = '/api/mail/unsubscribe'

/** The page's calls: /api/auth/me (a visitor) and the unsubscribe POST, answered by `post`. */
function mockServer(post: () => { status: number; body?: unknown }) {
  return mockFetch((method, url) => {
    if (method === 'POST' && url === UNSUBSCRIBE) return post()
    return { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
  })
}

function unsubscribeCalls(fetchMock: { mock: { calls: unknown[][] } }) {
  return fetchMock.mock.calls.filter(([url]) => url === UNSUBSCRIBE)
}

describe('tokenAddress', () => {
  it('reads the address a token carries, any characters', () => {
    expect(tokenAddress(TOKEN)).toBe(ADDRESS)
    expect(tokenAddress(tokenFor('jörg@bücher.example'))).toBe('jörg@bücher.example')
  })

  it('finds none in what is not a token', () => {
    for (const text of ['', 'abc', 'YW5u', '.', '!!!.sig', `${btoa('no at sign')}.sig`, '_w.sig']) {
      expect(tokenAddress(text), text).toBeNull()
    }
  })
})

describe('/unsubscribe', () => {
  it('asks first: nothing is posted until the button is pressed (scanners open links)', async () => {
    const fetchMock = mockServer(() => ({ status: 200, body: { address: ADDRESS, unsubscribed: true } }))
    renderApp(`/unsubscribe?token=${TOKEN}`)
    await screen.findByRole('heading', { level: 1, name: 'Unsubscribe' })
    expect(screen.getByText(/Stop e-mails to/)).toHaveTextContent(`Stop e-mails to ${ADDRESS}?`)
    expect(unsubscribeCalls(fetchMock)).toEqual([])

    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }))
    expect(await screen.findByRole('status')).toHaveTextContent(`Done. We will send no more e-mails to ${ADDRESS}.`)
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument()
    expect(sentBody(fetchMock, UNSUBSCRIBE)).toEqual({ token: TOKEN })
    const [, init] = unsubscribeCalls(fetchMock)[0] as [string, RequestInit]
    expect(init.method).toBe('POST')
    expect((init.headers as Record<string, string>)['X-Agency-Request']).toBe('1')
  })

  it('works from the keyboard', async () => {
    mockServer(() => ({ status: 200, body: { address: ADDRESS, unsubscribed: true } }))
    renderApp(`/unsubscribe?token=${TOKEN}`)
    const button = await screen.findByRole('button', { name: 'Unsubscribe' })
    button.focus()
    await userEvent.keyboard('{Enter}')
    expect(await screen.findByRole('status')).toHaveTextContent('Done.')
  })

  it("shows the server's refusal of a forged token, with no second try", async () => {
    mockServer(() => ({ status: 400, body: { error: { code: 'invalid_token', message: MSG_INVALID } } }))
    renderApp(`/unsubscribe?token=${TOKEN}`)
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG_INVALID)
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
  })

  it('lets a failure that may pass be tried again', async () => {
    let calls = 0
    mockServer(() => {
      calls += 1
      return calls === 1
        ? { status: 429, body: { error: { code: 'too_many_requests', message: 'Too many attempts. Please try again in 1 minute.' } } }
        : { status: 200, body: { address: ADDRESS, unsubscribed: true } }
    })
    renderApp(`/unsubscribe?token=${TOKEN}`)
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts.')
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Done.')
    expect(calls).toBe(2)
  })

  it('says a link without a token is not valid, without calling the server', async () => {
    for (const path of ['/unsubscribe', '/unsubscribe?token=garbage']) {
      const fetchMock = mockServer(() => ({ status: 500 }))
      const { unmount } = renderApp(path)
      await screen.findByRole('heading', { level: 1, name: 'Unsubscribe' })
      expect(screen.getByRole('alert')).toHaveTextContent(MSG_INVALID)
      expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument()
      expect(unsubscribeCalls(fetchMock)).toEqual([])
      unmount()
    }
  })
})
