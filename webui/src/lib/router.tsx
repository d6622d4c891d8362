/**
 * Links, redirects and route params on top of react-router-dom's routers (BrowserRouter,
 * StaticRouter, MemoryRouter) and hooks. react-router's own <Link>, <NavLink> and <Routes>
 * bring framework-mode machinery (prefetch links, view transitions, data-router matching,
 * error boundaries) that every public page's first load would pay for and this UI never
 * uses; these few lines do what the UI needs. App.tsx matches the route table itself.
 */
import { createContext, useContext, useEffect, useEffectEvent, type AnchorHTMLAttributes, type MouseEvent, type Ref } from 'react'
import { useHref, useLocation, useNavigate } from 'react-router-dom'

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An app path such as '/start?type=website' or '/#pricing'. */
  to: string
  replace?: boolean
  state?: unknown
  ref?: Ref<HTMLAnchorElement>
}

/** A click the browser should handle itself: new tab/window, download, another frame. */
function opensElsewhere(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (target !== undefined && target !== '_self')
  )
}

/** An <a href> that navigates inside the app without reloading the page. */
export function Link({ to, replace, state, onClick, target, ...anchor }: LinkProps) {
  const navigate = useNavigate()
  const location = useLocation()
  const href = useHref(to)
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event)
    if (event.defaultPrevented || opensElsewhere(event, target)) return
    event.preventDefault()
    // Clicking a link to the page already shown replaces the history entry, as browsers do.
    const here = location.pathname + location.search + location.hash
    navigate(to, { replace: replace ?? here === href, state })
  }
  // eslint-disable-next-line jsx-a11y/anchor-has-content -- the children come in through {...anchor}
  return <a {...anchor} href={href} target={target} onClick={handleClick} />
}

export interface NavLinkProps extends LinkProps {
  /** Active only on exactly this path, not on the paths below it. */
  end?: boolean
}

let utf8: TextDecoder | undefined

/**
 * A URL path percent-decoded as the ASGI server (granian, hypercorn) hands it to the site:
 * each run of `%XX` escapes is UTF-8 (bytes that are not become U+FFFD), anything else,
 * malformed escapes included, stays as written. An encoded slash is a slash.
 */
export function decodePath(pathname: string): string {
  if (!pathname.includes('%')) return pathname
  return pathname.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) =>
    (utf8 ??= new TextDecoder()).decode(Uint8Array.from(run.slice(1).split('%'), (hex) => parseInt(hex, 16))),
  )
}

/** A path without its trailing slashes; the root stays `/`. */
export function trimTrailingSlashes(path: string): string {
  return path.replace(/([\s\S])\/+$/, '$1')
}

/**
 * How routes compare a (decoded) path, here and in the server's `core/site.py` (both checked
 * against test/fixtures/route-cases.json): trailing slashes dropped, ASCII letters lower-cased
 * (no other character folds to one).
 */
export function pathKey(path: string): string {
  return trimTrailingSlashes(path).replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

/** True when `pathname` is `to` (or below it unless `end`), compared as routes compare paths. */
export function isActivePath(pathname: string, to: string, end = false): boolean {
  const path = pathKey(decodePath(pathname))
  if (path === to) return true
  return !end && to !== '/' && path.startsWith(`${to}/`)
}

/** A navigation link marked aria-current="page" (and `active`) while its page is shown. */
export function NavLink({ end, className, ...link }: NavLinkProps) {
  const { pathname } = useLocation()
  const active = isActivePath(pathname, link.to, end)
  return (
    <Link
      {...link}
      className={active ? `${className ?? ''} active`.trim() : className}
      aria-current={active ? 'page' : undefined}
    />
  )
}

/** Replaces the current history entry with `to` once rendered. */
export function Redirect({ to, state }: { to: string; state?: unknown }) {
  const navigate = useNavigate()
  // `state` is usually a fresh object per render: redirect once per target, not per render.
  const redirect = useEffectEvent((target: string) => navigate(target, { replace: true, state }))
  useEffect(() => {
    redirect(to)
  }, [to])
  return null
}

const RouteParamsContext = createContext<Readonly<Record<string, string | undefined>>>({})

/** The `:name` segments of the matched route (see App.tsx). */
export const RouteParamsProvider = RouteParamsContext.Provider

export function useRouteParams(): Readonly<Record<string, string | undefined>> {
  return useContext(RouteParamsContext)
}
