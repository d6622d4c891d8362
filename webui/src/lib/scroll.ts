/** Delay before scrolling to an anchor after navigating to another page (spec: ~100 ms). */
export const ANCHOR_SCROLL_DELAY_MS = 100

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
}

/** Smoothly scrolls the element with this id into view; returns false when it is missing. */
export function scrollToId(id: string): boolean {
  const el = document.getElementById(id)
  if (!el) return false
  // Bands below the fold are laid out lazily (content-visibility, ui.css): lay them all out
  // first, or the bands rendered on the way change the page's height under a smooth scroll.
  document.documentElement.classList.add('render-all')
  if (typeof el.scrollIntoView === 'function') {
    el.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' })
  }
  return true
}

export function scrollToTop(): void {
  if (typeof window.scrollTo === 'function') window.scrollTo({ top: 0, left: 0, behavior: 'auto' })
}
