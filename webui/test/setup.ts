import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// Pages are lazy chunks: on a loaded 2-core CI machine the first render can take over the
// default 1 s, which made findBy* queries flaky.
configure({ asyncUtilTimeout: 10000 })

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
