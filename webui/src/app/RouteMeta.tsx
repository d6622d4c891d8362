import { useLocation } from 'react-router-dom'
import { siteConfig } from '../lib/site-config'
import { fullTitle, SITE_NAME, type AppRoute } from './routes'

/** Default Open Graph image (1200×630, webui/public/og-image.jpg). */
const OG_IMAGE = '/og-image.jpg'

/**
 * Per-route <title>, description, canonical and Open Graph tags. React 19 hoists these
 * into <head> on the client; the prerender script moves them there in static HTML.
 */
export function RouteMeta({ route }: { route: AppRoute }) {
  const { pathname } = useLocation()
  const title = fullTitle(route)
  const { baseUrl } = siteConfig()
  const url = baseUrl + (route.canonical ?? (route.path.includes(':') ? pathname : route.path))
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={route.description} />
      <link rel="canonical" href={url} />
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={route.description} />
      <meta property="og:type" content={route.ogType ?? 'website'} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={baseUrl + OG_IMAGE} />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta name="twitter:card" content="summary_large_image" />
      {route.layout === 'dashboard' && <meta name="robots" content="noindex" />}
    </>
  )
}

/** What a route renders: its meta tags plus its lazily loaded page. */
export function RouteElement({ route }: { route: AppRoute }) {
  const Page = route.Component
  return (
    <>
      <RouteMeta route={route} />
      <Page />
    </>
  )
}
