/** Test helpers shared by the landing-page tests. */
import { screen } from '@testing-library/react'
import { testCatalogue } from './catalogue'
import { mockFetch, renderApp, type FakeResponse } from './utils'

/** Serves the catalogue; `/api/leads` answers with `leads` (default 201); anything else 404/401. */
export function mockLanding(leads: (body: unknown) => FakeResponse = () => ({ status: 201, body: { message: 'ok' } })) {
  return mockFetch((method, url, init) => {
    if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
    if (url === '/api/leads' && method === 'POST') return leads(JSON.parse(String(init.body)))
    if (url === '/api/auth/me') return { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
  })
}

/** The href of every link on the page that goes to the purchase entry /start. */
export function startHrefs(): string[] {
  return screen
    .getAllByRole('link')
    .map((link) => link.getAttribute('href') ?? '')
    .filter((href) => href.startsWith('/start'))
}

/** Every link named `name` (exact), with its href. */
export function hrefsOf(name: string | RegExp): string[] {
  return screen.getAllByRole('link', { name }).map((link) => link.getAttribute('href') ?? '')
}

/** Renders the app at `path` and waits (generously: the page chunk loads lazily) for its h1. */
export async function renderLanding(path: string): Promise<HTMLElement> {
  renderApp(path)
  return screen.findByRole('heading', { level: 1 }, { timeout: 10000 })
}
