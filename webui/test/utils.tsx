import { render } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { vi } from 'vitest'
import { App } from '../src/app/App'

export interface FakeResponse {
  status: number
  body?: unknown
}

/** Stubs global fetch; `handler` maps (method, url) to a response. Returns the mock. */
export function mockFetch(handler: (method: string, url: string, init: RequestInit) => FakeResponse) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const { status, body } = handler(init.method ?? 'GET', url, init)
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)
    return new Response(status === 204 ? null : text, {
      status,
      headers: { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json' },
    })
  })
  vi.stubGlobal('fetch', fn)
  return fn
}

/** A visitor: /api/auth/me answers 401. */
/** What the server sets on log-in next to the HttpOnly session cookie. */
export function setSignedInHint() {
  document.cookie = 'agency_signed_in=1; path=/'
}

export function mockVisitor() {
  return mockFetch(() => ({ status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }))
}

export function renderApp(path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  )
}

export const testUser = {
  id: 1,
  email: 'ada@example.eu',
  first_name: 'Ada',
  last_name: 'Lovelace',
  avatar_url: null,
  role: 'user',
  created_at: '2025-01-01T00:00:00Z',
}

/**
 * A signed-in user: sets the hint cookie and answers /api/auth/me with `user`; other calls go
 * to `handler` (404 when it returns nothing).
 */
export function mockSignedIn(
  user: object = testUser,
  handler?: (method: string, url: string, init: RequestInit) => FakeResponse | undefined,
) {
  setSignedInHint()
  return mockFetch((method, url, init) => {
    if (url === '/api/auth/me') return { status: 200, body: { user } }
    return handler?.(method, url, init) ?? { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
  })
}

/** The JSON body sent with the first call to `url`. */
export function sentBody(fetchMock: { mock: { calls: unknown[][] } }, url: string): unknown {
  const call = fetchMock.mock.calls.find(([input]) => input === url)
  if (!call) throw new Error(`No request to ${url}`)
  const init = call[1] as RequestInit
  return JSON.parse(String(init.body))
}

/** Replaces `window.location` with a stub whose `assign` is a mock (restored after each test). */
export function stubLocationAssign() {
  const assign = vi.fn()
  vi.stubGlobal('location', { href: 'http://localhost/', origin: 'http://localhost', assign })
  return assign
}
