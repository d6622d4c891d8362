import { Suspense, useState } from 'react'
import { Navigate, NavLink, Outlet, useNavigate } from 'react-router-dom'
import { Logo } from '../components/layout/Logo'
import { PageLoading } from '../components/layout/PageLoading'
import { Button } from '../components/ui/Button'
import { Spinner } from '../components/ui/Spinner'
import { useAuth } from '../lib/auth'

const dashboardLinks = [
  { to: '/dashboard', label: 'Dashboard', end: true },
  { to: '/dashboard/websites', label: 'Websites', end: false },
  { to: '/dashboard/analytics', label: 'Analytics', end: false },
  { to: '/dashboard/billing', label: 'Billing', end: false },
  { to: '/dashboard/support', label: 'Support', end: false },
  { to: '/dashboard/profile', label: 'Profile', end: false },
  { to: '/dashboard/settings', label: 'Settings', end: false },
]

/** Minimal dashboard frame; the full shell (sidebar, user menu) comes in a later issue. */
export default function DashboardLayout() {
  const { user, isLoading, signOut } = useAuth()
  const navigate = useNavigate()
  const [signingOut, setSigningOut] = useState(false)

  if (isLoading && !user) {
    return (
      <div className="page-loading page-loading--full">
        <Spinner label="Loading your account" size="lg" />
      </div>
    )
  }
  // While signing out the user disappears before we navigate to `/`: don't bounce to /login.
  if (!user) return signingOut ? null : <Navigate to="/login" replace />

  const links = user.role === 'admin' ? [...dashboardLinks, { to: '/dashboard/seo', label: 'SEO Articles', end: false }] : dashboardLinks

  const handleSignOut = async () => {
    setSigningOut(true)
    await signOut()
    navigate('/', { replace: true })
  }

  return (
    <div className="dash-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="dash-topbar">
        <div className="container container--lg dash-topbar__bar">
          <Logo />
          <div className="dash-topbar__user">
            <span className="dash-topbar__email">{user.email}</span>
            <Button variant="outline" size="sm" busy={signingOut} onClick={handleSignOut}>
              Sign out
            </Button>
          </div>
        </div>
        <nav className="container container--lg dash-nav" aria-label="Dashboard">
          <ul className="dash-nav__list">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end} className="dash-nav__link">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" className="dash-main container container--lg" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  )
}
