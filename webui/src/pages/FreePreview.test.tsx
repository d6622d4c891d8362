import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch, renderApp, sentBody } from '@test/utils'

async function openPage() {
  renderApp('/free-preview')
  await screen.findByRole('heading', { level: 1, name: 'Get Your Free Website Preview' }, { timeout: 10000 })
}

async function fill(name: string, email: string, domain: string) {
  if (name) await userEvent.type(screen.getByLabelText(/^Your Name/), name)
  if (email) await userEvent.type(screen.getByLabelText(/^Email Address/), email)
  if (domain) await userEvent.type(screen.getByLabelText(/^Website URL/), domain)
}

describe('/free-preview', () => {
  it('asks for every field before making any call', async () => {
    const fetchMock = mockFetch(() => ({ status: 201, body: { message: 'Request Received!' } }))
    await openPage()
    await fill('Ann', 'ann@example.com', '')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Preview' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields')
    expect(fetchMock).not.toHaveBeenCalledWith('/api/leads', expect.anything())
  })

  it('stores the request and shows the next steps', async () => {
    const fetchMock = mockFetch(() => ({ status: 201, body: { message: 'Request Received!' } }))
    await openPage()
    await fill('Ann Realty', 'ann@example.com', 'annhomes.com')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Preview' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Request Received!' })).toBeInTheDocument()
    expect(screen.getByText(/within 2 hours/)).toBeInTheDocument()
    expect(screen.getByText(/ann@example.com/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/')
    expect(sentBody(fetchMock, '/api/leads')).toEqual({
      source: 'free-preview', name: 'Ann Realty', email: 'ann@example.com', domain: 'annhomes.com', company_website: '', newsletter: false,
    })
  })

  it('shows the failure message above the form and keeps what was typed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    mockFetch(() => ({ status: 500, body: { error: { code: 'internal_error', message: 'boom' } } }))
    await openPage()
    await fill('Ann', 'ann@example.com', 'annhomes.com')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Preview' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again or contact us directly.')
    expect(screen.getByLabelText(/^Website URL/)).toHaveValue('annhomes.com')
  })
})
