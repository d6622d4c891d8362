import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch, mockVisitor, renderApp, sentBody, testUser } from '@test/utils'

const heading = () => screen.findByRole('heading', { level: 1, name: 'Create your account.' })
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Create account' }))

async function fill(values: Partial<Record<'first' | 'last' | 'email' | 'password' | 'confirm', string>>) {
  const pairs: Array<[RegExp, string | undefined]> = [
    [/^First name/, values.first],
    [/^Last name/, values.last],
    [/^Email/, values.email],
    [/^Password/, values.password],
    [/^Confirm password/, values.confirm],
  ]
  for (const [label, value] of pairs) {
    const input = screen.getByLabelText(label)
    await userEvent.clear(input)
    if (value) await userEvent.type(input, value)
  }
}

describe('/signup', () => {
  it('has the fields, autocomplete hints and the terms links', async () => {
    mockVisitor()
    renderApp('/signup')
    await heading()
    expect(screen.getByLabelText(/^First name/)).toHaveAttribute('autocomplete', 'given-name')
    expect(screen.getByLabelText(/^Last name/)).toHaveAttribute('autocomplete', 'family-name')
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('type', 'email')
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('autocomplete', 'new-password')
    expect(screen.getByLabelText(/^Confirm password/)).toHaveAttribute('autocomplete', 'new-password')
    const terms = screen.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy' })
    expect(terms).not.toBeChecked()
    const main = within(screen.getByRole('main'))
    expect(main.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms')
    expect(main.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy')
    expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
  })

  it('checks the form in the spec order without calling the server', async () => {
    const fetchMock = mockVisitor()
    renderApp('/signup')
    await heading()

    await fill({ first: 'Ada', last: 'Lovelace', email: 'ada@example.eu', password: 'abc' })
    await submit()
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields')

    await fill({ first: 'Ada', last: 'Lovelace', email: 'ada@example.eu', password: 'abc', confirm: 'abd' })
    await submit()
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match')
    expect(screen.getByLabelText(/^Confirm password/)).toHaveAttribute('aria-invalid', 'true')

    await fill({ first: 'Ada', last: 'Lovelace', email: 'ada@example.eu', password: 'abc', confirm: 'abc' })
    await submit()
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters')

    await fill({ first: 'Ada', last: 'Lovelace', email: 'ada@example.eu', password: 'secret12', confirm: 'secret12' })
    await submit()
    expect(screen.getByRole('alert')).toHaveTextContent('Please accept the Terms of Service and Privacy Policy')
    expect(screen.getByRole('checkbox', { name: /I agree/ })).toHaveAttribute('aria-invalid', 'true')

    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows the server message (e.g. e-mail taken)', async () => {
    mockFetch((method, url) =>
      method === 'POST' && url === '/api/auth/signup'
        ? { status: 409, body: { error: { code: 'email_taken', message: 'This email is already registered.' } } }
        : { status: 404 },
    )
    renderApp('/signup')
    await heading()
    await fill({ first: 'Ada', last: 'Lovelace', email: 'ada@example.eu', password: 'secret12', confirm: 'secret12' })
    await userEvent.click(screen.getByRole('checkbox', { name: /I agree/ }))
    await submit()
    expect(await screen.findByRole('alert')).toHaveTextContent('This email is already registered.')
  })

  it('creates the account and goes to /dashboard', async () => {
    const fetchMock = mockFetch((method, url) =>
      method === 'POST' && url === '/api/auth/signup' ? { status: 201, body: { user: testUser } } : { status: 404 },
    )
    renderApp('/signup')
    await heading()
    await fill({ first: 'Ada', last: 'Lovelace', email: 'ada@example.eu', password: 'secret12', confirm: 'secret12' })
    await userEvent.click(screen.getByRole('checkbox', { name: /I agree/ }))
    await submit()
    expect(await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/auth/signup')).toEqual({
      email: 'ada@example.eu',
      password: 'secret12',
      confirm_password: 'secret12',
      first_name: 'Ada',
      last_name: 'Lovelace',
    })
  })
})
