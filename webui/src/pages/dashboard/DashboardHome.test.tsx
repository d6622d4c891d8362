import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetCatalogueCache } from '../../features/catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockSignedIn, renderApp, testUser } from '@test/utils'

// 22 December 2026, 12:00 UTC.
const PERIOD_END = Date.UTC(2026, 11, 22, 12) / 1000

const activeSubscription = {
  subscription_status: 'active',
  price_id: 'price_professional',
  plan_key: 'professional',
  plan_name: null,
  current_period_end: PERIOD_END,
  cancel_at_period_end: false,
  payment_method_brand: 'visa',
  payment_method_last4: '4242',
}

const websites = [
  { id: 7, domain: 'adas-bakery.eu', page_speed: 98, status: 'live', created_at: '2026-02-01T10:00:00Z' },
  { id: 6, domain: 'new-shop.eu', page_speed: null, status: 'building', created_at: '2026-01-01T10:00:00Z' },
  { id: 5, domain: 'old.eu', page_speed: 41, status: 'paused', created_at: '2025-12-01T10:00:00Z' },
]

function mockDashboard(subscription: object | null, sites: object[] = [], user: object = testUser) {
  return mockSignedIn(user, (_method, url) => {
    if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
    if (url === '/api/billing/subscription') return { status: 200, body: { subscription } }
    if (url === '/api/sites') return { status: 200, body: { websites: sites } }
    return undefined
  })
}

beforeEach(() => resetCatalogueCache())

describe('/dashboard home', () => {
  it('offers the three services with catalogue prices when there is no active subscription', async () => {
    mockDashboard(null)
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 2, name: 'Choose Your Service' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back, Ada' })).toBeInTheDocument()
    const card = (title: string) => within(screen.getByRole('heading', { level: 3, name: title }).closest('.choice-card') as HTMLElement)

    const web = card('Website Services')
    expect(web.getByText('Starter')).toBeInTheDocument()
    expect(web.getByText('€29')).toBeInTheDocument()
    expect(web.getByText('€499')).toBeInTheDocument()
    expect(web.getAllByText('/month')).toHaveLength(3)
    expect(web.getByRole('link', { name: 'Choose a Website Plan' })).toHaveAttribute('href', '/start?type=website&plan=professional')

    const ai = card('AI Automation')
    expect(ai.getByText('Starter AI')).toBeInTheDocument()
    expect(ai.getByText('1 AI system setup.')).toBeInTheDocument()
    expect(ai.getByText('3 automations plus integrations.')).toBeInTheDocument()
    expect(ai.getByText('€1,999')).toBeInTheDocument()
    // One-time packages say so after the amount, as everywhere else ("€499 one-time").
    expect(ai.getByText('€1,999').closest('.choice-plan__price')).toHaveTextContent(/^€1,999 one-time$/)
    expect(ai.getAllByText('one-time')).toHaveLength(3)
    expect(ai.queryByText('/month')).not.toBeInTheDocument()
    expect(ai.getByRole('link', { name: 'Choose an AI Package' })).toHaveAttribute('href', '/start?type=ai&plan=pro-ai')

    const ugc = card('UGC Content')
    for (const name of ['Starter Clip', 'Conversion Bundle', 'Scaling Stack', 'Custom Campaign']) expect(ugc.getByText(name)).toBeInTheDocument()
    expect(ugc.getByRole('link', { name: 'Choose a UGC Package' })).toHaveAttribute('href', '/start?type=ugc&plan=conversion-bundle')

    expect(screen.getAllByText('Popular')).toHaveLength(3)
    // Each package's own promises from the catalogue, no blanket guarantee over all of them.
    expect(ai.getAllByText('Delivery in 7 days · 30-day money-back guarantee').length).toBeGreaterThan(0)
    expect(card('Website Services').getAllByText('Delivery in 24 hours · Cancel anytime')).toHaveLength(3)
    expect(ugc.getByText('Delivery in 48 hours')).toBeInTheDocument()
    expect(screen.queryByText(/Every package comes with/)).not.toBeInTheDocument()
    // No websites and no subscription: no "Your Websites" section, no New Website button.
    expect(screen.queryByRole('heading', { name: 'Your Websites' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'New Website' })).not.toBeInTheDocument()
  })

  it('still lists websites below the choice cards without an active subscription', async () => {
    mockDashboard({ ...activeSubscription, subscription_status: 'canceled' }, websites.slice(0, 1))
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 2, name: 'Choose Your Service' })
    expect(screen.getByRole('heading', { level: 2, name: 'Your Websites' })).toBeInTheDocument()
    expect(screen.getByText('adas-bakery.eu')).toBeInTheDocument()
  })

  it('shows the current plan and the websites with an active subscription', async () => {
    mockDashboard(activeSubscription, websites)
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 2, name: 'Current Plan' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Choose Your Service' })).not.toBeInTheDocument()
    // A subscriber's New Website says first that it starts a second subscription.
    const newSite = screen.getByRole('button', { name: 'New Website' })
    expect(newSite).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(newSite)
    const note = screen.getByRole('group', { name: 'A new website' })
    expect(note).toHaveTextContent('a new website starts a second subscription with its own monthly payment, next to your Professional subscription')
    expect(within(note).getByRole('link', { name: 'See website plans' })).toHaveAttribute('href', '/start?type=website')
    await userEvent.click(within(note).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('group', { name: 'A new website' })).not.toBeInTheDocument()
    expect(screen.getByText('Active subscription')).toBeInTheDocument()
    // Named from the catalogue by price id (the API gave no name).
    expect(screen.getByText('Professional')).toBeInTheDocument()
    expect(screen.getByText('22 December 2026')).toBeInTheDocument()
    expect(screen.getByText('Visa •••• 4242')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Manage subscription' })).toHaveAttribute('href', '/dashboard/billing')

    const site = (domain: string) => within(screen.getByRole('heading', { level: 3, name: domain }).closest('article') as HTMLElement)
    const live = site('adas-bakery.eu')
    expect(live.getByText('LIVE')).toHaveClass('badge--green')
    expect(live.getByRole('progressbar')).toHaveAttribute('value', '98')
    expect(live.getByText('98')).toBeInTheDocument()
    expect(live.getByRole('link', { name: /View details/ })).toHaveAttribute('href', '/dashboard/websites/7')

    const building = site('new-shop.eu')
    expect(building.getByText('BUILDING')).toHaveClass('badge--yellow')
    expect(building.getByText('N/A')).toBeInTheDocument()

    expect(site('old.eu').getByText('PAUSED')).toHaveClass('badge--grey')
    await userEvent.click(screen.getByRole('button', { name: 'Create a new website' }))
    expect(screen.getByRole('group', { name: 'A new website' })).toHaveTextContent('starts a second subscription')
  })

  it('says N/A without a period end, greets without a name (no "there") and shows the API plan name', async () => {
    mockDashboard(
      { ...activeSubscription, plan_name: 'Premium', current_period_end: null },
      [],
      { ...testUser, first_name: null },
    )
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument()
    expect(screen.queryByText(/there/)).not.toBeInTheDocument()
    await screen.findByRole('heading', { level: 2, name: 'Current Plan' })
    expect(screen.getByText('Premium')).toBeInTheDocument()
    expect(screen.getByText('N/A')).toBeInTheDocument()
  })

  it('greets a new account (a first-time buyer) "Welcome", not "Welcome back"', async () => {
    mockDashboard(activeSubscription, [], { ...testUser, created_at: new Date(Date.now() - 60_000).toISOString() })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeInTheDocument()
  })

  it('shows a load failure in a red box', async () => {
    mockSignedIn(testUser, (_m, url) =>
      url === '/api/billing/subscription'
        ? { status: 500, body: { error: { code: 'boom', message: 'Billing is down.' } } }
        : url === '/api/sites'
          ? { status: 200, body: { websites: [] } }
          : url === '/api/catalogue'
            ? { status: 200, body: testCatalogue }
            : undefined,
    )
    renderApp('/dashboard')
    expect(await screen.findByRole('alert')).toHaveTextContent('Billing is down.')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})
