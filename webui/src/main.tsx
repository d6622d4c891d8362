import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { App } from './app/App'
import { markHeadPrerendered } from './app/RouteMeta'
import { findRoute, notFoundPage } from './app/routes'
import './styles/index.css'

async function start() {
  const container = document.getElementById('root')
  if (!container) return
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  )

  // Prerendered HTML present: load the page chunk first so hydration matches the markup.
  if (container.firstElementChild) {
    // No route: the prerendered 404 page (dist/404.html) the server sent.
    const page = findRoute(window.location.pathname) ?? notFoundPage
    try {
      await page.load()
    } catch {
      // Hydration still works: Suspense keeps the server HTML until the chunk arrives.
    }
    markHeadPrerendered(window.location.pathname)
    // As a transition, hydration works in slices of a few milliseconds and yields to the
    // browser in between (no long task to hold up a tap); a click on a part not yet hydrated
    // still makes React hydrate that part first.
    startTransition(() => {
      hydrateRoot(container, app, {
        // A mismatch between prerendered and client markup must be loud: the E2E suite fails on it.
        onRecoverableError: (error) => console.error('Hydration problem:', error),
      })
    })
  } else {
    createRoot(container).render(app)
  }
}

void start()
