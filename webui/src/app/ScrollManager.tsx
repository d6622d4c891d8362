import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router-dom'
import { ANCHOR_SCROLL_DELAY_MS, scrollToId, scrollToTop } from '../lib/scroll'
import { findRoute } from './routes'

/**
 * Scroll behaviour on navigation:
 * - `/#section` while already on `/`: smooth scroll at once;
 * - `/#section` from another page, or `/how-it-works`-style aliases: scroll after ~100 ms;
 * - any other page change: back to the top.
 */
export function ScrollManager() {
  const location = useLocation()
  const previousPath = useRef<string | null>(null)

  useEffect(() => {
    const previous = previousPath.current
    previousPath.current = location.pathname
    const hashId = location.hash ? decodeURIComponent(location.hash.slice(1)) : ''
    const targetId = hashId || findRoute(location.pathname)?.scrollTo
    const samePage = previous === location.pathname

    if (targetId) {
      if (samePage) {
        scrollToId(targetId)
        return undefined
      }
      const timer = window.setTimeout(() => scrollToId(targetId), ANCHOR_SCROLL_DELAY_MS)
      return () => window.clearTimeout(timer)
    }
    if (previous !== null && !samePage) scrollToTop()
    return undefined
  }, [location.key, location.pathname, location.hash])

  return null
}
