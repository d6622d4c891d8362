import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { hrefsOf, mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'

const CTA = '/start?type=ai&plan=ai-lead-engine'

beforeEach(() => resetCatalogueCache())

describe('/ai-lead-engine', () => {
  it('has one h1 and the launch-offer facts', async () => {
    mockLanding()
    expect(await renderLanding('/ai-lead-engine')).toHaveTextContent('Your AI Lead Engine, Live in 72 Hours')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(screen.getAllByText(/only 5 spots/i).length).toBeGreaterThan(0)
    expect(screen.getAllByText(/30-day money back/i).length).toBeGreaterThan(0)
    expect(screen.getAllByText(/72h/).length).toBeGreaterThan(0)
    for (const name of ['Capture', 'Qualify', 'Follow up', 'CRM hand-off']) {
      expect(screen.getByRole('heading', { level: 3, name })).toBeInTheDocument()
    }
  })

  it.each([
    ['Claim Your Spot', 4], // hero, offer card, closing, sticky bar
  ])('every "%s" link goes to the exact /start URL', async (name, count) => {
    mockLanding()
    await renderLanding('/ai-lead-engine')
    expect(hrefsOf(name)).toEqual(Array(count).fill(CTA))
    expect(new Set(startHrefs())).toEqual(new Set([CTA]))
  })

  it('shows price, struck price and saving once the catalogue has loaded', async () => {
    mockLanding()
    await renderLanding('/ai-lead-engine')
    const offer = within((await screen.findByRole('heading', { level: 2, name: 'AI Lead Engine' })).closest('.offer-card') as HTMLElement)
    expect(await offer.findByText('€147')).toBeInTheDocument()
    expect(offer.getByText('€297').closest('s')).not.toBeNull()
    expect(offer.getByText('Save 50%')).toBeInTheDocument()
  })

  it('FAQ has four questions', async () => {
    mockLanding()
    await renderLanding('/ai-lead-engine')
    const faq = within(document.getElementById('faq') as HTMLElement)
    expect(faq.getAllByRole('button')).toHaveLength(4)
    await userEvent.click(faq.getByRole('button', { name: 'Why are there only 5 spots?' }))
    expect(faq.getByRole('button', { name: 'Why are there only 5 spots?' })).toHaveAttribute('aria-expanded', 'true')
  })
})
