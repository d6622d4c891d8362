import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch } from '@test/utils'
import { LeadForm } from './LeadForm'

const THANKS = "Thank you! We'll contact you within 24 hours to schedule your free onboarding audit."

function setup() {
  render(<LeadForm source="ai-onboarding-audit" confirmation={THANKS} submitLabel="Get My Free Audit" />)
}

describe('LeadForm', () => {
  it('posts {source, email, company_website: ""} and shows the confirmation', async () => {
    const fetch = mockFetch(() => ({ status: 201, body: { message: 'Thanks' } }))
    setup()
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await screen.findByText(THANKS)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Get My Free Audit' })).not.toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/leads')
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toEqual({ source: 'ai-onboarding-audit', email: 'ada@example.eu', company_website: '' })
  })

  it('shows the server error in the red box and keeps the form', async () => {
    mockFetch(() => ({ status: 429, body: { error: { code: 'rate_limited', message: 'Too many requests. Please try again later.' } } }))
    setup()
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Please try again later.')
    expect(screen.getByRole('button', { name: 'Get My Free Audit' })).toBeEnabled()
    expect(screen.queryByText(THANKS)).not.toBeInTheDocument()
  })

  it('shows a busy button while sending', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const fn = mockFetch(() => ({ status: 201, body: { message: 'ok' } }))
    const original = fn.getMockImplementation()!
    fn.mockImplementation(async (...args) => {
      await gate
      return original(...args)
    })
    setup()
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    const busy = screen.getByRole('button', { name: 'Sending…' })
    expect(busy).toBeDisabled()
    expect(busy).toHaveAttribute('aria-busy', 'true')
    release()
    expect(await screen.findByText(THANKS)).toBeInTheDocument()
  })

  it('hides the honeypot from people and assistive tech', () => {
    setup()
    const trap = document.querySelector('input[name="company_website"]') as HTMLInputElement
    expect(trap).not.toBeNull()
    expect(trap).toHaveAttribute('type', 'text')
    expect(trap).toHaveAttribute('tabindex', '-1')
    expect(trap).toHaveAttribute('autocomplete', 'off')
    expect(trap).toHaveAttribute('aria-hidden', 'true')
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull()
    expect(screen.getAllByRole('textbox')).toHaveLength(1) // only the e-mail field is exposed
  })
})
