import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'
import { resetSiteConfigForTests } from '../lib/site-config'

beforeEach(() => resetCatalogueCache())

const pricing = () => within(document.getElementById('pricing') as HTMLElement)
const card = (name: string) => within(pricing().getByRole('heading', { level: 3, name }).closest('.price-card') as HTMLElement)

afterEach(() => {
  document.head.querySelectorAll('meta[name="agency-site"]').forEach((meta) => meta.remove())
  resetSiteConfigForTests()
})

/** The page as the server sends it with a sample video configured. */
function withSampleVideo(src: string, poster: string, captions = '') {
  const meta = document.createElement('meta')
  meta.name = 'agency-site'
  meta.content = JSON.stringify({ ugcSampleVideo: { src, poster, captions } })
  document.head.append(meta)
  resetSiteConfigForTests()
}

describe('/ugc-force sample video', () => {
  it('shows the configured video with its poster, fetched only on play', async () => {
    mockLanding()
    withSampleVideo('/media/ugc-sample.mp4', '/media/ugc-sample.webp', '/media/ugc-sample.vtt')
    await renderLanding('/ugc-force')
    const video = (await screen.findByLabelText('Sample UGC video')) as HTMLVideoElement
    expect(video.tagName).toBe('VIDEO')
    expect(video).toHaveAttribute('preload', 'none')
    expect(video).toHaveAttribute('poster', '/media/ugc-sample.webp')
    expect(video).toHaveAttribute('controls')
    expect(video.querySelector('source')).toHaveAttribute('src', '/media/ugc-sample.mp4')
    expect(video.querySelector('source')).toHaveAttribute('type', 'video/mp4')
    expect(video.querySelector('track')).toHaveAttribute('src', '/media/ugc-sample.vtt')
    expect(video.closest('[aria-hidden="true"]')).toBeNull()
    expect(document.querySelector('.phone-mock__play')).toBeNull()
  })

  it('shows the phone frame when no video is configured', async () => {
    mockLanding()
    await renderLanding('/ugc-force')
    expect(document.querySelector('.phone-mock__play')).not.toBeNull()
    expect(document.querySelector('video')).toBeNull()
  })
})

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
