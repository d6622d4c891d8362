/** Delay before scrolling to an anchor after navigating to another page (spec: ~100 ms). */
export const ANCHOR_SCROLL_DELAY_MS = 100

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
}

/** Marks a band laid out at once, whether or not it is near the screen (ui.css). */
export const RENDERED_BAND_CLASS = 'section--rendered'

/**
 * Bands below the fold are laid out lazily (content-visibility, ui.css). Before a jump, lay out
 * every band above the target and the target's own, or the bands rendered on the way change
 * its position under a smooth scroll. Bands after it cannot move it, so they stay lazy (a jump
 * to the second band of a long page must not lay out the whole page).
 */
function renderBandsUpTo(target: Element): void {
  document.querySelectorAll('.section').forEach((band) => {
    if (band.contains(target) || band.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) {
      band.classList.add(RENDERED_BAND_CLASS)
    }
  })
}

/** Smoothly scrolls the element with this id into view; returns false when it is missing. */
export function scrollToId(id: string): boolean {
  const el = document.getElementById(id)
  if (!el) return false
  renderBandsUpTo(el)
  if (typeof el.scrollIntoView === 'function') {
    el.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' })
  }
  return true
}

export function scrollToTop(): void {
  if (typeof window.scrollTo === 'function') window.scrollTo({ top: 0, left: 0, behavior: 'auto' })
}
