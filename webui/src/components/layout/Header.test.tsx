import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch, mockVisitor, renderApp, setSignedInHint } from '@test/utils'

const user = { id: 1, email: 'ada@example.eu', first_name: 'Ada', last_name: 'Lovelace', role: 'customer' }

function banner() {
  return screen.getByRole('banner')
}

describe('Header', () => {
  it('shows Login and Get Started to visitors, without asking the API', async () => {
    const fetchMock = mockVisitor()
    renderApp('/')
    await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })
    expect(fetchMock).not.toHaveBeenCalledWith('/api/auth/me', expect.anything())
    const header = within(banner())
    expect(header.getAllByRole('link', { name: 'Login' })[0]).toHaveAttribute('href', '/login')
    expect(header.getAllByRole('link', { name: 'Get Started' })[0]).toHaveAttribute('href', '/signup')
    expect(header.queryByRole('button', { name: 'Sign Out' })).not.toBeInTheDocument()
    expect(header.queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument()
  })

  it('shows Dashboard and Sign Out when /api/auth/me answers a user, and signs out', async () => {
    setSignedInHint()
    let signedIn = true
    const fetchMock = mockFetch((method, url) => {
      if (url === '/api/auth/me') return signedIn ? { status: 200, body: { user } } : { status: 401 }
      if (url === '/api/auth/logout' && method === 'POST') {
        signedIn = false
        return { status: 204 }
      }
      return { status: 404 }
    })
    renderApp('/speed-test')
    const header = within(banner())
    const signOut = (await header.findAllByRole('button', { name: 'Sign Out' }))[0]!
    expect(header.getAllByRole('link', { name: 'Dashboard' })[0]).toHaveAttribute('href', '/dashboard')
    expect(header.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument()

    await userEvent.click(signOut)
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })).toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/logout', expect.objectContaining({ method: 'POST' }))
    expect(header.getAllByRole('link', { name: 'Login' }).length).toBeGreaterThan(0)
  })

  it('toggles the mobile menu with aria-expanded and closes it on Escape and on navigation', async () => {
    mockVisitor()
    renderApp('/')
    await screen.findByRole('heading', { level: 1 })
    const toggle = screen.getByRole('button', { name: 'Open menu' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!
    expect(panel).not.toBeVisible()

    await userEvent.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(toggle).toHaveAccessibleName('Close menu')
    expect(panel).toBeVisible()

    await userEvent.keyboard('{Escape}')
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(panel).not.toBeVisible()

    await userEvent.click(toggle)
    await userEvent.click(within(panel).getByRole('link', { name: 'Speed Test' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Website Speed Test' })).toBeInTheDocument()
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
  })

  it('closes the mobile menu on a press outside the header, with focus on the toggle after Escape', async () => {
    mockVisitor()
    renderApp('/')
    const heading = await screen.findByRole('heading', { level: 1 })
    const toggle = screen.getByRole('button', { name: 'Open menu' })
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!
    await userEvent.click(toggle)
    await userEvent.click(panel) // inside the header: stays open
    expect(panel).toBeVisible()
    await userEvent.click(heading)
    expect(panel).not.toBeVisible()

    await userEvent.click(toggle)
    within(panel).getByRole('link', { name: 'Speed Test' }).focus()
    await userEvent.keyboard('{Escape}')
    expect(panel).not.toBeVisible()
    expect(toggle).toHaveFocus()
  })

  it('has a skip link to the main content', async () => {
    mockVisitor()
    renderApp('/')
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main')
    expect(document.getElementById('main')).toBeInTheDocument()
  })
})
