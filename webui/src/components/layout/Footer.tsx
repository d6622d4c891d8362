import { useSyncExternalStore } from 'react'
import { Link } from '../../lib/router'
import { siteConfig } from '../../lib/site-config'
import { Logo } from './Logo'
import { footerColumns } from './nav'

const noopSubscribe = () => () => {}
const currentYear = () => new Date().getFullYear()
// The prerendered HTML carries the build year; hydration starts from the same value and
// then switches to the visitor's current year without a hydration mismatch.
const buildYear = () => __BUILD_YEAR__

export function Footer() {
  const year = useSyncExternalStore(noopSubscribe, currentYear, buildYear)
  return (
    <footer className="site-footer">
      <div className="container container--lg">
        <div className="site-footer__grid">
          <div className="site-footer__brand">
            <Logo />
            <p className="site-footer__tagline">
              Fast websites, AI automation and video content, done for you.
            </p>
          </div>
          {footerColumns.map((column) => (
            <nav key={column.heading} className="site-footer__column" aria-label={column.heading}>
              <h2 className="site-footer__heading">{column.heading}</h2>
              <ul className="site-footer__list">
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link className="site-footer__link" to={link.to}>
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="site-footer__bottom">
          <p>
            © {year} {siteConfig().brandName}. All rights reserved.
          </p>
          <p className="site-footer__meta">
            <span>Made in Europe</span>
            <span className="site-footer__lang" title="Language: English">
              <span className="visually-hidden">Language: </span>EN
            </span>
          </p>
        </div>
      </div>
    </footer>
  )
}
