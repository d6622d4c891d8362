import { useEffect } from 'react'
import { useLocation } from 'react-router-dom'
import { pageOwnsHead } from '../lib/page-head'
import { siteConfig } from '../lib/site-config'
import type { RouteText } from './route-text'
import { fullTitle, NOT_FOUND_TITLE, notFoundPage, type AppRoute } from './routes'

/** Default Open Graph image (1200×630, webui/public/og-image.jpg). */
const OG_IMAGE = '/og-image.jpg'

/** Where a route's description names the brand (route-text.ts). */
const BRAND = '{brand}'

interface Head {
  siteName: string
  title: string
  description: string
  url: string
  image: string
  ogType: string
  noindex: boolean
}

function headFor(route: AppRoute, pathname: string, [title, description]: RouteText): Head {
  const { baseUrl, brandName } = siteConfig()
  return {
    title: fullTitle(title),
    description: description.replaceAll(BRAND, brandName),
    url: baseUrl + (route.canonical ?? (route.path.includes(':') ? pathname : route.path)),
    image: baseUrl + OG_IMAGE,
    siteName: brandName,
    ogType: route.ogType ?? 'website',
    noindex: route.layout === 'dashboard',
  }
}

/** The <head> tags of a page, as the prerender script moves them into static HTML. */
function HeadTags({ head }: { head: Head }) {
  return (
    <>
      <title>{head.title}</title>
      <meta name="description" content={head.description} />
      <link rel="canonical" href={head.url} />
      <meta property="og:site_name" content={head.siteName} />
      <meta property="og:title" content={head.title} />
      <meta property="og:description" content={head.description} />
      <meta property="og:type" content={head.ogType} />
      <meta property="og:url" content={head.url} />
      <meta property="og:image" content={head.image} />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta name="twitter:card" content="summary_large_image" />
      {head.noindex && <meta name="robots" content="noindex" />}
    </>
  )
}

function setTag(tag: 'meta' | 'link', key: string, value: string | null) {
  const [keyAttr, valueAttr] = tag === 'link' ? ['rel', 'href'] : key.startsWith('og:') ? ['property', 'content'] : ['name', 'content']
  let element = document.head.querySelector(`${tag}[${keyAttr}="${key}"]`)
  if (value === null) return element?.remove()
  if (!element) {
    element = document.createElement(tag)
    element.setAttribute(keyAttr, key)
    document.head.append(element)
  }
  element.setAttribute(valueAttr, value)
}

function applyHead(head: Head) {
  document.title = head.title
  setTag('meta', 'description', head.description)
  setTag('link', 'canonical', head.url)
  setTag('meta', 'og:site_name', head.siteName)
  setTag('meta', 'og:title', head.title)
  setTag('meta', 'og:description', head.description)
  setTag('meta', 'og:type', head.ogType)
  setTag('meta', 'og:url', head.url)
  setTag('meta', 'og:image', head.image)
  setTag('meta', 'robots', head.noindex ? 'noindex' : null)
}

/** The path whose <head> came prerendered with the page: nothing to load for it. */
let prerenderedPath: string | undefined

/** Called by main.tsx before it hydrates prerendered HTML. */
export function markHeadPrerendered(pathname: string) {
  prerenderedPath = pathname
}

/**
 * Keeps <title>, description, canonical and Open Graph tags in step with the route. The
 * prerendered HTML already carries them for its page; after a client-side navigation (or on
 * a client-only page) the browser loads the route texts once and updates the tags in place.
 */
function ClientHead({ route }: { route: AppRoute }) {
  const { pathname } = useLocation()
  useEffect(() => {
    if (pathname === prerenderedPath) return undefined
    prerenderedPath = undefined // from now on every page's head is set here
    let current = true
    void import('./route-text').then(({ ROUTE_TEXT: texts }) => {
      const text = texts[route.path]
      // A page that sets its own head from its data (an article) keeps it.
      if (current && text && !pageOwnsHead(pathname)) applyHead(headFor(route, pathname, text))
    })
    return () => {
      current = false
    }
  }, [route, pathname])
  return null
}

/** The route texts for prerendering, handed over by entry-server.tsx (a static import here
 * would put them into the browser's entry chunk). */
let serverRouteText: Readonly<Record<string, RouteText>> = {}

export function provideRouteTextForServer(texts: Readonly<Record<string, RouteText>>) {
  serverRouteText = texts
}

/** Per-route head tags: rendered into static HTML at build time, updated in place in the browser. */
export function RouteMeta({ route }: { route: AppRoute }) {
  const { pathname } = useLocation()
  if (!import.meta.env.SSR) return <ClientHead route={route} />
  const text = serverRouteText[route.path]
  if (!text) throw new Error(`route-text.ts has no title and description for ${route.path}`)
  return <HeadTags head={headFor(route, pathname, text)} />
}

/** What a route renders: its head tags plus its lazily loaded page. */
export function RouteElement({ route }: { route: AppRoute }) {
  const Page = route.Component
  return (
    <>
      <RouteMeta route={route} />
      <Page />
    </>
  )
}

/** The 404 page's head: its title and `noindex`, nothing else (no canonical URL, no Open
 * Graph tags: it is nobody's page). Prerendered into dist/404.html; in the browser, set after
 * a client-side navigation to an unknown path. */
function NotFoundMeta() {
  const { pathname } = useLocation()
  useEffect(() => {
    if (pathname === prerenderedPath) return
    prerenderedPath = undefined
    document.title = fullTitle(NOT_FOUND_TITLE)
    for (const key of ['description', 'og:site_name', 'og:title', 'og:description', 'og:type', 'og:url', 'og:image']) setTag('meta', key, null)
    setTag('link', 'canonical', null)
    setTag('meta', 'robots', 'noindex')
  }, [pathname])
  if (!import.meta.env.SSR) return null
  return (
    <>
      <title>{fullTitle(NOT_FOUND_TITLE)}</title>
      <meta name="robots" content="noindex" />
    </>
  )
}

/** What an unknown path renders: the 404 page's head tags and the page. */
export function NotFoundElement() {
  const Page = notFoundPage.Component
  return (
    <>
      <NotFoundMeta />
      <Page />
    </>
  )
}
