import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockSignedIn, renderApp, sentBody, testUser } from '@test/utils'

const AVATAR_MESSAGE = 'The avatar must be an http:// or https:// image address.'

describe('/dashboard/profile', () => {
  it('saves the profile and updates the top bar', async () => {
    const fetchMock = mockSignedIn(testUser, (method, url, init) => {
      if (method !== 'PATCH' || url !== '/api/account/profile') return undefined
      const body = JSON.parse(String(init.body)) as Record<string, string | null>
      return { status: 200, body: { user: { ...testUser, ...body } } }
    })
    renderApp('/dashboard/profile')
    await screen.findByRole('heading', { level: 1, name: 'Profile' })
    const first = screen.getByLabelText(/^First name/)
    expect(first).toHaveValue('Ada')
    expect(first).toHaveAttribute('autocomplete', 'given-name')
    expect(screen.getByLabelText(/^Avatar URL/)).toHaveAttribute('type', 'url')
    await userEvent.clear(first)
    await userEvent.type(first, 'Zelda')
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Profile saved.')).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/account/profile')).toEqual({ first_name: 'Zelda', last_name: 'Lovelace', avatar_url: null })
    const menuButton = screen.getByRole('button', { name: /user menu$/i })
    expect(within(menuButton).getByTestId('avatar-letter')).toHaveAttribute('data-initial', 'Z')
  })

  it('shows a field error under the avatar field', async () => {
    mockSignedIn(testUser, (method, url) =>
      method === 'PATCH' && url === '/api/account/profile'
        ? { status: 400, body: { error: { code: 'validation_failed', message: AVATAR_MESSAGE, fields: { avatar_url: AVATAR_MESSAGE } } } }
        : undefined,
    )
    renderApp('/dashboard/profile')
    await screen.findByRole('heading', { level: 1, name: 'Profile' })
    await userEvent.type(screen.getByLabelText(/^Avatar URL/), 'ftp://x/y.png')
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    const avatar = screen.getByLabelText(/^Avatar URL/)
    expect(await screen.findByText(AVATAR_MESSAGE)).toBeInTheDocument()
    expect(avatar).toHaveAttribute('aria-invalid', 'true')
    expect(avatar).toHaveAccessibleDescription(expect.stringContaining(AVATAR_MESSAGE))
    expect(screen.queryByText('Profile saved.')).not.toBeInTheDocument()
  })

  it('sends what the inputs hold (also a value put there without typing, as autofill does), the preview follows typing and typing hides the saved note', async () => {
    const fetchMock = mockSignedIn(testUser, (method, url, init) => {
      if (method !== 'PATCH' || url !== '/api/account/profile') return undefined
      const body = JSON.parse(String(init.body)) as Record<string, string | null>
      return { status: 200, body: { user: { ...testUser, ...body } } }
    })
    renderApp('/dashboard/profile')
    await screen.findByRole('heading', { level: 1, name: 'Profile' })
    ;(screen.getByLabelText(/^Last name/) as HTMLInputElement).value = 'Byron'
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Profile saved.')).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/account/profile')).toEqual({ first_name: 'Ada', last_name: 'Byron', avatar_url: null })
    await userEvent.type(screen.getByLabelText(/^First name/), 'line')
    expect(screen.queryByText('Profile saved.')).not.toBeInTheDocument()
    expect(screen.getByText('Adaline Byron')).toBeInTheDocument()
  })
})
