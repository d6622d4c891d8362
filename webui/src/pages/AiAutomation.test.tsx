import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'

beforeEach(() => resetCatalogueCache())

const THANKS = "Thank you! We'll contact you within 24 hours to schedule your free consultation."

const pricing = () => within(document.getElementById('pricing') as HTMLElement)
const card = (name: string) => within(pricing().getByRole('heading', { level: 3, name }).closest('.price-card') as HTMLElement)

describe('/ai-automation', () => {
  it('has one h1', async () => {
    mockLanding()
    expect(await renderLanding('/ai-automation')).toHaveTextContent('Put AI to Work in Your Business')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
  })

  it.each([
    ['Starter AI', '€499', '/start?type=ai&plan=starter-ai'],
    ['Pro AI', '€999', '/start?type=ai&plan=pro-ai'],
    ['Full Stack AI', '€1,999', '/start?type=ai&plan=full-stack-ai'],
  ])('package %s shows %s from the catalogue and links to %s', async (name, price, href) => {
    mockLanding()
    await renderLanding('/ai-automation')
    expect(await pricing().findByRole('heading', { level: 3, name })).toBeInTheDocument()
    expect(card(name).getByText(price)).toBeInTheDocument()
    expect(card(name).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', href)
  })

  it('marks Pro AI Most Popular; every /start link is a package URL', async () => {
    mockLanding()
    await renderLanding('/ai-automation')
    await pricing().findByRole('heading', { level: 3, name: 'Pro AI' })
    expect(card('Pro AI').getByText('Most Popular')).toBeInTheDocument()
    const allowed = new Set(['/start?type=ai&plan=starter-ai', '/start?type=ai&plan=pro-ai', '/start?type=ai&plan=full-stack-ai'])
    expect(startHrefs().every((href) => allowed.has(href))).toBe(true)
    expect(startHrefs().filter((h) => h === '/start?type=ai&plan=pro-ai').length).toBeGreaterThanOrEqual(3) // hero, card, sticky bar
  })

  it('strategy call form posts the lead and shows the thank-you text', async () => {
    const fetch = mockLanding(() => ({ status: 201, body: { message: THANKS } })) // the server's confirmation
    await renderLanding('/ai-automation')
    const form = within(document.getElementById('strategy-call') as HTMLElement)
    await userEvent.type(await form.findByLabelText(/Email Address/), 'ada@example.eu')
    await userEvent.click(form.getByRole('button', { name: 'Book My Free Strategy Call' }))
    expect(await form.findByText(THANKS)).toBeInTheDocument()
    const call = fetch.mock.calls.find(([url]) => url === '/api/leads') as [string, RequestInit]
    expect(JSON.parse(String(call[1].body))).toEqual({ source: 'ai-automation-strategy-call', email: 'ada@example.eu', company_website: '', newsletter: false })
  })
})
