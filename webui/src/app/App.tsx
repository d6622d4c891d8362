import { lazy, Suspense, useEffect } from 'react'
import { useLocation } from 'react-router-dom'
import { PageLoading } from '../components/layout/PageLoading'
import { AuthProvider } from '../lib/auth'
import { RouteParamsProvider } from '../lib/router'
import { PublicLayout } from './PublicLayout'
import { NotFoundElement, RouteElement } from './RouteMeta'
import { matchRoute } from './routes'
import { ScrollManager } from './ScrollManager'

// The dashboard frame is client-only and never on a first public page: keep it out of the entry chunk.
const DashboardLayout = lazy(() => import('./DashboardLayout'))

/** The matched route's page inside its layout; an unknown path shows the 404 page (which the
 * server sends with status 404 on a first load). */
function CurrentPage() {
  const { pathname } = useLocation()
  const match = matchRoute(pathname)
  if (!match) {
    return (
      <PublicLayout>
        <NotFoundElement />
      </PublicLayout>
    )
  }
  const { route, params } = match
  // Keyed by pattern: moving between two routes of the same page module starts it afresh.
  const page = (
    <RouteParamsProvider value={params}>
      <RouteElement key={route.path} route={route} />
    </RouteParamsProvider>
  )
  if (route.layout === 'public') return <PublicLayout>{page}</PublicLayout>
  return (
    <Suspense fallback={<PageLoading />}>
      <DashboardLayout>{page}</DashboardLayout>
    </Suspense>
  )
}

/** Marks `<html data-hydrated>` once the first render (hydration of the prerendered page) has
 * committed: the browser tests wait for it before changing the URL under the router, which
 * during hydration would render another page than the server's markup. */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
  }, [])
  return null
}

/** The whole application below the router (BrowserRouter, StaticRouter or MemoryRouter). */
export function App() {
  return (
    <AuthProvider>
      <CurrentPage />
      <ScrollManager />
      <HydrationMark />
    </AuthProvider>
  )
}
