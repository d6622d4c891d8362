import { lazy, Suspense } from 'react'
import { Navigate, Route, Routes } from 'react-router-dom'
import { PageLoading } from '../components/layout/PageLoading'
import { AuthProvider } from '../lib/auth'
import { PublicLayout } from './PublicLayout'
import { RouteElement } from './RouteMeta'
import { routes } from './routes'
import { ScrollManager } from './ScrollManager'

// The dashboard frame is client-only and never on a first public page: keep it out of the entry chunk.
const DashboardLayout = lazy(() => import('./DashboardLayout'))

const publicRoutes = routes.filter((r) => r.layout === 'public')
const dashboardRoutes = routes.filter((r) => r.layout === 'dashboard')

/** The whole application below the router (BrowserRouter, StaticRouter or MemoryRouter). */
export function App() {
  return (
    <AuthProvider>
      <Routes>
        <Route element={<PublicLayout />}>
          {publicRoutes.map((route) => (
            <Route key={route.path} path={route.path} element={<RouteElement route={route} />} />
          ))}
        </Route>
        <Route
          element={
            <Suspense fallback={<PageLoading />}>
              <DashboardLayout />
            </Suspense>
          }
        >
          {dashboardRoutes.map((route) => (
            <Route key={route.path} path={route.path} element={<RouteElement route={route} />} />
          ))}
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
      <ScrollManager />
    </AuthProvider>
  )
}
