import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { hrefsOf, mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'

const CTA = '/start?type=rebuild&plan=sales-funnel-rebuild-offer'

beforeEach(() => resetCatalogueCache())

describe('/rebuild-sales-funnel', () => {
  it('has one h1, the pricing anchor, five included items, three testimonials and four FAQ questions', async () => {
    mockLanding()
    expect(await renderLanding('/rebuild-sales-funnel')).toHaveTextContent('Your Sales Funnel, Rebuilt in 48 Hours')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(document.getElementById('pricing')).not.toBeNull()
    expect(within(document.getElementById('included') as HTMLElement).getAllByRole('heading', { level: 3 })).toHaveLength(5)
    expect(document.querySelectorAll('.testimonial')).toHaveLength(3)
    expect(within(document.getElementById('faq') as HTMLElement).getAllByRole('button')).toHaveLength(4)
    expect(screen.getAllByText(/48h/).length).toBeGreaterThan(0)
  })

  it.each([['Rebuild My Funnel', 4]])('"%s" links (%i) go to the exact /start URL', async (name, count) => {
    mockLanding()
    await renderLanding('/rebuild-sales-funnel')
    expect(hrefsOf(name)).toEqual(Array(count).fill(CTA))
    expect(new Set(startHrefs())).toEqual(new Set([CTA]))
  })

  it('shows €97, struck €297 and "Save €200" once the catalogue has loaded', async () => {
    mockLanding()
    await renderLanding('/rebuild-sales-funnel')
    const pricing = within(document.getElementById('pricing') as HTMLElement)
    expect(await pricing.findByText('€97')).toBeInTheDocument()
    expect(pricing.getByText('€297').closest('s')).not.toBeNull()
    expect(pricing.getByText('Save €200')).toBeInTheDocument()
  })
})
