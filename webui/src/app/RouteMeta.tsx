import { useLocation } from 'react-router-dom'
import { fullTitle, type AppRoute } from './routes'

/**
 * Per-route <title>, description, canonical and Open Graph tags. React 19 hoists these
 * into <head> on the client; the prerender script moves them there in static HTML.
 */
export function RouteMeta({ route }: { route: AppRoute }) {
  const { pathname } = useLocation()
  const title = fullTitle(route)
  const url = route.canonical ?? (route.path.includes(':') ? pathname : route.path)
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={route.description} />
      <link rel="canonical" href={url} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={route.description} />
      <meta property="og:type" content={route.ogType ?? 'website'} />
      <meta property="og:url" content={url} />
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
