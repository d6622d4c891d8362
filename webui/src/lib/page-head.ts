/**
 * Pages whose <head> comes from their data (an article's title and description) rather than
 * the route table's texts: the page claims its path, and the route's head (app/RouteMeta.tsx)
 * then leaves the tags to it after a client-side navigation.
 */
let ownedPath: string | null = null

/** Called by such a page while it shows `pathname`. */
export function claimHead(pathname: string) {
  ownedPath = pathname
}

export function pageOwnsHead(pathname: string): boolean {
  return ownedPath === pathname
}
