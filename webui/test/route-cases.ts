/**
 * The cases the client's route matcher and the server's answer alike (the server's side is
 * tests/core/test_site.py). See `about` in fixtures/route-cases.json.
 */
import table from './fixtures/route-cases.json'

export interface RouteCase {
  /** As requested, query and fragment included. */
  path: string
  /** The route pattern that shows it, or null: no page, the 404 page (status 404 from the server). */
  route: string | null
  /** The `:name` values the client hands the page (when `route` has any). */
  params?: Record<string, string>
  why: string
}

export const routeCases = table.cases as readonly RouteCase[]
export const caseRoutes: { prerendered: readonly string[]; spa: readonly string[] } = table.routes

/** The path as the browser's `location.pathname` and the server see it: no query, no fragment. */
export function requestPath(path: string): string {
  return path.split(/[?#]/, 1)[0] ?? path
}
