import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { hrefsOf, mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'

const CTA = '/start?type=website&plan=starter'

beforeEach(() => resetCatalogueCache())

describe('/landing', () => {
  it('has one h1 about a slow site costing clients and the spec claims', async () => {
    mockLanding()
    expect(await renderLanding('/landing')).toHaveTextContent('Is Your Slow Website Costing You Clients?')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(screen.getAllByText(/within 24 hours/).length).toBeGreaterThan(0)
    expect(screen.getAllByText(/99\/100 PageSpeed score/).length).toBeGreaterThan(0)
    expect(screen.getByText('73%')).toBeInTheDocument()
    expect(screen.getByText('99/100')).toBeInTheDocument()
    // A count the product knows is not written into the page (the speed test shows the real one).
    expect(screen.queryByText('1,423')).not.toBeInTheDocument()
    expect(document.getElementById('pricing')).not.toBeNull()
    expect(document.querySelectorAll('.testimonial')).toHaveLength(3)
    expect(within(document.getElementById('faq') as HTMLElement).getAllByRole('button')).toHaveLength(4)
  })

  it('shows the before/after speed scores 48 and 99 in words and as gauges', async () => {
    mockLanding()
    await renderLanding('/landing')
    expect(screen.getByText('Before: PageSpeed score 48 out of 100, rated Poor.')).toBeInTheDocument()
    expect(screen.getByText('After: PageSpeed score 99 out of 100, rated Excellent.')).toBeInTheDocument()
    expect(document.querySelector('.score-gauge--poor .score-gauge__ring--48')).not.toBeNull()
    expect(document.querySelector('.score-gauge--good .score-gauge__ring--99')).not.toBeNull()
  })

  it('has the three steps Test, Rebuild, Launch in order', async () => {
    mockLanding()
    await renderLanding('/landing')
    const how = within(document.getElementById('how-it-works') as HTMLElement)
    expect(how.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Step 1: Test',
      'Step 2: Rebuild',
      'Step 3: Launch',
    ])
  })

  it.each([['Get My Fast Website', 4]])('"%s" links (%i) go to the exact /start URL', async (name, count) => {
    mockLanding()
    await renderLanding('/landing')
    expect(hrefsOf(name)).toEqual(Array(count).fill(CTA)) // hero, #pricing, closing band, sticky bar
    expect(new Set(startHrefs())).toEqual(new Set([CTA]))
    expect(screen.getByRole('region', { name: 'Quick action' })).toContainElement(
      within(screen.getByRole('region', { name: 'Quick action' })).getByRole('link', { name: 'Get My Fast Website' }),
    )
  })

  it('the speed-test links go to /speed-test', async () => {
    mockLanding()
    await renderLanding('/landing')
    expect(hrefsOf('Test My Speed Free')).toEqual(['/speed-test', '/speed-test']) // hero, closing band
    expect(hrefsOf('Start With a Free Speed Test')).toEqual(['/speed-test']) // the "Test" step
  })

  it('shows a price placeholder while the catalogue loads (no typed price)', async () => {
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => undefined)))
    await renderLanding('/landing')
    expect(screen.getAllByText('Loading price')).toHaveLength(2) // hero score card and #pricing
    expect(screen.queryByText(/€\d/)).not.toBeInTheDocument()
  })

  it('shows €19 per month (struck €39) from the catalogue', async () => {
    mockLanding()
    await renderLanding('/landing')
    const pricing = within(document.getElementById('pricing') as HTMLElement)
    expect(await pricing.findByText('€19')).toBeInTheDocument()
    expect(pricing.getByText('per month')).toBeInTheDocument()
    expect(pricing.getByText('€39').closest('s')).not.toBeNull()
    expect(screen.getAllByText('€19')).toHaveLength(2) // hero score card and #pricing
  })
})
