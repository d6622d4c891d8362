import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { caseRoutes, requestPath, routeCases } from '@test/route-cases'
import { mockSignedIn, mockVisitor, renderApp } from '@test/utils'
import { ROUTE_TEXT } from './route-text'
import { matchPath } from 'react-router-dom'
import { findRoute, matchRoute, prerenderedPaths, routes, spaPatterns } from './routes'
import { routeManifest } from '../entry-server'

const EXPECTED_PRERENDERED = [
  '/', '/landing', '/ugc-force', '/ai-automation', '/ai-lead-engine', '/ai-booking-system', '/ai-onboarding-system',
  '/ai-scale-startup', '/ai-scale-startup2', '/ai-scale-startup3', '/ai-scale-startup4', '/lead-generation',
  '/rebuild-sales-funnel', '/real-estate-website-rebuild', '/free-preview', '/speed-test', '/clinic-speed-test',
  '/coach-speed-test', '/ai-analysis', '/business-analysis', '/technical-analysis', '/agency-analysis', '/blog',
  '/sales-funnel', '/login', '/signup', '/forgot-password', '/support', '/how-it-works', '/features', '/pricing',
  '/faq', '/about', '/contact', '/careers', '/privacy', '/terms', '/cookies', '/imprint', '/withdrawal', '/withdraw',
  '/cancel',
]

const EXPECTED_SPA = [
  '/start', '/ai-start', '/success', '/reset-password', '/unsubscribe', '/blog/:slug', '/dashboard', '/dashboard/websites',
  '/dashboard/websites/:id', '/dashboard/analytics', '/dashboard/billing', '/dashboard/support', '/dashboard/profile',
  '/dashboard/settings', '/dashboard/seo', '/dashboard/leads', '/dashboard/admin/websites',
  '/dashboard/admin/support', '/dashboard/admin/contracts', '/dashboard/admin/vat', '/dashboard/admin/catalogue', '/dashboard/admin/audit',
]

describe('route table', () => {
  it('has every route of the spec exactly once', () => {
    expect([...prerenderedPaths].sort()).toEqual([...EXPECTED_PRERENDERED].sort())
    expect([...spaPatterns].sort()).toEqual([...EXPECTED_SPA].sort())
    const paths = routes.map((r) => r.path)
    expect(new Set(paths).size).toBe(paths.length)
  })

  it('gives every route a title, a description and a lazy component', async () => {
    expect(Object.keys(ROUTE_TEXT).sort()).toEqual(routes.map((r) => r.path).sort())
    for (const route of routes) {
      const [title, description] = ROUTE_TEXT[route.path] ?? ['', '']
      expect(title.trim(), route.path).not.toBe('')
      expect(description.trim().length, route.path).toBeGreaterThan(20)
      expect(description.length, route.path).toBeLessThanOrEqual(160)
      expect((route.Component as unknown as { $$typeof: symbol }).$$typeof).toBe(Symbol.for('react.lazy'))
      const mod = await route.load()
      expect(typeof mod.default, route.path).toBe('function')
    }
  })

  it('matches paths with params and trailing slashes', () => {
    expect(findRoute('/blog/fast-sites')?.path).toBe('/blog/:slug')
    expect(findRoute('/dashboard/websites/42')?.path).toBe('/dashboard/websites/:id')
    expect(findRoute('/landing/')?.path).toBe('/landing')
    expect(findRoute('/nope')).toBeUndefined()
  })

  it('answers every case of the table the server is tested against', () => {
    // test/fixtures/route-cases.json: tests/core/test_site.py checks the server's answers.
    expect(caseRoutes).toEqual({ prerendered: [...prerenderedPaths], spa: [...spaPatterns] })
    for (const { path, route, params, why } of routeCases) {
      const match = matchRoute(requestPath(path))
      expect(match?.route.path ?? null, `${path}: ${why}`).toBe(route)
      if (match) expect(match.params, `${path}: ${why}`).toEqual(params ?? {})
    }
  })

  it('matches as a matchPath scan of the table does, for paths without escapes or dot segments', () => {
    const byMatchPath = (pathname: string) => routes.find((route) => matchPath({ path: route.path, end: true }, pathname))
    const samples = new Set<string>(['/', '//', '', '/x', '/dashboard/websites/', '/blog/', '/blog/a/b', '/%20', '/dashboard/Websites/7'])
    for (const route of routes) {
      const path = route.path.replace(/:[a-z]+/gi, 'some-value')
      for (const variant of [path, `${path}/`, `${path}//`, path.toUpperCase(), `${path}x`, `${path}/x`, path.slice(0, -1), `/x${path}`]) {
        samples.add(variant)
      }
    }
    for (const pathname of samples) {
      const expected = byMatchPath(pathname)
      const got = matchRoute(pathname)
      expect(got?.route.path, pathname).toBe(expected?.path)
      if (expected) expect(got?.params, pathname).toEqual(matchPath({ path: expected.path, end: true }, pathname)?.params)
      expect(matchRoute(pathname), `${pathname} again`).toBe(got)
    }
  })

  it('refuses an admin page to a non-admin however its path is written', async () => {
    // The route matcher opens /dashboard/SEO/ as /dashboard/seo: so must the admin-only guard.
    for (const path of ['/dashboard/SEO/', '/dashboard/s%65o']) {
      mockSignedIn()
      const { unmount } = renderApp(path)
      expect(await screen.findByText('Only admins can open the article manager.'), path).toBeInTheDocument()
      unmount()
    }
  })

  it('shows the 404 page, in the public layout, for an unknown path', async () => {
    mockVisitor()
    renderApp('/this/does/not/exist')
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Your Website. Live in 24 Hours.' })).not.toBeInTheDocument()
    expect(screen.getByRole('banner')).toBeInTheDocument()
    expect(screen.getByRole('contentinfo')).toBeInTheDocument()
    const main = within(screen.getByRole('main'))
    for (const [name, href] of [['Home page', '/'], ['Website speed test', '/speed-test'], ['Blog', '/blog'], ['Contact us', '/contact']]) {
      expect(main.getByRole('link', { name }), name).toHaveAttribute('href', href)
    }
    await waitFor(() => expect(document.title).toBe('Page not found | agency'))
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull()
  })

  it('shows the 404 page for each route case without a route', async () => {
    // The client's side of route-cases.json's `route: null`: the server sends dist/404.html.
    const unknown = routeCases.filter((c) => c.route === null).slice(0, 3)
    expect(unknown.length).toBeGreaterThan(0)
    for (const { path, why } of unknown) {
      mockVisitor()
      const { unmount } = renderApp(requestPath(path))
      expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }), `${path}: ${why}`).toBeInTheDocument()
      unmount()
    }
  })

  it('leaves the 404 page for a real page by a link', async () => {
    mockVisitor()
    renderApp('/no-such-page')
    await screen.findByRole('heading', { level: 1, name: 'Page not found' })
    await waitFor(() => expect(document.head.querySelector('meta[name="robots"]')).not.toBeNull())
    fireEvent.click(within(screen.getByRole('main')).getByRole('link', { name: 'Contact us' }))
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'Page not found' })).not.toBeInTheDocument())
    await waitFor(() => expect(document.head.querySelector('meta[name="robots"]')).toBeNull())
  })

  it('sets the page title from the route table', async () => {
    mockVisitor()
    renderApp('/login')
    await screen.findByRole('heading', { level: 1, name: 'Welcome back.' })
    await waitFor(() => expect(document.title).toBe('Log in | agency'))
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute('content', ROUTE_TEXT['/login']?.[1].replace('{brand}', 'agency'))
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(/\/login$/)
  })

  it('names /ai-scale-startup as the canonical page of its duplicate /ai-scale-startup4', async () => {
    mockVisitor()
    renderApp('/ai-scale-startup4')
    await waitFor(() => expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(/\/ai-scale-startup$/))
    expect(document.head.querySelector('meta[property="og:url"]')?.getAttribute('content')).toMatch(/\/ai-scale-startup$/)
    expect(routeManifest.find((r) => r.path === '/ai-scale-startup4')?.indexable).toBe(false)
    expect(routeManifest.find((r) => r.path === '/ai-scale-startup')?.indexable).toBe(true)
  })

  it('renders the home sections with their anchors', async () => {
    mockVisitor()
    renderApp('/pricing')
    await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })
    for (const id of ['how-it-works', 'features', 'pricing']) expect(document.getElementById(id)).toBeInTheDocument()
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(screen.getByRole('link', { name: 'Get Your Website Now' })).toHaveAttribute('href', '/start')
    expect(screen.getByRole('link', { name: 'See How It Works' })).toHaveAttribute('href', '/#how-it-works')
  })

  it('sends signed-out visitors from the dashboard to /login', async () => {
    mockVisitor()
    renderApp('/dashboard/billing')
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back.' })).toBeInTheDocument()
  })
})
