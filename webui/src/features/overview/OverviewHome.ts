import { lazy } from 'react'

/**
 * The admins' overview page, in a chunk of its own: only an admin's /dashboard loads it
 * (customers, and every public page, never fetch its code).
 */
export const OverviewHome = lazy(() => import('./pages/Overview'))
