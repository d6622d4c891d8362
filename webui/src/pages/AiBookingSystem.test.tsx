import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { mockLanding, renderLanding, startHrefs } from '@test/landing'
import { resetCatalogueCache } from '../features/catalogue'

beforeEach(() => resetCatalogueCache())

const pricing = () => within(document.getElementById('pricing') as HTMLElement)
const card = (name: string) => within(pricing().getByRole('heading', { level: 3, name }).closest('.price-card') as HTMLElement)

describe('/ai-booking-system', () => {
  it('has one h1, a 60-day guarantee and an ROI note from the catalogue', async () => {
    mockLanding()
    expect(await renderLanding('/ai-booking-system')).toHaveTextContent('Your Clinic Books Itself, Around the Clock')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(screen.getByRole('heading', { level: 2, name: '60-day money-back guarantee' })).toBeInTheDocument()
    expect(
      await screen.findByText('Example: at €80 per appointment, AI Booking Pro (€299 one-time) pays for itself after 4 recovered appointments.'),
    ).toBeInTheDocument()
  })

  it.each([
    ['AI Booking Starter', '€149', 'one-time', '/start?type=ai-booking&plan=ai-booking-starter'],
    ['AI Booking Pro', '€299', 'one-time', '/start?type=ai-booking&plan=ai-booking-pro'],
    ['AI Booking Premium', '€49', '/month', '/start?type=ai-booking&plan=ai-booking-premium'],
  ])('%s: %s %s, links to %s', async (name, price, suffix, href) => {
    mockLanding()
    await renderLanding('/ai-booking-system')
    expect(await pricing().findByRole('heading', { level: 3, name })).toBeInTheDocument()
    expect(card(name).getByText(price)).toBeInTheDocument()
    expect(card(name).getByText(suffix)).toBeInTheDocument()
    expect(card(name).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', href)
  })

  it.each([
    ['Start My AI Booking System', '/start?type=ai-booking&plan=ai-booking-pro'],
    ['Start My AI Booking', '/start?type=ai-booking&plan=ai-booking-pro'],
    ['Start With a Demo', '/start?type=ai-booking'],
  ])('"%s" goes to %s', async (name, href) => {
    mockLanding()
    await renderLanding('/ai-booking-system')
    expect(screen.getByRole('link', { name })).toHaveAttribute('href', href)
  })

  it('the demo section links to /start and submits nothing', async () => {
    const fetch = mockLanding()
    await renderLanding('/ai-booking-system')
    const demo = within(document.getElementById('demo') as HTMLElement)
    expect(demo.queryByRole('button')).not.toBeInTheDocument()
    expect(demo.getByRole('link', { name: 'Start With a Demo' })).toHaveAttribute('href', '/start?type=ai-booking')
    expect(fetch.mock.calls.some(([url]) => url === '/api/leads')).toBe(false)
    expect(startHrefs().every((href) => href.startsWith('/start?type=ai-booking'))).toBe(true)
  })
})
