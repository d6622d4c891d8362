import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch, mockVisitor, renderApp, setSignedInHint } from '@test/utils'

describe('navigation', () => {
  it('anchor links from another page go to / and then scroll to the section', async () => {
    mockVisitor()
    const scrolled: string[] = []
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.id)
    })
    renderApp('/login')
    await screen.findByRole('heading', { level: 1, name: 'Welcome back.' })
    const nav = within(screen.getByRole('navigation', { name: 'Main' }))
    await userEvent.click(nav.getByRole('link', { name: 'Features' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })).toBeInTheDocument()
    await waitFor(() => expect(scrolled).toContain('features'))

    // Already on `/`: scrolls at once.
    await userEvent.click(nav.getByRole('link', { name: 'Pricing' }))
    await waitFor(() => expect(scrolled).toContain('pricing'))
  })

  it('/how-it-works renders home and scrolls to #how-it-works', async () => {
    mockVisitor()
    const scrolled: string[] = []
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.id)
    })
    renderApp('/how-it-works')
    await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })
    await waitFor(() => expect(scrolled).toEqual(['how-it-works']))
  })

  it('signing out from the dashboard returns to /', async () => {
    setSignedInHint()
    let signedIn = true
    mockFetch((method, url) => {
      if (url === '/api/auth/me') return signedIn ? { status: 200, body: { user: { id: 7, email: 'bo@example.eu' } } } : { status: 401 }
      if (url === '/api/auth/logout' && method === 'POST') {
        signedIn = false
        return { status: 200, body: { ok: true } }
      }
      return { status: 404 }
    })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /user menu$/i }))
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })).toBeInTheDocument()
  })
})
