import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetCatalogueCache } from './catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockFetch, mockSignedIn, renderApp, testUser } from '@test/utils'

const pricing = () => within(document.getElementById('pricing') as HTMLElement)

beforeEach(() => resetCatalogueCache())

describe('home #pricing', () => {
  it('shows the website plans from the catalogue', async () => {
    mockFetch((_m, url) => (url === '/api/catalogue' ? { status: 200, body: testCatalogue } : { status: 404 }))
    renderApp('/')
    await screen.findByRole('heading', { level: 1, name: 'Your Website. Live in 24 Hours.' })
    expect(pricing().getByRole('heading', { level: 2, name: 'Simple monthly plans' })).toBeInTheDocument()
    expect(await pricing().findByRole('heading', { level: 3, name: 'Professional' })).toBeInTheDocument()
    const card = (name: string) => within(pricing().getByRole('heading', { level: 3, name }).closest('.price-card') as HTMLElement)
    expect(card('Professional').getByText('Most Popular')).toBeInTheDocument()
    expect(card('Professional').getByText('€29')).toBeInTheDocument()
    expect(card('Professional').getByText('/month')).toBeInTheDocument()
    expect(card('Professional').getByText('Save 70%')).toBeInTheDocument()
    expect(card('Starter').getByText('€19')).toBeInTheDocument()
    expect(card('Premium').getByText('€499')).toBeInTheDocument()
    expect(card('Premium').getByText('Save 80%')).toBeInTheDocument()
    expect(card('Starter').getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/start?type=website&plan=starter')
    expect(pricing().getAllByText('Launch pricing').some((el) => el.classList.contains('badge'))).toBe(true)
    expect(pricing().queryByRole('button', { name: 'Current Plan' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Get Started Now' })).toHaveAttribute('href', '/start')
    expect(screen.getByRole('link', { name: 'View Plans' })).toHaveAttribute('href', '/#pricing')
  })

  it('shows a disabled "Current Plan" button for the subscribed plan', async () => {
    mockSignedIn(testUser, (_m, url) => {
      if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
      if (url === '/api/billing/subscription')
        return {
          status: 200,
          body: { subscription: { subscription_status: 'active', price_id: 'price_professional', plan_key: 'professional', plan_name: 'Professional', current_period_end: null, cancel_at_period_end: false, payment_method_brand: null, payment_method_last4: null } },
        }
      return undefined
    })
    renderApp('/')
    const current = await pricing().findByRole('button', { name: 'Current Plan' })
    expect(current).toBeDisabled()
    expect(current.closest('.price-card')).toHaveTextContent('Professional')
    expect(pricing().getAllByRole('link', { name: 'Get Started' })).toHaveLength(2)
  })
})
