/**
 * THE route table of the web UI. Everything else derives from it: the <Routes> tree
 * (App.tsx), page <title>/meta tags, the hydration preload (main.tsx), the prerender list
 * and dist/routes.json (scripts/prerender.mjs via entry-server.tsx).
 *
 * `page` names a module under src/pages/ (without `.tsx`); it is loaded lazily.
 * `prerender: true` routes are rendered to static HTML at build time; the others are
 * client-only and served from dist/spa.html. `:param` matches one path segment.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { decodePath, pathKey, trimTrailingSlashes } from '../lib/router'
import { siteConfig } from '../lib/site-config'

export interface PageModule {
  default: ComponentType
}

export type RouteLayout = 'public' | 'dashboard'

export interface RouteDef {
  path: string
  /** Module under src/pages/, without extension, e.g. 'Login' or 'dashboard/Billing'. */
  page: string
  prerender: boolean
  layout: RouteLayout
  /** Element id scrolled to after the page is shown (e.g. /pricing -> #pricing on home). */
  scrollTo?: string
  ogType?: 'website' | 'article'
  /** A client-only `:param` route the server fills per request (the server's
   * `Module.server_pages`): the build renders it once, params as written, into
   * dist/_templates/ for the server to fill. */
  template?: boolean
  /** The path of the page this one duplicates: its canonical URL (and og:url), and the
   * duplicate stays out of /sitemap.xml. */
  canonical?: string
}

export interface AppRoute extends RouteDef {
  /** Source path as used in .vite/manifest.json, e.g. 'src/pages/Login.tsx'. */
  source: string
  /** Starts (or reuses) the page chunk download. */
  load: () => Promise<PageModule>
  Component: LazyExoticComponent<ComponentType>
}



const pub = (path: string, page: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  path,
  page,
  prerender: true,
  layout: 'public',
  ...extra,
})

const spa = (path: string, page: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  path,
  page,
  prerender: false,
  layout: 'public',
  ...extra,
})

/** A dashboard page: `page` is the module's name in src/pages/dashboard. */
const dash = (path: string, page: string): RouteDef => ({ path, page: `dashboard/${page}`, prerender: false, layout: 'dashboard' })


export const routeDefs: readonly RouteDef[] = [
  // --- Prerendered public pages -------------------------------------------------------
  pub('/', 'Home'),
  pub('/landing', 'WebsiteSpeedLanding'),
  pub('/ugc-force', 'UgcForce'),
  pub('/ai-automation', 'AiAutomation'),
  pub('/ai-lead-engine', 'AiLeadEngine'),
  pub('/ai-booking-system', 'AiBookingSystem'),
  pub('/ai-onboarding-system', 'AiOnboardingSystem'),
  pub('/ai-scale-startup', 'AiScaleStartup'),
  pub('/ai-scale-startup2', 'AiScaleStartup'),
  pub('/ai-scale-startup3', 'AiScaleStartup'),
  // The same text as /ai-scale-startup (and by default the same plan): a duplicate of it.
  pub('/ai-scale-startup4', 'AiScaleStartup', { canonical: '/ai-scale-startup' }),
  pub('/lead-generation', 'LeadGeneration'),
  pub('/rebuild-sales-funnel', 'RebuildSalesFunnel'),
  pub('/real-estate-website-rebuild', 'RealEstateRebuild'),
  pub('/free-preview', 'FreePreview'),
  pub('/speed-test', 'SpeedTest'),
  pub('/clinic-speed-test', 'ClinicSpeedTest'),
  pub('/coach-speed-test', 'CoachSpeedTest'),
  pub('/ai-analysis', 'analysis/AiAnalysis'),
  pub('/business-analysis', 'analysis/BusinessAnalysis'),
  pub('/technical-analysis', 'analysis/TechnicalAnalysis'),
  pub('/agency-analysis', 'analysis/AgencyAnalysis'),
  pub('/blog', 'blog/BlogIndex'),
  pub('/sales-funnel', 'SalesFunnel'),
  pub('/login', 'auth/Login'),
  pub('/signup', 'auth/Signup'),
  pub('/forgot-password', 'auth/ForgotPassword'),
  pub('/support', 'Support'),
  pub('/how-it-works', 'Home', { scrollTo: 'how-it-works' }),
  pub('/features', 'Home', { scrollTo: 'features' }),
  pub('/pricing', 'Home', { scrollTo: 'pricing' }),
  pub('/faq', 'info/Faq'),
  pub('/about', 'info/About'),
  pub('/contact', 'info/Contact'),
  pub('/careers', 'info/Careers'),
  pub('/privacy', 'info/Privacy'),
  pub('/terms', 'info/Terms'),
  pub('/cookies', 'info/Cookies'),
  pub('/imprint', 'info/Imprint'),
  pub('/withdrawal', 'info/Withdrawal'),
  pub('/withdraw', 'Withdraw'),
  pub('/cancel', 'Cancel'),

  // --- Client-only pages (served from spa.html) ---------------------------------------
  // Server pages (modules/catalogue): prerendered once per family and plan, the server picks
  // the variant the query asks for and embeds the catalogue (see scripts/prerender.mjs).
  spa('/start', 'purchase/Start', { template: true }),
  spa('/ai-start', 'purchase/AiStart', { template: true }),
  spa('/success', 'purchase/Success'),
  spa('/reset-password', 'auth/ResetPassword'),
  spa('/unsubscribe', 'Unsubscribe'),
  spa('/blog/:slug', 'blog/Article', { ogType: 'article', template: true }),

  // --- Dashboard (client-only, signed-in users) ---------------------------------------
  dash('/dashboard', 'DashboardHome'),
  dash('/dashboard/websites', 'Websites'),
  dash('/dashboard/websites/:id', 'WebsiteDetail'),
  dash('/dashboard/analytics', 'Analytics'),
  dash('/dashboard/billing', 'Billing'),
  dash('/dashboard/support', 'DashboardSupport'),
  dash('/dashboard/profile', 'Profile'),
  dash('/dashboard/settings', 'Settings'),
  dash('/dashboard/seo', 'SeoArticles'),
  dash('/dashboard/leads', 'Leads'),
  dash('/dashboard/admin/websites', 'AdminWebsites'),
  dash('/dashboard/admin/support', 'AdminSupport'),
  dash('/dashboard/admin/contracts', 'AdminContracts'),
  dash('/dashboard/admin/vat', 'AdminVat'),
  dash('/dashboard/admin/catalogue', 'AdminCatalogue'),
  dash('/dashboard/admin/audit', 'AdminAudit'),
]

// Vite turns this into one lazy chunk per page module (tests excluded).
// Keys relative to src/pages (`./dashboard/Billing.tsx`): shorter keys, fewer first-load bytes.
const pageModules = import.meta.glob<PageModule>(['./**/*.tsx', '!./**/*.test.tsx'], { base: '../pages' })

function resolvedThenable<T>(value: T): Promise<T> {
  const thenable = {
    then(onFulfilled?: (v: T) => unknown) {
      onFulfilled?.(value)
      return thenable
    },
  }
  return thenable as unknown as Promise<T>
}

const pageCache = new Map<string, Pick<AppRoute, 'load' | 'Component' | 'source'>>()

function pageFor(page: string): Pick<AppRoute, 'load' | 'Component' | 'source'> {
  const cached = pageCache.get(page)
  if (cached) return cached
  const importer = pageModules[`./${page}.tsx`]
  if (!importer) throw new Error(`Route table: no page module src/pages/${page}.tsx`)
  let pending: Promise<PageModule> | undefined
  let loaded: PageModule | undefined
  const load = () =>
    (pending ??= importer().then(
      (mod) => (loaded = mod),
      (err: unknown) => {
        pending = undefined // allow a retry after a failed download
        throw err
      },
    ))
  // Once the module is loaded (prerender, or the preload before hydration in main.tsx),
  // hand React.lazy a synchronously resolving thenable: the page then renders without
  // suspending, so the prerendered HTML is complete (no streamed inline <script>) and
  // hydration matches it exactly.
  const Component = lazy(() => (loaded ? resolvedThenable(loaded) : load()))
  const entry = { load, Component, source: `src/pages/${page}.tsx` }
  pageCache.set(page, entry)
  return entry
}

export const routes: readonly AppRoute[] = routeDefs.map((def) => ({ ...def, ...pageFor(def.page) }))

/** The "Page not found" page (src/pages/NotFound.tsx): shown where `matchRoute` finds no
 * route, inside the public layout. Not a route: prerendered once into dist/404.html, which
 * the server sends with status 404 for any unknown path outside /api/. */
export const notFoundPage: Pick<AppRoute, 'load' | 'Component' | 'source'> = pageFor('NotFound')

/** The page part of the 404 page's <title>. */
export const NOT_FOUND_TITLE = 'Page not found'

export interface RouteMatch {
  route: AppRoute
  /** Values of the pattern's `:name` segments. */
  params: Readonly<Record<string, string | undefined>>
}

/** Where a prerendered page's HTML file lies in the build: `/faq/index.html` is `/faq`. */
const INDEX_FILE = '/index.html'

const prerenderedByPath: ReadonlyMap<string, AppRoute> = new Map(routes.filter((r) => r.prerender).map((r) => [r.path, r]))

/** Patterns without `:param` segments, by path; each matches one path only. */
const staticRoutes: ReadonlyMap<string, AppRoute> = new Map(
  routes.filter((route) => !route.path.includes(':')).map((route) => [route.path, route]),
)

/** The others, split into segments: `:name` takes any one segment but `.` and `..`. */
const paramRoutes = routes
  .filter((route) => route.path.includes(':'))
  .map((route) => ({ route, segments: route.path.split('/') }))

function findMatch(pathname: string): RouteMatch | undefined {
  const path = decodePath(pathname)
  if (path.endsWith(INDEX_FILE)) {
    const page = prerenderedByPath.get(path.slice(0, -INDEX_FILE.length) || '/')
    if (page) return { route: page, params: {} }
  }
  const key = pathKey(path)
  const route = staticRoutes.get(key)
  if (route) return { route, params: {} }
  const given = trimTrailingSlashes(path).split('/')
  const keys = key.split('/')
  for (const { route, segments } of paramRoutes) {
    if (segments.length !== given.length) continue
    const params: Record<string, string> = {}
    const matches = segments.every((segment, i) => {
      const value = given[i] ?? ''
      if (!segment.startsWith(':')) return segment === keys[i]
      params[segment.slice(1)] = value
      return value !== '' && value !== '.' && value !== '..'
    })
    if (matches) return { route, params }
  }
  return undefined
}

let lastMatch: { pathname: string; match: RouteMatch | undefined } | null = null

/**
 * The route that shows `pathname`, if any: a prerendered page's `index.html`, else a pattern
 * equal to the path once decoded (`decodePath`), without trailing slashes and with ASCII
 * letters lower-cased (`pathKey`); a static pattern before a `:param` one. The server answers the
 * same (core/web/site.py: the page, spa.html, or the 404 page with status 404 where this finds
 * nothing, as App.tsx shows `notFoundPage`);
 * test/fixtures/route-cases.json holds the cases both test suites check.
 */
export function matchRoute(pathname: string): RouteMatch | undefined {
  // On the path to the first paint's hydration: no RegExp per pattern, and the last answer
  // is remembered (every render of the app asks).
  if (lastMatch?.pathname === pathname) return lastMatch.match
  const match = findMatch(pathname)
  lastMatch = { pathname, match }
  return match
}

export function findRoute(pathname: string): AppRoute | undefined {
  return matchRoute(pathname)?.route
}

export const prerenderedPaths: readonly string[] = routes.filter((r) => r.prerender).map((r) => r.path)
export const spaPatterns: readonly string[] = routes.filter((r) => !r.prerender).map((r) => r.path)

/** A page title as shown in the browser: the page part, then the brand (AGENCY_BRAND_NAME). */
export function fullTitle(title: string): string {
  return `${title} | ${siteConfig().brandName}`
}
