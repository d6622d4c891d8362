import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { mockFetch } from '@test/utils'
import { ContentPage } from './ContentPage'

const TERMS = { name: 'terms', title: 'Terms of Service', html: '<h1>Terms of Service</h1><p>Be nice.</p>' }

describe('ContentPage', () => {
  afterEach(() => document.body.querySelectorAll('[data-prerendered]').forEach((el) => el.remove()))

  it('loads the page from the API on client-side navigation', async () => {
    const fetch = mockFetch((_m, url) => (url === '/api/pages/terms' ? { status: 200, body: TERMS } : { status: 404 }))
    render(<ContentPage name="terms" />)
    expect(screen.getByRole('status')).toHaveTextContent('Loading page')
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument()
    expect(screen.getByText('Be nice.')).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('reuses the text the server put into the prerendered page, without a request', () => {
    const prerendered = document.createElement('div')
    prerendered.dataset.prerendered = ''
    prerendered.innerHTML = '<article data-content-page="terms"><h1>Server Terms</h1></article>'
    document.body.append(prerendered)
    const fetch = mockFetch(() => ({ status: 500 }))
    render(<ContentPage name="terms" />)
    expect(screen.getAllByRole('heading', { level: 1, name: 'Server Terms' })).toHaveLength(2)
    expect(fetch).not.toHaveBeenCalled()
  })

  it('shows an error with a retry that works', async () => {
    let fail = true
    mockFetch(() => (fail ? { status: 503, body: { error: { code: 'x', message: 'Down for a moment.' } } } : { status: 200, body: TERMS }))
    render(<ContentPage name="terms" />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Down for a moment.')
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument()
  })
})
