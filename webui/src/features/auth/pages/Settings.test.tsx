import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockSignedIn, renderApp, sentBody, testUser } from '@test/utils'

function section(name: string) {
  return within(screen.getByRole('region', { name }))
}

describe('/dashboard/settings', () => {
  it('has the three sections and an export download link', async () => {
    mockSignedIn()
    renderApp('/dashboard/settings')
    await screen.findByRole('heading', { level: 1, name: 'Settings' })
    for (const name of ['Change e-mail', 'Change password', 'Your data']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument()
    }
    const download = section('Your data').getByRole('link', { name: 'Download my data' })
    expect(download).toHaveAttribute('href', '/api/account/export')
    expect(download).toHaveAttribute('download')
  })

  it('changes the e-mail and updates the user', async () => {
    const fetchMock = mockSignedIn(testUser, (method, url) =>
      method === 'POST' && url === '/api/account/email' ? { status: 200, body: { user: { ...testUser, email: 'new@example.eu' } } } : undefined,
    )
    renderApp('/dashboard/settings')
    await screen.findByRole('heading', { level: 1, name: 'Settings' })
    const email = section('Change e-mail')
    await userEvent.click(email.getByRole('button', { name: 'Change e-mail' }))
    expect(email.getByRole('alert')).toHaveTextContent('Please fill in all fields')
    await userEvent.type(email.getByLabelText(/^New e-mail/), 'new@example.eu')
    await userEvent.type(email.getByLabelText(/^Current password/), 'secret12')
    await userEvent.click(email.getByRole('button', { name: 'Change e-mail' }))
    expect(await email.findByRole('status')).toHaveTextContent('Your e-mail address is now new@example.eu.')
    expect(sentBody(fetchMock, '/api/account/email')).toEqual({ new_email: 'new@example.eu', current_password: 'secret12' })
  })

  it('sends what the inputs hold (also values put there without typing, as autofill does) and empties them after a change', async () => {
    const fetchMock = mockSignedIn(testUser, (method, url) => {
      if (method === 'POST' && url === '/api/account/email') return { status: 200, body: { user: { ...testUser, email: 'new@example.eu' } } }
      if (method === 'POST' && url === '/api/account/password') return { status: 200, body: { message: 'Your password has been changed.' } }
      return undefined
    })
    renderApp('/dashboard/settings')
    await screen.findByRole('heading', { level: 1, name: 'Settings' })
    const email = section('Change e-mail')
    ;(email.getByLabelText(/^New e-mail/) as HTMLInputElement).value = ' new@example.eu '
    ;(email.getByLabelText(/^Current password/) as HTMLInputElement).value = 'secret12'
    await userEvent.click(email.getByRole('button', { name: 'Change e-mail' }))
    expect(await email.findByRole('status')).toHaveTextContent('Your e-mail address is now new@example.eu.')
    expect(sentBody(fetchMock, '/api/account/email')).toEqual({ new_email: 'new@example.eu', current_password: 'secret12' })
    expect(email.getByLabelText(/^New e-mail/)).toHaveValue('')
    expect(email.getByLabelText(/^Current password/)).toHaveValue('')

    const pw = section('Change password')
    ;(pw.getByLabelText(/^Current password/) as HTMLInputElement).value = 'secret12'
    ;(pw.getByLabelText(/^New password/) as HTMLInputElement).value = 'abcdef'
    ;(pw.getByLabelText(/^Confirm new password/) as HTMLInputElement).value = 'abcdef'
    await userEvent.click(pw.getByRole('button', { name: 'Change password' }))
    expect(await pw.findByRole('status')).toHaveTextContent('Your password has been changed.')
    expect(sentBody(fetchMock, '/api/account/password')).toEqual({ current_password: 'secret12', new_password: 'abcdef', confirm_password: 'abcdef' })
    for (const label of [/^Current password/, /^New password/, /^Confirm new password/]) expect(pw.getByLabelText(label)).toHaveValue('')
  })

  it('checks the new password and shows the server error in its own box', async () => {
    mockSignedIn(testUser, (method, url) =>
      method === 'POST' && url === '/api/account/password'
        ? { status: 400, body: { error: { code: 'wrong_password', message: 'Your current password is incorrect.' } } }
        : undefined,
    )
    renderApp('/dashboard/settings')
    await screen.findByRole('heading', { level: 1, name: 'Settings' })
    const pw = section('Change password')
    const submit = () => userEvent.click(pw.getByRole('button', { name: 'Change password' }))
    await userEvent.type(pw.getByLabelText(/^Current password/), 'secret12')
    await userEvent.type(pw.getByLabelText(/^New password/), 'abcdef')
    await userEvent.type(pw.getByLabelText(/^Confirm new password/), 'abcdeg')
    await submit()
    expect(pw.getByRole('alert')).toHaveTextContent('Passwords do not match')
    await userEvent.clear(pw.getByLabelText(/^New password/))
    await userEvent.clear(pw.getByLabelText(/^Confirm new password/))
    await userEvent.type(pw.getByLabelText(/^New password/), 'abc')
    await userEvent.type(pw.getByLabelText(/^Confirm new password/), 'abc')
    await submit()
    expect(pw.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters')
    await userEvent.clear(pw.getByLabelText(/^New password/))
    await userEvent.clear(pw.getByLabelText(/^Confirm new password/))
    await userEvent.type(pw.getByLabelText(/^New password/), 'abcdef')
    await userEvent.type(pw.getByLabelText(/^Confirm new password/), 'abcdef')
    await submit()
    expect(await pw.findByText('Your current password is incorrect.')).toBeInTheDocument()
    // The other sections show nothing.
    expect(section('Change e-mail').queryByRole('alert')).not.toBeInTheDocument()
  })

  it('deletes the account after confirming with the password and ends at /', async () => {
    const fetchMock = mockSignedIn(testUser, (method, url) =>
      method === 'POST' && url === '/api/account/delete' ? { status: 204 } : undefined,
    )
    renderApp('/dashboard/settings')
    await screen.findByRole('heading', { level: 1, name: 'Settings' })
    const data = section('Your data')
    await userEvent.click(data.getByRole('button', { name: 'Delete my account' }))
    const confirm = data.getByRole('button', { name: 'Delete my account permanently' })
    await userEvent.click(confirm)
    expect(data.getByRole('alert')).toHaveTextContent('Please fill in all fields')
    expect(fetchMock).not.toHaveBeenCalledWith('/api/account/delete', expect.anything())

    await userEvent.type(data.getByLabelText(/^Current password/), 'secret12')
    await userEvent.click(confirm)
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })).toBeInTheDocument()
    expect(sentBody(fetchMock, '/api/account/delete')).toEqual({ current_password: 'secret12' })
    // Signed out locally: the header offers Login again, and the hint cookie is gone.
    expect(within(screen.getByRole('banner')).getAllByRole('link', { name: 'Login' }).length).toBeGreaterThan(0)
    expect(document.cookie).not.toContain('agency_signed_in=1')
  })

  it('can cancel the delete confirmation', async () => {
    mockSignedIn()
    renderApp('/dashboard/settings')
    await screen.findByRole('heading', { level: 1, name: 'Settings' })
    const data = section('Your data')
    await userEvent.click(data.getByRole('button', { name: 'Delete my account' }))
    await userEvent.click(data.getByRole('button', { name: 'Cancel' }))
    expect(data.queryByRole('button', { name: 'Delete my account permanently' })).not.toBeInTheDocument()
    expect(data.getByRole('button', { name: 'Delete my account' })).toBeInTheDocument()
  })
})
