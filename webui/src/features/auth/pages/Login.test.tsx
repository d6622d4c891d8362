import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch, mockSignedIn, mockVisitor, renderApp, sentBody, testUser } from '@test/utils'

const heading = () => screen.findByRole('heading', { level: 1, name: 'Welcome back.' })

describe('/login', () => {
  it('has the fields, Remember me and the links of the spec', async () => {
    mockVisitor()
    renderApp('/login')
    await heading()
    const main = within(screen.getByRole('main'))
    expect(main.getByLabelText(/^Email/)).toHaveAttribute('type', 'email')
    expect(main.getByLabelText(/^Email/)).toHaveAttribute('autocomplete', 'email')
    expect(main.getByLabelText(/^Password/)).toHaveAttribute('autocomplete', 'current-password')
    expect(main.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked()
    expect(main.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password')
    expect(main.getByRole('link', { name: 'Create your account' })).toHaveAttribute('href', '/signup')
  })

  it('asks for both fields without calling the server', async () => {
    const fetchMock = mockVisitor()
    renderApp('/login')
    await heading()
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields')
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Please fill in all fields')

    await userEvent.type(screen.getByLabelText(/^Email/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("shows the server's 401 message in the red box", async () => {
    mockFetch((method, url) => {
      if (method === 'POST' && url === '/api/auth/login') {
        return { status: 401, body: { error: { code: 'invalid_credentials', message: 'Incorrect email or password. Please try again.' } } }
      }
      return { status: 404 }
    })
    renderApp('/login')
    await heading()
    await userEvent.type(screen.getByLabelText(/^Email/), 'ada@example.eu')
    await userEvent.type(screen.getByLabelText(/^Password/), 'wrong-password')
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Incorrect email or password. Please try again.')
    expect(alert).toHaveClass('error-box')
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled()
  })

  it('after logging in goes back to the dashboard page first asked for', async () => {
    const fetchMock = mockFetch((method, url) => {
      if (method === 'POST' && url === '/api/auth/login') return { status: 200, body: { user: testUser } }
      return { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
    })
    renderApp('/dashboard/settings')
    await heading()
    await userEvent.type(screen.getByLabelText(/^Email/), ' ada@example.eu ')
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret12')
    await userEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }))
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/auth/login')).toEqual({ email: 'ada@example.eu', password: 'secret12', remember: true })
  })

  it('goes to /dashboard by default, and accepts only same-site ?next= paths', async () => {
    mockFetch((method, url) =>
      method === 'POST' && url === '/api/auth/login' ? { status: 200, body: { user: testUser } } : { status: 401 },
    )
    renderApp('/login?next=//evil.example/x')
    await heading()
    await userEvent.type(screen.getByLabelText(/^Email/), 'ada@example.eu')
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret12')
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })).toBeInTheDocument()
  })

  it('follows a same-site ?next= path', async () => {
    mockFetch((method, url) =>
      method === 'POST' && url === '/api/auth/login' ? { status: 200, body: { user: testUser } } : { status: 401 },
    )
    renderApp('/login?next=/dashboard/billing')
    await heading()
    await userEvent.type(screen.getByLabelText(/^Email/), 'ada@example.eu')
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret12')
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument()
  })

  it('sends a signed-in user on to /dashboard', async () => {
    mockSignedIn()
    renderApp('/login')
    expect(await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })).toBeInTheDocument()
  })
})
