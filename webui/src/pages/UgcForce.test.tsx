import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'

beforeEach(() => resetCatalogueCache())

const pricing = () => within(document.getElementById('pricing') as HTMLElement)
const card = (name: string) => within(pricing().getByRole('heading', { level: 3, name }).closest('.price-card') as HTMLElement)

describe('/ugc-force', () => {
  it('has one h1 and a how-it-works section', async () => {
    mockLanding()
    expect(await renderLanding('/ugc-force')).toHaveTextContent('UGC Videos That Sell')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(screen.getByRole('heading', { level: 2, name: 'From brief to finished videos' })).toBeInTheDocument()
  })

  it('keeps the pricing list a valid list while the packages load', async () => {
    // The catalogue never answers: the page stays in its loading state.
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => {})))
    await renderLanding('/ugc-force')
    const status = pricing().getByRole('status')
    expect(status).toHaveTextContent('Loading packages')
    // axe: an <li> may not be a status, and a list holds only <li> children.
    expect(status.tagName).not.toBe('LI')
    const grid = document.querySelector('#pricing .pricing-grid') as HTMLElement
    expect(grid).toHaveAttribute('aria-busy', 'true')
    expect([...grid.children].every((child) => child.tagName === 'LI' && !child.hasAttribute('role'))).toBe(true)
  })

  it.each([
    ['Starter Clip', '€49', '48 hours', '/start?type=ugc&plan=starter-clip'],
    ['Conversion Bundle', '€129', '72 hours', '/start?type=ugc&plan=conversion-bundle'],
    ['Scaling Stack', '€249', '5 days', '/start?type=ugc&plan=scaling-stack'],
    ['Custom Campaign', '€499', '5-7 days', '/start?type=ugc&plan=custom-campaign'],
  ])('%s: %s, delivered in %s, links to %s', async (name, price, delivery, href) => {
    mockLanding()
    await renderLanding('/ugc-force')
    expect(await pricing().findByRole('heading', { level: 3, name })).toBeInTheDocument()
    expect(card(name).getByText(price)).toBeInTheDocument()
    expect(card(name).getByText(`Delivered in ${delivery}`)).toBeInTheDocument()
    expect(card(name).getByRole('link', { name: 'Order Now' })).toHaveAttribute('href', href)
  })

  it('Conversion Bundle is Most Popular, Custom Campaign has up to 30 videos; all /start links are UGC plans', async () => {
    mockLanding()
    await renderLanding('/ugc-force')
    await pricing().findByRole('heading', { level: 3, name: 'Conversion Bundle' })
    expect(card('Conversion Bundle').getByText('Most Popular')).toBeInTheDocument()
    expect(card('Custom Campaign').getByText('Up to 30 videos')).toBeInTheDocument()
    expect(startHrefs().every((href) => /^\/start\?type=ugc&plan=(starter-clip|conversion-bundle|scaling-stack|custom-campaign)$/.test(href))).toBe(true)
    expect(screen.getAllByRole('link', { name: 'Order My Videos' }).map((a) => a.getAttribute('href'))).toEqual(
      Array(3).fill('/start?type=ugc&plan=conversion-bundle'),
    )
  })
})
