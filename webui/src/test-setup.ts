import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// jsdom does not implement scrolling.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo
Element.prototype.scrollIntoView = vi.fn()

afterEach(() => {
  cleanup()
  // Forget the signed-in hint cookie between tests.
  document.cookie = 'agency_signed_in=; Max-Age=0; path=/'
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})
