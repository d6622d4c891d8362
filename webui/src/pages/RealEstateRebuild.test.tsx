import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { hrefsOf, mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'

beforeEach(() => resetCatalogueCache())

const pricing = () => within(document.getElementById('pricing') as HTMLElement)
const card = (name: string) => within(pricing().getByRole('heading', { level: 3, name }).closest('.price-card') as HTMLElement)

describe('/real-estate-website-rebuild', () => {
  it('has one h1, 4 before/after pairs, the risk-free block, 6 features, 3 testimonials', async () => {
    mockLanding()
    expect(await renderLanding('/real-estate-website-rebuild')).toHaveTextContent('Your Real Estate Website, Rebuilt in 24 Hours')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    const pairs = document.querySelectorAll('#before-after .ba-pair')
    expect(pairs).toHaveLength(4)
    for (const pair of pairs) {
      expect(within(pair as HTMLElement).getByText('Before')).toBeInTheDocument()
      expect(within(pair as HTMLElement).getByText('After')).toBeInTheDocument()
    }
    expect(screen.getByRole('heading', { level: 2, name: 'Risk-free: a free demo and a 30-day money-back guarantee' })).toBeInTheDocument()
    expect(within(document.getElementById('features') as HTMLElement).getAllByRole('heading', { level: 3 })).toHaveLength(6)
    expect(document.querySelectorAll('.testimonial')).toHaveLength(3)
    expect(screen.getAllByText(/free demo/i).length).toBeGreaterThan(0)
    expect(screen.getAllByText('Live within 24 hours').length).toBeGreaterThan(0)
    // One guarantee per package (the catalogue's): no second 'or it’s free' promise.
    expect(document.body.textContent).not.toMatch(/or it’s free|don’t pay/)
  })

  it.each([
    ['Basic Rebuild', '€149', '/start?type=rebuild&plan=basic-rebuild'],
    ['Pro Rebuild', '€249', '/start?type=rebuild&plan=pro-rebuild'],
    ['Premium Rebuild', '€399', '/start?type=rebuild&plan=premium-rebuild'],
  ])('%s costs %s and links to %s', async (name, price, href) => {
    mockLanding()
    await renderLanding('/real-estate-website-rebuild')
    expect(await pricing().findByRole('heading', { level: 3, name })).toBeInTheDocument()
    expect(card(name).getByText(price)).toBeInTheDocument()
    expect(card(name).getByText('one-time')).toBeInTheDocument()
    expect(card(name).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', href)
  })

  it('marks Pro as most popular with up to 3 pages, Premium with 5 pages', async () => {
    mockLanding()
    await renderLanding('/real-estate-website-rebuild')
    expect(await pricing().findByRole('heading', { level: 3, name: 'Pro Rebuild' })).toBeInTheDocument()
    expect(card('Pro Rebuild').getByText('Most Popular')).toBeInTheDocument()
    expect(card('Pro Rebuild').getByText('Up to 3 pages')).toBeInTheDocument()
    expect(card('Premium Rebuild').getByText('5 pages')).toBeInTheDocument()
    expect(card('Basic Rebuild').queryByText('Most Popular')).not.toBeInTheDocument()
  })

  it('every other call to action goes to /free-preview; only the tiers go to /start', async () => {
    mockLanding()
    await renderLanding('/real-estate-website-rebuild')
    // hero, demo card, risk-free block, closing band, sticky bar
    expect(hrefsOf('Get My Free Demo')).toEqual(Array(5).fill('/free-preview'))
    expect(screen.getByRole('link', { name: 'See Packages' })).toHaveAttribute('href', '/real-estate-website-rebuild#pricing')
    await pricing().findByRole('heading', { level: 3, name: 'Basic Rebuild' })
    expect(startHrefs().sort()).toEqual([
      '/start?type=rebuild&plan=basic-rebuild',
      '/start?type=rebuild&plan=premium-rebuild',
      '/start?type=rebuild&plan=pro-rebuild',
    ])
  })
})
