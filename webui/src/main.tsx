import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { App } from './app/App'
import { findRoute } from './app/routes'
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
    const route = findRoute(window.location.pathname)
    if (route) {
      try {
        await route.load()
      } catch {
        // Hydration still works: Suspense keeps the server HTML until the chunk arrives.
      }
    }
    hydrateRoot(container, app, {
      // A mismatch between prerendered and client markup must be loud: the E2E suite fails on it.
      onRecoverableError: (error) => console.error('Hydration problem:', error),
    })
  } else {
    createRoot(container).render(app)
  }
}

void start()
