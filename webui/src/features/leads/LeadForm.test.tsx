import { act, render, screen, within } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '@test/utils'
import { DOMAIN_FIELD, EMAIL_FIELD, LeadForm, NAME_FIELD, type LeadField } from './LeadForm'

const THANKS = "Thank you! We'll contact you within 24 hours to schedule your free onboarding audit."

function setup() {
  render(<LeadForm source="ai-onboarding-audit" submitLabel="Get My Free Audit" />)
}

const EVERY_FIELD: LeadField[] = [NAME_FIELD, EMAIL_FIELD, { ...DOMAIN_FIELD, hint: 'Without http://' }]

describe('LeadForm', () => {
  it('posts {source, email, company_website: ""} and shows the confirmation the server sends', async () => {
    const fetch = mockFetch(() => ({ status: 201, body: { message: THANKS } }))
    setup()
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await screen.findByText(THANKS)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Get My Free Audit' })).not.toBeInTheDocument()
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/leads')
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toEqual({ source: 'ai-onboarding-audit', email: 'ada@example.eu', company_website: '', newsletter: false })
  })

  it('sends what was typed before React hydrated the prerendered form, honeypot included', async () => {
    const fetch = mockFetch(() => ({ status: 201, body: { message: THANKS } }))
    render(<LeadForm source="ai-onboarding-audit" submitLabel="Get My Free Audit" fields={EVERY_FIELD} requireAll />)
    ;(screen.getByLabelText(/Your Name/) as HTMLInputElement).value = 'Ada Lovelace'
    ;(screen.getByLabelText(/Email Address/) as HTMLInputElement).value = 'ada@example.eu'
    ;(screen.getByLabelText(/Website URL/) as HTMLInputElement).value = 'analytical.engine'
    ;(document.querySelector('input[name="company_website"]') as HTMLInputElement).value = 'bot.example'
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await screen.findByText(THANKS)).toBeInTheDocument()
    const [, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(JSON.parse(String(init.body))).toEqual({
      source: 'ai-onboarding-audit',
      name: 'Ada Lovelace',
      email: 'ada@example.eu',
      domain: 'analytical.engine',
      company_website: 'bot.example',
      newsletter: false,
    })
  })

  it('offers the newsletter in an unticked box with the privacy policy; sends true only when ticked', async () => {
    const fetch = mockFetch(() => ({ status: 201, body: { message: THANKS, newsletter: { subscribed: true, message: "You're subscribed to the newsletter." } } }))
    setup()
    const box = screen.getByRole('checkbox', { name: /Also send me the newsletter/ })
    expect(box).not.toBeChecked()
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy')
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(box)
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await screen.findByText(THANKS)).toBeInTheDocument()
    expect(screen.getByText("You're subscribed to the newsletter.")).toBeInTheDocument()
    const [, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(JSON.parse(String(init.body))).toMatchObject({ newsletter: true })
  })

  it("says nothing of a newsletter without the box, and never 'subscribed' when Kit failed", async () => {
    mockFetch(() => ({ status: 201, body: { message: THANKS, newsletter: null } }))
    setup()
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await screen.findByText(THANKS)).toBeInTheDocument()
    expect(screen.queryByText(/newsletter|subscribed/i)).not.toBeInTheDocument()
  })

  it("shows Kit's failure as it is, not as a subscription", async () => {
    const failed = 'Error subscribing to ConvertKit: The access token is invalid'
    mockFetch(() => ({ status: 201, body: { message: THANKS, newsletter: { subscribed: false, message: failed } } }))
    setup()
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('checkbox', { name: /Also send me the newsletter/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await screen.findByText(failed)).toBeInTheDocument()
    expect(screen.queryByText(/You're subscribed/)).not.toBeInTheDocument()
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
    const fn = mockFetch(() => ({ status: 201, body: { message: THANKS } }))
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

  it('shows whatever confirmation the server sends, not a text of its own', async () => {
    mockFetch(() => ({ status: 201, body: { message: 'Thanks, the server says.' } }))
    setup()
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Get My Free Audit' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Thanks, the server says.')
  })

  it('asks for the fields it is given, in order, and sends the filled optional ones', async () => {
    const fetch = mockFetch(() => ({ status: 201, body: { message: THANKS } }))
    render(<LeadForm source="clinic-consultation" submitLabel="Apply" fields={EVERY_FIELD} />)
    const inputs = screen.getAllByRole('textbox')
    expect(inputs.map((input) => input.getAttribute('name'))).toEqual(['name', 'email', 'domain'])
    expect(screen.getByLabelText(/Your Name/)).not.toBeRequired()
    expect(screen.getByLabelText(/Email Address/)).toBeRequired()
    expect(screen.getByLabelText(/Website URL/)).toHaveAccessibleDescription('Without http://')
    await userEvent.type(screen.getByLabelText(/Email Address/), ' ada@example.eu ')
    await userEvent.type(screen.getByLabelText(/Website URL/), 'ada.example')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await screen.findByText(THANKS)
    const [, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(JSON.parse(String(init.body))).toEqual({
      source: 'clinic-consultation', email: 'ada@example.eu', domain: 'ada.example', company_website: '', newsletter: false,
    })
  })

  it('with requireAll, asks for every field before making any call', async () => {
    const fetch = mockFetch(() => ({ status: 201, body: { message: THANKS } }))
    render(<LeadForm source="free-preview" submitLabel="Send" fields={EVERY_FIELD} requireAll />)
    for (const input of screen.getAllByRole('textbox')) expect(input).toBeRequired()
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields')
    expect(fetch).not.toHaveBeenCalled()
  })

  it('hands a page its own confirmation, and shows a fixed failure text when given one', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let answer = { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } as object }
    mockFetch(() => answer)
    const onSent = vi.fn()
    render(
      <LeadForm source="free-preview" submitLabel="Send" fields={EVERY_FIELD} requireAll failureMessage="Try again." busyLabel={null} onSent={onSent} />,
    )
    await userEvent.type(screen.getByLabelText(/Your Name/), 'Ada')
    await userEvent.type(screen.getByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.type(screen.getByLabelText(/Website URL/), ' ada.example ')
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again.')
    expect(warn).toHaveBeenCalled()
    expect(screen.getByLabelText(/Email Address/)).not.toHaveAttribute('aria-invalid')
    answer = { status: 201, body: { message: 'Request Received!' } }
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    await vi.waitFor(() =>
      expect(onSent).toHaveBeenCalledWith({ message: 'Request Received!', values: { name: 'Ada', email: 'ada@example.eu', domain: 'ada.example' }, newsletter: null }),
    )
  })
})

describe('LeadForm hydrated over prerendered markup', () => {
  it('takes over what was typed before hydration, so a later render does not wipe it', async () => {
    // The prerendered form, filled by a visitor (no events reach React, which is not there yet).
    const fetch = mockFetch(() => ({ status: 201, body: { message: THANKS } }))
    const form = <LeadForm source="ai-onboarding-audit" submitLabel="Get My Free Audit" fields={EVERY_FIELD} requireAll />
    const container = document.createElement('div')
    container.innerHTML = renderToString(form)
    document.body.append(container)
    const field = (name: string) => container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!
    field('name').value = 'Ada Lovelace'
    field('domain').value = 'analytical.engine'
    const root = await act(async () => hydrateRoot(container, form))
    // Typing into another field renders the form again: the hydrated fields keep their text.
    await userEvent.type(field('email'), 'ada@example.eu')
    expect(field('name').value).toBe('Ada Lovelace')
    expect(field('domain').value).toBe('analytical.engine')
    await userEvent.click(within(container).getByRole('button', { name: 'Get My Free Audit' }))
    expect(await within(container).findByText(THANKS)).toBeInTheDocument()
    const [, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(JSON.parse(String(init.body))).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.eu', domain: 'analytical.engine' })
    act(() => root.unmount())
    container.remove()
  })
})
