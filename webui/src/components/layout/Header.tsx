import { Link } from '../../lib/router'
import { useAuth } from '../../lib/auth'
import { useMenu } from '../../lib/use-menu'
import { CloseIcon } from '../icons/CloseIcon'
import { MenuIcon } from '../icons/MenuIcon'
import { ButtonLink } from '../ui/Button'
import { Logo } from './Logo'
import { headerNav } from './nav'

const MOBILE_MENU_ID = 'mobile-menu'

export function Header() {
  const { user } = useAuth()
  // The mobile menu; the header holds its toggle and its panel.
  const { open: menuOpen, toggle: toggleMenu, containerRef: headerRef, buttonRef: toggleRef } = useMenu<HTMLElement>()

  const navItems = headerNav

  // Signed in: "Dashboard" where "Login" stands, and the call to action stays one (choosing a
  // package); signing out lives in the dashboard's user menu.
  const actions = (mobile: boolean) =>
    user ? (
      <>
        <ButtonLink to="/dashboard" variant="ghost" size="sm" block={mobile}>
          Dashboard
        </ButtonLink>
        <ButtonLink to="/start" variant="primary" size="sm" block={mobile}>
          Get Started
        </ButtonLink>
      </>
    ) : (
      <>
        <ButtonLink to="/login" variant="ghost" size="sm" block={mobile}>
          Login
        </ButtonLink>
        <ButtonLink to="/signup" variant="primary" size="sm" block={mobile}>
          Get Started
        </ButtonLink>
      </>
    )

  return (
    <header className="site-header" ref={headerRef}>
      <div className="container container--lg site-header__bar">
        <Logo />
        <nav className="site-nav" aria-label="Main">
          <ul className="site-nav__list">
            {navItems.map((item) => (
              <li key={item.to}>
                <Link className="site-nav__link" to={item.to}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="site-header__actions">{actions(false)}</div>
        <button
          ref={toggleRef}
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls={MOBILE_MENU_ID}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={toggleMenu}
        >
          {menuOpen ? <CloseIcon /> : <MenuIcon />}
        </button>
      </div>
      <div id={MOBILE_MENU_ID} className="mobile-menu" hidden={!menuOpen}>
        <nav className="container container--lg" aria-label="Mobile">
          <ul className="mobile-menu__list">
            {navItems.map((item) => (
              <li key={item.to}>
                <Link className="mobile-menu__link" to={item.to}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="mobile-menu__actions">{actions(true)}</div>
        </nav>
      </div>
    </header>
  )
}
