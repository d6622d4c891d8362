import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { hrefsOf, mockLanding, renderLanding, startHrefs } from '@test/landing'
import { DEV_SITE_CONFIG } from '../lib/site-config'
import { resetCatalogueCache } from '../features/catalogue'

const CTA = '/start?type=leadgen&plan=landing-page-rebuild'
const THANKS = "Thank you! We'll contact you within 24 hours to schedule your free consultation."

beforeEach(() => resetCatalogueCache())

describe('/lead-generation', () => {
  it('has one h1, the anchors, six fixes, three testimonials, four FAQ questions and the phone', async () => {
    mockLanding()
    expect(await renderLanding('/lead-generation')).toHaveTextContent('Turn Your Clinic Website Into a Patient Booking Machine')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(document.getElementById('pricing')).not.toBeNull()
    expect(document.getElementById('consultation')).not.toBeNull()
    expect(within(document.getElementById('fixes') as HTMLElement).getAllByRole('heading', { level: 3 })).toHaveLength(6)
    expect(document.querySelectorAll('.testimonial')).toHaveLength(3)
    expect(within(document.getElementById('faq') as HTMLElement).getAllByRole('button')).toHaveLength(4)
    expect(screen.getByRole('link', { name: DEV_SITE_CONFIG.phone })).toHaveAttribute('href', 'tel:+493012345678')
  })

  it.each([
    ['Rebuild My Landing Page', 3], // hero, offer card in hero and in #pricing
    ['Rebuild My Page', 1], // sticky bar
  ])('"%s" links (%i) go to the exact /start URL', async (name, count) => {
    mockLanding()
    await renderLanding('/lead-generation')
    expect(hrefsOf(name)).toEqual(Array(count).fill(CTA))
    expect(new Set(startHrefs())).toEqual(new Set([CTA]))
    expect(screen.getByRole('link', { name: 'Book a Free Consultation' })).toHaveAttribute('href', '/lead-generation#consultation')
  })

  it('shows the price from the catalogue', async () => {
    mockLanding()
    await renderLanding('/lead-generation')
    const pricing = within(document.getElementById('pricing') as HTMLElement)
    expect(await pricing.findByText('€197')).toBeInTheDocument()
    expect(pricing.getByText('one-time payment')).toBeInTheDocument()
  })

  it('consultation form posts the lead and shows the thank-you text', async () => {
    const fetch = mockLanding(() => ({ status: 201, body: { message: THANKS } })) // the server's confirmation
    await renderLanding('/lead-generation')
    const form = within(document.getElementById('consultation') as HTMLElement)
    await userEvent.type(form.getByLabelText(/Email Address/), 'clinic@example.eu')
    await userEvent.click(form.getByRole('button', { name: 'Book My Free Consultation' }))
    expect(await form.findByText(THANKS)).toBeInTheDocument()
    const call = fetch.mock.calls.find(([url]) => url === '/api/leads') as [string, RequestInit]
    expect(JSON.parse(String(call[1].body))).toEqual({ source: 'clinic-consultation', email: 'clinic@example.eu', company_website: '', newsletter: false })
  })
})
