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

  it('shows Dashboard once and keeps Get Started as the call to action when /api/auth/me answers a user', async () => {
    setSignedInHint()
    mockFetch((_method, url) => (url === '/api/auth/me' ? { status: 200, body: { user } } : { status: 404 }))
    renderApp('/speed-test')
    const bar = banner().querySelector<HTMLElement>('.site-header__bar')!
    const header = within(bar)
    const dashboard = await header.findByRole('link', { name: 'Dashboard' })
    expect(dashboard).toHaveAttribute('href', '/dashboard')
    // One "Dashboard" in the bar (none in the navigation), the call to action a real one.
    expect(header.getAllByRole('link', { name: 'Dashboard' })).toHaveLength(1)
    expect(header.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/start')
    expect(within(banner()).queryByRole('button', { name: /sign out/i })).not.toBeInTheDocument()
    expect(within(banner()).queryByRole('link', { name: 'Login' })).not.toBeInTheDocument()
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
