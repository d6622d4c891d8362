/**
 * SSR entry used only at build time by scripts/prerender.mjs (never shipped to browsers).
 */
import { StrictMode } from 'react'
import { prerender } from 'react-dom/static'
import { StaticRouter } from 'react-router-dom'
import { App } from './app/App'
import { ROUTE_TEXT } from './app/route-text'
import { provideRouteTextForServer } from './app/RouteMeta'
import { findRoute, notFoundPage, routes } from './app/routes'
import { provideCatalogueForServer, type Catalogue } from './features/catalogue'

provideRouteTextForServer(ROUTE_TEXT)

/** Renders `url` (a path, maybe with a query) to HTML, waiting for lazy page chunks; with
 * `catalogue`, the pages that read the catalogue render with it (the purchase pages, whose
 * server embeds the catalogue they hydrate with). */
export async function render(url: string, catalogue: Catalogue | null = null): Promise<string> {
  // Load the page module first so React.lazy resolves synchronously (see routes.tsx).
  // A path no route matches renders the 404 page (dist/404.html).
  await (findRoute(new URL(url, 'http://prerender').pathname) ?? notFoundPage).load()
  provideCatalogueForServer(catalogue)
  try {
    return await renderApp(url)
  } finally {
    provideCatalogueForServer(null)
  }
}

async function renderApp(url: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={url}>
        <App />
      </StaticRouter>
    </StrictMode>,
    // Never outline large Suspense boundaries: React would otherwise stream them with
    // inline <script> tags (forbidden by our CSP) instead of inlining them.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  )
  return new Response(prelude).text()
}

export interface RouteManifestEntry {
  path: string
  prerender: boolean
  /** Source module of the page as keyed in .vite/manifest.json. */
  source: string
  /** Listed in /sitemap.xml (not a duplicate naming another page as canonical). */
  indexable: boolean
  /** Rendered once as a template the server fills per request (dist/_templates/). */
  template: boolean
}

/** Public, but not listed: log-in forms, and the footer's shortcuts into home page sections
 * (their own canonical URL, as Lighthouse asks, but the home page's content). */
const NOT_INDEXED = new Set(['/login', '/signup', '/forgot-password', '/how-it-works', '/features', '/pricing'])

/** The route table, reduced to what the prerender script needs. */
export const routeManifest: RouteManifestEntry[] = routes.map((r) => ({
  path: r.path,
  prerender: r.prerender,
  source: r.source,
  indexable: r.prerender && !NOT_INDEXED.has(r.path) && r.canonical === undefined,
  template: r.template ?? false,
}))

/** Source module of the 404 page, as keyed in .vite/manifest.json. */
export const notFoundSource: string = notFoundPage.source

export { findRoute }
