import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetCatalogueCache } from '../../features/catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockFetch, renderApp, sentBody, stubLocationAssign, type FakeResponse } from '@test/utils'

/** The catalogue, the quote and the VAT ID check as the server answers them. */
function mockShop(answers: { quote?: (body: Record<string, string>) => FakeResponse; vatId?: (body: Record<string, string>) => FakeResponse } = {}) {
  return mockFetch((method, url, init) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, string>) : {}
    if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
    if (method === 'POST' && url === '/api/billing/quote' && answers.quote) return answers.quote(body)
    if (method === 'POST' && url === '/api/tax/vat-id' && answers.vatId) return answers.vatId(body)
    if (method === 'POST' && url === '/api/billing/checkout') return { status: 200, body: { url: 'https://checkout.stripe.test/c/1' } }
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
  })
}

const option = (name: RegExp) => screen.getByRole('radio', { name })
const summary = () => screen.getByRole('region', { name: 'Your order' })
const figure = (name: string) => summary().querySelector(`[data-figure=${name}]`)

beforeEach(() => {
  resetCatalogueCache()
  window.localStorage.clear()
  window.sessionStorage.clear()
})

describe('/start with tax', () => {
  it('words the prices for the buyer type, remembers it and splits the order in the summary', async () => {
    mockShop()
    renderApp('/start?type=website&plan=professional')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    // A consumer (the catalogue's default): gross incl. the home rate.
    expect(option(/^Professional €29\/month incl\. 19\s%\sVAT$/)).toBeChecked()
    expect(figure('net')).toHaveTextContent('€24.37')
    expect(figure('vat')).toHaveTextContent('€4.63')
    expect(figure('total')).toHaveTextContent('€29.00 per month')
    expect(summary()).toHaveTextContent(/VAT \(19\s%\)/)

    await userEvent.click(screen.getByRole('radio', { name: 'as a business' }))
    expect(option(/^Professional €24\.37\/month excl\. VAT$/)).toBeChecked()
    expect(window.localStorage.getItem('agency.buyer-type')).toBe('business')
    // The previous price on the same (net) basis: €97 gross is €81.51 net.
    expect(option(/^Professional/).closest('label')?.querySelector('s')).toHaveTextContent('€81.51')

    await userEvent.click(screen.getByRole('radio', { name: 'as a consumer' }))
    expect(option(/^Professional €29\/month incl\. 19\s%\sVAT$/)).toBeChecked()
    expect(window.localStorage.getItem('agency.buyer-type')).toBe('consumer')
  })

  it('starts with the remembered buyer type, and a click changes it back', async () => {
    window.localStorage.setItem('agency.buyer-type', 'business')
    mockShop()
    renderApp('/start?type=website&plan=professional')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    await waitFor(() => expect(screen.getByRole('radio', { name: 'as a business' })).toBeChecked())
    expect(option(/^Professional €24\.37\/month excl\. VAT$/)).toBeChecked()
    await userEvent.click(screen.getByRole('radio', { name: 'as a consumer' }))
    expect(option(/^Professional €29\/month incl\. 19\s%\sVAT$/)).toBeChecked()
    expect(screen.getByRole('radio', { name: 'as a business' })).not.toBeChecked()
  })

  it('shows the quote, keeps it while a new one loads, falls back to the estimate on error, and says when VAT is calculated at payment', async () => {
    const quotes: Record<string, string>[] = []
    mockShop({
      quote: (body) => {
        quotes.push(body)
        if (body.country === 'US') return { status: 500 }
        return {
          status: 200,
          body: { currency: 'eur', net: 2437, vat: 463, gross: 2900, rate: 1900, kind: 'standard', country: body.country, note: '', vat_id_status: null, calculated_at_payment: true },
        }
      },
    })
    renderApp('/start?type=website&plan=professional')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    expect(await within(summary()).findByText('VAT is calculated at payment from your billing address.')).toBeInTheDocument()
    expect(quotes[0]).toEqual({ plan: 'professional', buyer_type: 'consumer', country: 'DE', vat_id: '' })

    // Outside the EU: the quote fails, the estimate says 0 % and the note goes.
    await userEvent.selectOptions(await screen.findByLabelText('Country'), 'US')
    await waitFor(() => expect(summary()).toHaveTextContent(/VAT \(0\s%, outside the EU\)/))
    expect(figure('total')).toHaveTextContent('€29.00 per month')
    expect(summary()).not.toHaveTextContent('VAT is calculated at payment')
  })

  it('checks a business VAT ID when the field is left and sends country and VAT ID to checkout', async () => {
    stubLocationAssign()
    const fetchMock = mockShop({
      vatId: (body) =>
        body.vat_id === 'FR40303265045'
          ? { status: 200, body: { vat_id: 'FR40303265045', country: 'FR', status: 'valid', name: 'SA SODIMAS', address: null, checked_at: '2026-11-26T10:00:00Z', message: 'Valid.' } }
          : { status: 400, body: { error: { code: 'validation_failed', message: 'Please enter a valid VAT ID, for example DE123456789.', fields: { vat_id: 'Please enter a valid VAT ID, for example DE123456789.' } } } },
      quote: (body) => ({
        status: 200,
        body:
          body.vat_id === 'FR40303265045'
            ? { currency: 'eur', net: 2900, vat: 0, gross: 2900, rate: 0, kind: 'reverse_charge', country: 'FR', note: '', vat_id_status: 'valid', calculated_at_payment: false }
            : { currency: 'eur', net: 2437, vat: 463, gross: 2900, rate: 1900, kind: 'standard', country: body.country, note: '', vat_id_status: null, calculated_at_payment: false },
      }),
    })
    renderApp('/start?type=website&plan=professional')
    await screen.findByRole('radiogroup', { name: 'Choose your package' })
    expect(screen.queryByLabelText(/VAT ID/)).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('radio', { name: 'as a business' }))
    await userEvent.selectOptions(await screen.findByLabelText('Country'), 'FR')
    const field = await screen.findByLabelText(/VAT ID/)

    await userEvent.type(field, 'DE123')
    await userEvent.tab()
    expect(await screen.findByText('Please enter a valid VAT ID, for example DE123456789.')).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')

    await userEvent.clear(field)
    await userEvent.type(field, 'FR40303265045')
    await userEvent.tab()
    expect(await screen.findByText('Valid: SA SODIMAS')).toBeInTheDocument()
    expect(field).not.toHaveAttribute('aria-invalid')
    await waitFor(() => expect(summary()).toHaveTextContent(/VAT \(Reverse charge, 0\s%\)/))
    expect(figure('vat')).toHaveTextContent('€0.00')

    await userEvent.type(screen.getByLabelText(/^Full Name/), 'Ada Lovelace')
    await userEvent.type(screen.getByLabelText(/^Email Address/), 'ada@example.eu')
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret12')
    await userEvent.click(screen.getByRole('button', { name: 'Order with obligation to pay' }))
    await waitFor(() =>
      expect(sentBody(fetchMock, '/api/billing/checkout')).toMatchObject({ buyer_type: 'business', country: 'FR', vat_id: 'FR40303265045' }),
    )
  })
})
