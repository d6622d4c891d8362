import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch, mockSignedIn, renderApp, setSignedInHint, testUser } from '@test/utils'

const admin = { ...testUser, id: 2, email: 'admin@example.eu', first_name: 'Grace', last_name: 'Hopper', role: 'admin' }

describe('dashboard shell', () => {
  it('shows a spinner while the user loads, then sends a visitor to /login', async () => {
    setSignedInHint()
    let answer: (() => void) | undefined
    mockFetch(() => ({ status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }))
    // Hold /api/auth/me until the spinner was seen.
    const gate = new Promise<void>((resolve) => (answer = resolve))
    const original = globalThis.fetch
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await gate
      return original(...args)
    })
    renderApp('/dashboard/billing')
    expect(await screen.findByText('Loading your account')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument()
    await act(async () => answer?.())
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back.' })).toBeInTheDocument()
  })

  it('has a logo link, a notification button (no dot: nothing unread) and a user menu', async () => {
    mockSignedIn()
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    const banner = within(screen.getByRole('banner'))
    expect(banner.getByRole('link', { name: 'agency home' })).toHaveAttribute('href', '/')
    const bell = banner.getByRole('button', { name: 'Notifications' })
    expect(bell.querySelector('.icon-button__dot')).toBeNull()

    const menuButton = banner.getByRole('button', { name: /user menu$/i })
    expect(menuButton).toHaveAttribute('aria-haspopup', 'true')
    expect(menuButton).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(menuButton)
    expect(menuButton).toHaveAttribute('aria-expanded', 'true')
    const panel = document.getElementById(menuButton.getAttribute('aria-controls')!)!
    expect(panel).toBeVisible()
    expect(within(panel).getByText('Ada Lovelace')).toBeInTheDocument()
    expect(within(panel).getByText('ada@example.eu')).toBeInTheDocument()
    expect(within(panel).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/dashboard/settings')
    expect(within(panel).getByRole('button', { name: 'Sign out' })).toBeInTheDocument()

    // Escape closes and gives focus back to the button.
    await userEvent.keyboard('{Escape}')
    expect(menuButton).toHaveAttribute('aria-expanded', 'false')
    expect(panel).not.toBeVisible()
    expect(menuButton).toHaveFocus()

    // Outside click closes.
    await userEvent.click(menuButton)
    expect(panel).toBeVisible()
    await userEvent.click(screen.getByRole('heading', { level: 1 }))
    expect(panel).not.toBeVisible()

    // Navigation closes.
    await userEvent.click(menuButton)
    await userEvent.click(within(panel).getByRole('link', { name: 'Settings' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument()
    expect(panel).not.toBeVisible()
  })

  it('opens the user menu from the keyboard and moves focus into it', async () => {
    mockSignedIn()
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    const menuButton = screen.getByRole('button', { name: /user menu$/i })
    menuButton.focus()
    await userEvent.keyboard('{ArrowDown}')
    const panel = document.getElementById(menuButton.getAttribute('aria-controls')!)!
    expect(within(panel).getByRole('link', { name: 'Settings' })).toHaveFocus()
    await userEvent.keyboard('{ArrowDown}')
    expect(within(panel).getByRole('button', { name: 'Sign out' })).toHaveFocus()
  })

  it('shows the first letter of the first name, else of the e-mail, upper-case', async () => {
    mockSignedIn({ ...testUser, first_name: 'ada' })
    const { unmount } = renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    expect(within(screen.getByRole('button', { name: /user menu$/i })).getByTestId('avatar-letter')).toHaveAttribute('data-initial', 'A')
    unmount()

    mockSignedIn({ ...testUser, first_name: '', last_name: null, email: 'zoe@example.eu' })
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    expect(within(screen.getByRole('button', { name: /user menu$/i })).getByTestId('avatar-letter')).toHaveAttribute('data-initial', 'Z')
  })

  it('shows the first name beside the avatar, and without a name the avatar alone (no cut-off e-mail)', async () => {
    mockSignedIn()
    const { unmount } = renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    const named = screen.getByRole('button', { name: 'Ada, user menu' })
    expect(named.querySelector('.user-menu__first')).toHaveTextContent('Ada')
    unmount()

    mockSignedIn({ ...testUser, first_name: '', last_name: '', email: 'a.very.long.address@example-company.eu' })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument()
    const button = screen.getByRole('button', { name: 'User menu' })
    expect(button.querySelector('.user-menu__first')).toBeNull()
    expect(within(button).queryByText(/@/)).not.toBeInTheDocument()
    // The full address is in the open menu, where it wraps.
    await userEvent.click(button)
    expect(screen.getAllByText('a.very.long.address@example-company.eu')).toHaveLength(1)
    expect(screen.getByText('a.very.long.address@example-company.eu')).toHaveClass('user-menu__email')
  })

  it('shows the avatar image with alt text, and the letter when it cannot load', async () => {
    mockSignedIn({ ...testUser, avatar_url: 'https://img.example/ada.png' })
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    const button = screen.getByRole('button', { name: /user menu$/i })
    const img = within(button).getByAltText('Avatar of Ada Lovelace')
    expect(img).toHaveAttribute('src', 'https://img.example/ada.png')
    await act(async () => img.dispatchEvent(new Event('error')))
    expect(within(button).getByTestId('avatar-letter')).toHaveAttribute('data-initial', 'A')
  })

  it('lists SEO Articles only for admins', async () => {
    mockSignedIn()
    const { unmount } = renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    const sidebar = within(screen.getByRole('navigation', { name: 'Dashboard' }))
    for (const name of ['Dashboard', 'Websites', 'Analytics', 'Billing', 'Support', 'Profile', 'Settings']) {
      expect(sidebar.getByRole('link', { name })).toBeInTheDocument()
    }
    expect(screen.queryByRole('link', { name: 'SEO Articles' })).not.toBeInTheDocument()
    unmount()

    mockSignedIn(admin)
    renderApp('/dashboard')
    // An admin's home is the overview.
    await screen.findByRole('heading', { level: 1, name: 'Overview' })
    expect(within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', { name: 'SEO Articles' })).toHaveAttribute(
      'href',
      '/dashboard/seo',
    )
  })

  it('refuses /dashboard/seo to a non-admin and opens it for an admin', async () => {
    mockSignedIn()
    const { unmount } = renderApp('/dashboard/seo')
    expect(await screen.findByText('Only admins can open the article manager.')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'SEO Articles' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', '/dashboard')
    unmount()

    mockSignedIn(admin)
    renderApp('/dashboard/seo')
    expect(await screen.findByRole('heading', { level: 1, name: 'SEO Articles' })).toBeInTheDocument()
    expect(screen.queryByText('Only admins can open the article manager.')).not.toBeInTheDocument()
  })

  it('has a mobile menu toggle that lists the pages and closes on navigation', async () => {
    mockSignedIn()
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    const toggle = screen.getByRole('button', { name: 'Open dashboard menu' })
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!
    expect(panel).not.toBeVisible()
    await userEvent.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const mobile = within(screen.getByRole('navigation', { name: 'Dashboard menu' }))
    for (const name of ['Dashboard', 'Billing', 'Support', 'Settings']) expect(mobile.getByRole('link', { name })).toBeInTheDocument()
    await userEvent.click(mobile.getByRole('link', { name: 'Billing' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument()
    await waitFor(() => expect(panel).not.toBeVisible())
  })

  it('closes the mobile menu on Escape (focus back on the toggle) and on a press outside the top bar', async () => {
    mockSignedIn()
    renderApp('/dashboard')
    const heading = await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })
    const toggle = screen.getByRole('button', { name: 'Open dashboard menu' })
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!
    await userEvent.click(toggle)
    within(panel).getByRole('link', { name: 'Billing' }).focus()
    await userEvent.keyboard('{Escape}')
    expect(panel).not.toBeVisible()
    expect(toggle).toHaveFocus()
    expect(toggle).toHaveAccessibleName('Open dashboard menu')

    await userEvent.click(toggle)
    expect(panel).toBeVisible()
    await userEvent.click(heading)
    expect(panel).not.toBeVisible()
  })

  it('shows why the account could not load, with a retry', async () => {
    setSignedInHint()
    let fail = true
    mockFetch((_method, url) => {
      if (url !== '/api/auth/me') return { status: 404 }
      return fail
        ? { status: 503, body: { error: { code: 'unavailable', message: 'The server is busy.' } } }
        : { status: 200, body: { user: testUser } }
    })
    renderApp('/dashboard')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We could not load your account.')
    expect(alert).toHaveTextContent('The server is busy.')
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })).toBeInTheDocument()
  })
})
