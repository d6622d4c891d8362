import { Container } from '../components/ui/Section'
import { Link } from '../lib/router'

/** The links a visitor who followed a broken link is offered. */
const WAYS_ON = [
  { to: '/', label: 'Home page' },
  { to: '/speed-test', label: 'Website speed test' },
  { to: '/blog', label: 'Blog' },
  { to: '/contact', label: 'Contact us' },
] as const

/**
 * Shown for every path no route matches: prerendered once into dist/404.html, which the
 * server sends with status 404 (core/web: not_found_page), and rendered by App.tsx after a
 * client-side navigation to an unknown path. Not a route of its own (no /404 page).
 */
export default function NotFoundPage() {
  return (
    <section className="section content-page-section">
      <Container size="md">
        <div className="prose">
          <h1>Page not found</h1>
          <p>The page you were looking for does not exist or has moved; one of these may help.</p>
          <ul>
            {WAYS_ON.map(({ to, label }) => (
              <li key={to}>
                <Link to={to}>{label}</Link>
              </li>
            ))}
          </ul>
        </div>
      </Container>
    </section>
  )
}
