import { Suspense, useCallback, useMemo, useState, type ReactNode } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { AdminOnly } from '../components/dashboard/AdminOnly'
import { LoadError } from '../components/dashboard/LoadState'
import { adminPageFor, linksFor } from '../components/dashboard/nav'
import { NotificationsButton } from '../features/notifications'
import { DashboardShellContext, type DashboardShell } from '../components/dashboard/shell-context'
import { UserMenu } from '../components/dashboard/UserMenu'
import { CloseIcon } from '../components/icons/CloseIcon'
import { MenuIcon } from '../components/icons/MenuIcon'
import { Logo } from '../components/layout/Logo'
import { PageLoading } from '../components/layout/PageLoading'
import { Spinner } from '../components/ui/Spinner'
import { useAuth } from '../lib/auth'
import { cx } from '../lib/cx'
import { NavLink, Redirect } from '../lib/router'
import { useMenu } from '../lib/use-menu'
// The dashboard's styles load with its frame: public pages never need them.
import '../styles/dashboard.css'

const MOBILE_NAV_ID = 'dash-mobile-nav'

/** The signed-in frame: top bar (logo, notifications, user menu), sidebar, mobile menu. */
/** `children` is the matched dashboard page (see App.tsx). */
export default function DashboardLayout({ children }: { children: ReactNode }) {
  const { user, isLoading, error, refresh, signOut } = useAuth()
  const navigate = useNavigate()
  const location = useLocation()
  const [leaving, setLeaving] = useState(false)
  const [signingOut, setSigningOut] = useState(false)
  // The mobile menu; the top bar holds its toggle and its panel.
  const { open: menuOpen, toggle: toggleMenu, containerRef: topbarRef, buttonRef: toggleRef } = useMenu<HTMLElement>()

  const leave = useCallback<DashboardShell['leave']>(
    async (clear) => {
      setLeaving(true)
      try {
        await clear()
      } finally {
        navigate('/', { replace: true })
      }
    },
    [navigate],
  )
  const shell = useMemo<DashboardShell>(() => ({ leave }), [leave])

  if (isLoading && !user) {
    return (
      <div className="page-loading page-loading--full">
        <Spinner label="Loading your account" size="lg" />
      </div>
    )
  }

  if (!user) {
    // Signing out or deleting the account: the user is gone before we reach `/`.
    if (leaving) return null
    if (error) {
      return (
        <LoadError className="dash-fallback" title="We could not load your account." onRetry={() => void refresh()}>
          {error}
        </LoadError>
      )
    }
    const from = `${location.pathname}${location.search}${location.hash}`
    return <Redirect to="/login" state={{ from }} />
  }

  const links = linksFor(user.role)
  const adminPage = adminPageFor(location.pathname)
  const refused = adminPage !== undefined && user.role !== 'admin'

  const handleSignOut = () => {
    setSigningOut(true)
    void leave(signOut)
  }

  const navList = (variant: 'side' | 'mobile') => (
    <ul className={cx('dash-nav__list', `dash-nav__list--${variant}`)}>
      {links.map(({ to, label, end, Icon }) => (
        <li key={to}>
          <NavLink to={to} end={end} className="dash-nav__link">
            <Icon size={18} className="dash-nav__icon" />
            {label}
          </NavLink>
        </li>
      ))}
    </ul>
  )

  return (
    <DashboardShellContext.Provider value={shell}>
      <div className="dash-shell">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="dash-topbar" ref={topbarRef}>
          <div className="dash-topbar__bar">
            <button
              ref={toggleRef}
              type="button"
              className="dash-menu-toggle"
              aria-expanded={menuOpen}
              aria-controls={MOBILE_NAV_ID}
              aria-label={menuOpen ? 'Close dashboard menu' : 'Open dashboard menu'}
              onClick={toggleMenu}
            >
              {menuOpen ? <CloseIcon size={20} /> : <MenuIcon size={20} />}
            </button>
            <Logo />
            <div className="dash-topbar__actions">
              <NotificationsButton />
              <UserMenu user={user} onSignOut={handleSignOut} signingOut={signingOut} />
            </div>
          </div>
          <nav id={MOBILE_NAV_ID} className="dash-mobile-nav" aria-label="Dashboard menu" hidden={!menuOpen}>
            {navList('mobile')}
          </nav>
        </header>
        <div className="dash-body">
          <aside className="dash-sidebar">
            <nav aria-label="Dashboard">{navList('side')}</nav>
          </aside>
          <main id="main" className="dash-main" tabIndex={-1}>
            {refused ? (
              <AdminOnly message={adminPage?.refusal} />
            ) : (
              <Suspense fallback={<PageLoading />}>
                {children}
              </Suspense>
            )}
          </main>
        </div>
      </div>
    </DashboardShellContext.Provider>
  )
}
