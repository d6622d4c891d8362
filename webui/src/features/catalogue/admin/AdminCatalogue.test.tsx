import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import axe from 'axe-core'
import { describe, expect, it } from 'vitest'
import { mockSignedIn, renderApp, sentBody, testUser, type FakeResponse } from '@test/utils'
import { planChanges, parseEuros, formValuesOf, money, MSG_PRICE, MSG_PRICE_MAX, MSG_PRICE_ZERO, MSG_NAME, type AdminPlan } from './catalogue-admin'

const admin = { ...testUser, id: 2, email: 'grace@agency.example', first_name: 'Grace', last_name: 'Hopper', role: 'admin' }

const plan = (over: Partial<AdminPlan> = {}): AdminPlan => ({
  key: 'professional',
  family: 'website',
  name: 'Professional',
  description: 'A professional website.',
  price: 2900,
  currency: 'EUR',
  mode: 'subscription',
  interval: 'month',
  badge: 'popular',
  features: ['Custom domain', 'SSL'],
  delivery: '24 hours',
  guarantee: 'Cancel anytime',
  checkout: true,
  on_sale: true,
  original_price: 9700,
  stripe_product_id: 'prod_1',
  stripe_price_id: 'price_old',
  updated_at: '2026-11-20T10:00:00Z',
  history: [{ old_price: 9700, new_price: 2900, currency: 'EUR', source: 'file', changed_at: '2026-11-01T09:00:00Z' }],
  ...over,
})

const catalogue = (plans: AdminPlan[] = [plan()], payments = true) => ({
  families: [{ key: 'website', title: 'Website Development', default_plan: 'professional', plans }],
  payments_configured: payments,
})

const URL_GET = '/api/admin/catalogue'
const URL_PATCH = '/api/admin/catalogue/plans/professional'

function mockAdmin(handler: (method: string, url: string, init: RequestInit) => FakeResponse | undefined) {
  return mockSignedIn(admin, handler)
}

async function openCard() {
  renderApp('/dashboard/admin/catalogue')
  const heading = await screen.findByRole('heading', { name: 'Professional', level: 3 })
  return heading.closest('.catalogue-plan') as HTMLElement
}

describe('/dashboard/admin/catalogue', () => {
  it('lists the families and plans with price, badge, delivery, guarantee, Stripe price and history', async () => {
    mockAdmin((_m, url) => (url === URL_GET ? { status: 200, body: catalogue([plan(), plan({ key: 'starter', name: 'Starter', price: 1900, badge: null, on_sale: false, original_price: null, history: [], stripe_price_id: null })]) } : undefined))
    const card = await openCard()
    expect(screen.getByRole('heading', { name: 'Website Development', level: 2 })).toBeInTheDocument()
    expect(screen.getByText('2 plans, 1 on sale')).toBeInTheDocument()
    expect(card).toHaveTextContent('€29.00 per month')
    expect(card).toHaveTextContent('(previous price €97.00)')
    expect(within(card).getByText('On sale')).toHaveClass('badge--green')
    expect(within(card).getByText('Most popular')).toBeInTheDocument()
    expect(within(card).getByText('24 hours')).toBeInTheDocument()
    expect(within(card).getByText('Cancel anytime')).toBeInTheDocument()
    expect(within(card).getByText('price_old')).toBeInTheDocument()
    await userEvent.click(within(card).getByText('Price history (1 change)'))
    const table = within(card).getByRole('table', { name: /Price history of Professional/ })
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('€97.00€29.00Catalogue file (previous price)')

    const starter = screen.getByRole('heading', { name: 'Starter', level: 3 }).closest('.catalogue-plan') as HTMLElement
    expect(within(starter).getByText('Hidden')).toHaveClass('badge--grey')
    expect(within(starter).getByRole('button', { name: 'Put back on sale' })).toBeInTheDocument()
    expect(starter).toHaveTextContent('Not made yet (agency stripe sync)')
    expect(starter).toHaveTextContent('No price changes recorded.')
    const results = await axe.run(document.body, { rules: { region: { enabled: false } } })
    expect(results.violations.map((v) => v.id)).toEqual([])
  })

  it('changes a price after a confirmation saying subscribers keep theirs, and shows the answer', async () => {
    const updated = plan({
      price: 2400,
      original_price: 2900,
      stripe_price_id: 'price_new',
      history: [{ old_price: 2900, new_price: 2400, currency: 'EUR', source: 'admin', changed_at: '2026-11-26T21:00:00Z' }, ...plan().history],
    })
    const fetchMock = mockAdmin((method, url) => {
      if (url === URL_GET) return { status: 200, body: catalogue() }
      if (url === URL_PATCH && method === 'PATCH')
        return { status: 200, body: { plan: updated, changed: ['price'], stripe: 'created', warning: null, message: 'Saved. Professional now costs €24.00: Stripe price price_new created and price_old archived. Existing subscribers keep their current price.' } }
      return undefined
    })
    const card = await openCard()
    await userEvent.click(within(card).getByRole('button', { name: 'Edit Professional' }))
    const price = within(card).getByLabelText('Price in euros')
    expect(within(card).getByLabelText(/^Name/)).toHaveFocus()
    await userEvent.clear(price)
    await userEvent.type(price, '24{Enter}')
    const question = within(card).getByRole('group', { name: 'Change the price of Professional?' })
    expect(within(question).getByRole('heading')).toHaveFocus()
    expect(question).toHaveTextContent('From €29.00 per month to €24.00 per month. Existing subscribers keep their current price; new orders pay the new one.')
    expect(question).toHaveTextContent('shown struck through as the previous price')
    expect(question).toHaveTextContent('A new Stripe price is created and the old one archived.')
    expect(fetchMock.mock.calls.some(([u]) => u === URL_PATCH)).toBe(false)
    await userEvent.click(within(question).getByRole('button', { name: 'Change the price' }))
    expect(await within(card).findByRole('status')).toHaveTextContent('Existing subscribers keep their current price.')
    expect(sentBody(fetchMock, URL_PATCH)).toEqual({ price: 2400 })
    expect(card).toHaveTextContent('€24.00 per month')
    expect(card).toHaveTextContent('price_new')
    expect(within(card).getByRole('button', { name: 'Edit Professional' })).toHaveFocus()
    expect(within(card).getByText('Price history (2 changes)')).toBeInTheDocument()
  })

  it('sends only the texts that changed, without a price question', async () => {
    const fetchMock = mockAdmin((_method, url) => {
      if (url === URL_GET) return { status: 200, body: catalogue() }
      if (url === URL_PATCH) return { status: 200, body: { plan: plan({ badge: null, delivery: '48 hours' }), changed: ['badge', 'delivery'], stripe: 'none', warning: null, message: 'Saved.' } }
      return undefined
    })
    const card = await openCard()
    await userEvent.click(within(card).getByRole('button', { name: 'Edit Professional' }))
    await userEvent.selectOptions(within(card).getByLabelText('Badge'), 'None')
    const delivery = within(card).getByLabelText('Delivery')
    await userEvent.clear(delivery)
    await userEvent.type(delivery, '48 hours')
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }))
    expect(await within(card).findByRole('status')).toHaveTextContent('Saved.')
    expect(sentBody(fetchMock, URL_PATCH)).toEqual({ badge: null, delivery: '48 hours' })
    expect(within(card).getByText('48 hours')).toBeInTheDocument()
  })

  it('checks the form as the server does and shows the server\'s field messages', async () => {
    mockAdmin((_m, url) => {
      if (url === URL_GET) return { status: 200, body: catalogue([plan()], false) }
      if (url === URL_PATCH)
        return { status: 502, body: { error: { code: 'stripe_error', message: 'Stripe did not accept the new price (No such product). Nothing was changed.' } } }
      return undefined
    })
    const card = await openCard()
    expect(screen.getByRole('note')).toHaveTextContent('Payments are not set up')
    await userEvent.click(within(card).getByRole('button', { name: 'Edit Professional' }))
    const price = within(card).getByLabelText('Price in euros')
    await userEvent.clear(price)
    await userEvent.type(price, '29.999')
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }))
    expect(within(card).getByRole('alert')).toHaveTextContent(MSG_PRICE)
    expect(price).toHaveAttribute('aria-invalid', 'true')
    await userEvent.clear(price)
    await userEvent.type(price, '19')
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }))
    const question = within(card).getByRole('group', { name: 'Change the price of Professional?' })
    expect(question).toHaveTextContent('Payments are not set up: agency stripe sync creates the Stripe price later.')
    await userEvent.click(within(question).getByRole('button', { name: 'Change the price' }))
    expect(await within(card).findByRole('alert')).toHaveTextContent('Stripe did not accept the new price (No such product). Nothing was changed.')
    expect(within(card).getByRole('button', { name: 'Save' })).toBeInTheDocument()
    expect(card).toHaveTextContent('€29.00 per month')
  })

  it('hides a plan after a question and puts it back on sale', async () => {
    let onSale = true
    const fetchMock = mockAdmin((_method, url, init) => {
      if (url === URL_GET) return { status: 200, body: catalogue() }
      if (url === URL_PATCH) {
        onSale = (JSON.parse(String(init.body)) as { on_sale: boolean }).on_sale
        return { status: 200, body: { plan: plan({ on_sale: onSale }), changed: ['on_sale'], stripe: 'none', warning: null, message: 'Saved.' } }
      }
      return undefined
    })
    const card = await openCard()
    await userEvent.click(within(card).getByRole('button', { name: 'Hide from sale' }))
    const question = within(card).getByRole('group', { name: 'Hide Professional from sale?' })
    expect(question).toHaveTextContent('Existing customers keep their subscriptions and orders')
    await userEvent.click(within(question).getByRole('button', { name: 'Keep on sale' }))
    expect(fetchMock.mock.calls.some(([u]) => u === URL_PATCH)).toBe(false)
    await userEvent.click(within(card).getByRole('button', { name: 'Hide from sale' }))
    await userEvent.click(within(card).getByRole('button', { name: 'Hide from sale' }))
    expect(await within(card).findByText('Hidden')).toHaveClass('badge--grey')
    expect(sentBody(fetchMock, URL_PATCH)).toEqual({ on_sale: false })
    await userEvent.click(within(card).getByRole('button', { name: 'Put back on sale' }))
    expect(await within(card).findByText('On sale')).toHaveClass('badge--green')
    expect(onSale).toBe(true)
  })

  it('says so when the catalogue is empty, and offers "Try again" after a failed load', async () => {
    let fail = true
    mockAdmin((_m, url) =>
      url === URL_GET ? (fail ? { status: 500, body: { error: { code: 'x', message: 'Database down.' } } } : { status: 200, body: { families: [], payments_configured: true } }) : undefined,
    )
    renderApp('/dashboard/admin/catalogue')
    expect(await screen.findByText('We could not load the catalogue.')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('The catalogue is empty.')).toBeInTheDocument()
  })
})

describe('the plan form\'s checks (the server\'s rules)', () => {
  it('reads euros as the server\'s parse_price does', () => {
    expect(parseEuros('29')).toEqual({ cents: 2900 })
    expect(parseEuros('29.9')).toEqual({ cents: 2990 })
    expect(parseEuros('29,90')).toEqual({ cents: 2990 })
    expect(parseEuros(' € 1999 ')).toEqual({ cents: 199900 })
    expect(parseEuros('1999€')).toEqual({ cents: 199900 })
    expect(parseEuros('999999.99')).toEqual({ cents: 99_999_999 })
    expect(parseEuros('1000000')).toEqual({ error: MSG_PRICE_MAX })
    expect(parseEuros('0')).toEqual({ error: MSG_PRICE_ZERO })
    for (const bad of ['', 'cheap', '29.999', '-5', '1,999.00', '1e3', '29.']) expect(parseEuros(bad)).toEqual({ error: MSG_PRICE })
  })

  it('writes money with its cents', () => {
    expect([money(2900), money(2950), money(199900), money(99_999_999), money(5)]).toEqual(['€29.00', '€29.50', '€1,999.00', '€999,999.99', '€0.05'])
  })

  it('reads back every price it writes (every cent amount up to the limit)', () => {
    for (let cents = 1; cents < 100_000; cents += 97) {
      const text = formValuesOf(plan({ price: cents })).price
      expect(parseEuros(text)).toEqual({ cents })
    }
  })

  it('asks only for what changed, and names each bad field', () => {
    const p = plan()
    expect(planChanges(p, formValuesOf(p))).toEqual({ changes: {} })
    expect(planChanges(p, { ...formValuesOf(p), guarantee: '  ', features: 'SSL\n\n Custom domain ' })).toEqual({
      changes: { guarantee: null, features: ['SSL', 'Custom domain'] },
    })
    const bad = planChanges(p, { ...formValuesOf(p), name: ' ', delivery: 'd'.repeat(51), features: Array(21).fill('f').join('\n') })
    expect(bad).toEqual({
      problem: {
        message: MSG_NAME,
        fields: { name: MSG_NAME, delivery: 'The delivery promise can be at most 50 characters.', features: 'A plan can list at most 20 features.' },
      },
    })
  })
})
