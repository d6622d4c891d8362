import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { App } from './app/App'
import { markHeadPrerendered } from './app/RouteMeta'
import { findRoute } from './app/routes'
import './styles/index.css'

type TypedValue = [id: string, value: string | boolean]

/** What a visitor typed into a prerendered form before the script arrived. Hydration resets
 * controlled inputs to their state (empty), so it would be lost without this. */
function rememberTypedValues(container: HTMLElement): TypedValue[] {
  const typed: TypedValue[] = []
  container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[id], textarea[id]').forEach((field) => {
    if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
      if (field.checked !== field.defaultChecked) typed.push([field.id, field.checked])
    } else if (field.value !== field.defaultValue) {
      typed.push([field.id, field.value])
    }
  })
  return typed
}

/** Give each typed value back, through React's own change handling, once React has taken the
 * field over (hydrating it resets the value; page content hydrates in a later pass). */
function replayTypedValues(typed: TypedValue[], deadline = Date.now() + 5000) {
  const pending = typed.filter(([id, value]) => {
    const field = document.getElementById(id)
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return false
    if (typeof value === 'boolean') {
      if (!(field instanceof HTMLInputElement) || field.checked === value) return true // not yet
      field.click() // a click is how React learns of a checkbox change
      return false
    }
    if (field.value === value) return true // not hydrated yet: look again
    // React listens to the native setter + input event, not to a plain assignment.
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set
    setter?.call(field, value)
    field.dispatchEvent(new Event('input', { bubbles: true }))
    return false
  })
  if (pending.length > 0 && Date.now() < deadline) setTimeout(() => replayTypedValues(pending, deadline), 50)
}

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
    markHeadPrerendered(window.location.pathname)
    const typedEarly = rememberTypedValues(container)
    // As a transition, hydration works in slices of a few milliseconds and yields to the
    // browser in between (no long task to hold up a tap); a click on a part not yet hydrated
    // still makes React hydrate that part first.
    startTransition(() => {
      hydrateRoot(container, app, {
        // A mismatch between prerendered and client markup must be loud: the E2E suite fails on it.
        onRecoverableError: (error) => console.error('Hydration problem:', error),
      })
    })
    if (typedEarly.length > 0) setTimeout(() => replayTypedValues(typedEarly), 0)
  } else {
    createRoot(container).render(app)
  }
}

void start()
