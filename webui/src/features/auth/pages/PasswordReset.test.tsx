import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch, mockVisitor, renderApp, sentBody } from '@test/utils'

const SENT = 'If an account exists for that email, we have sent a link to reset its password.'

describe('/forgot-password', () => {
  it('asks for the e-mail without calling the server', async () => {
    const fetchMock = mockVisitor()
    renderApp('/forgot-password')
    await screen.findByRole('heading', { level: 1, name: 'Reset your password' })
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("shows the server's message and a way back to /login", async () => {
    const fetchMock = mockFetch((method, url) =>
      method === 'POST' && url === '/api/auth/forgot-password' ? { status: 202, body: { message: SENT } } : { status: 404 },
    )
    renderApp('/forgot-password')
    await screen.findByRole('heading', { level: 1, name: 'Reset your password' })
    await userEvent.type(screen.getByLabelText(/^Email/), 'nobody@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByRole('status')).toHaveTextContent(SENT)
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login')
    expect(sentBody(fetchMock, '/api/auth/forgot-password')).toEqual({ email: 'nobody@example.eu' })
  })
})

describe('/reset-password', () => {
  it('explains a missing token and links to /forgot-password', async () => {
    mockVisitor()
    renderApp('/reset-password')
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' })
    expect(screen.getByRole('alert')).toHaveTextContent('The reset link is incomplete.')
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password')
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument()
  })

  it('checks the passwords, then shows the server message and a Log in link', async () => {
    const fetchMock = mockFetch((method, url) =>
      method === 'POST' && url === '/api/auth/reset-password'
        ? { status: 200, body: { message: 'Your password has been reset. You can now log in.' } }
        : { status: 404 },
    )
    renderApp('/reset-password?token=abc123')
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' })
    const submit = () => userEvent.click(screen.getByRole('button', { name: 'Set new password' }))

    await submit()
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields')
    await userEvent.type(screen.getByLabelText(/^New password/), 'abc')
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'abd')
    await submit()
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match')
    await userEvent.clear(screen.getByLabelText(/^Confirm new password/))
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'abc')
    await submit()
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters')
    expect(fetchMock).not.toHaveBeenCalled()

    await userEvent.clear(screen.getByLabelText(/^New password/))
    await userEvent.clear(screen.getByLabelText(/^Confirm new password/))
    await userEvent.type(screen.getByLabelText(/^New password/), 'secret12')
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'secret12')
    await submit()
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been reset. You can now log in.')
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
    expect(sentBody(fetchMock, '/api/auth/reset-password')).toEqual({ token: 'abc123', password: 'secret12', confirm_password: 'secret12' })
  })

  it('shows an expired-token error from the server', async () => {
    mockFetch(() => ({
      status: 400,
      body: { error: { code: 'invalid_token', message: 'This reset link is invalid or has expired. Please request a new one.' } },
    }))
    renderApp('/reset-password?token=old')
    await screen.findByRole('heading', { level: 1, name: 'Choose a new password' })
    await userEvent.type(screen.getByLabelText(/^New password/), 'secret12')
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'secret12')
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid or has expired. Please request a new one.')
  })
})
