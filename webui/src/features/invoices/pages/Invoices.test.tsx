import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetCatalogueCache } from '../../catalogue'
import { testCatalogue } from '@test/catalogue'
import { mockSignedIn, renderApp, testUser, type FakeResponse } from '@test/utils'

const invoice = (over: object = {}) => ({
  id: 1,
  number: 'AGCY1234-0001',
  kind: 'invoice',
  status: 'paid',
  issued_at: '2026-11-03T10:00:00Z',
  currency: 'eur',
  net: 2437,
  vat: 463,
  gross: 2900,
  refunded: 0,
  tax_lines: [{ rate: 1900, net: 2437, vat: 463, kind: 'standard' }],
  buyer_type: 'consumer',
  country: 'DE',
  reverse_charge: false,
  hosted_url: 'https://invoice.stripe.test/i/1',
  pdf_url: 'https://invoice.stripe.test/i/1/pdf',
  e_invoice_url: null,
  description: 'Website Starter',
  corrects: null,
  ...over,
})

function mockBilling(invoices: () => FakeResponse) {
  return mockSignedIn(testUser, (_method, url) => {
    if (url === '/api/catalogue') return { status: 200, body: testCatalogue }
    if (url === '/api/billing/subscription') return { status: 200, body: { subscription: null } }
    if (url === '/api/billing/orders') return { status: 200, body: { orders: [] } }
    if (url === '/api/invoices') return invoices()
    return undefined
  })
}

beforeEach(() => resetCatalogueCache())

describe('/dashboard/billing: Invoices', () => {
  it('lists invoices with amount, VAT, status and links; a refund shows as such with its credit note', async () => {
    mockBilling(() => ({
      status: 200,
      body: {
        invoices: [
          invoice({
            id: 3, number: 'AGCY1234-0002-CN-01', kind: 'credit_note', status: 'issued', issued_at: '2026-11-20T09:00:00Z',
            corrects: 'AGCY1234-0002', hosted_url: null, pdf_url: 'https://invoice.stripe.test/cn/3/pdf', description: '',
          }),
          invoice({
            id: 2, number: 'AGCY1234-0002', status: 'refunded', refunded: 2900, buyer_type: 'business',
            e_invoice_url: '/api/invoices/2/e-invoice', issued_at: '2026-11-10T10:00:00Z',
          }),
          invoice({
            id: 1, number: 'AGCY1234-0001', net: 49000, vat: 0, gross: 49000, reverse_charge: true, buyer_type: 'business',
            tax_lines: [{ rate: 0, net: 49000, vat: 0, kind: 'reverse_charge' }], e_invoice_url: '/api/invoices/1/e-invoice',
          }),
        ],
      },
    }))
    renderApp('/dashboard/billing')
    const section = (await screen.findByRole('heading', { name: 'Invoices' })).closest('section') as HTMLElement
    const table = await within(section).findByRole('table')
    const headers = within(table).getAllByRole('columnheader').map((th) => th.textContent)
    expect(headers).toEqual(['Number', 'Date', 'Amount', 'VAT', 'Status', 'Documents'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows[0]).toHaveTextContent('Credit note for AGCY1234-0002')
    expect(rows[0]).toHaveTextContent('-€29.00')
    expect(within(rows[0]).getByText('Credit note')).toHaveClass('badge')
    expect(within(rows[1]).getByText('Refunded')).toHaveClass('badge--red')
    expect(rows[1]).toHaveTextContent('-€29.00 refunded')
    expect(rows[1]).toHaveTextContent('€4.63 (19 %)')
    expect(within(rows[1]).getByRole('link', { name: 'E-invoice of AGCY1234-0002' })).toHaveAttribute('href', '/api/invoices/2/e-invoice')
    expect(within(rows[1]).getByRole('link', { name: 'E-invoice PDF of AGCY1234-0002' })).toHaveAttribute('href', '/api/invoices/2/e-invoice?format=pdf')
    expect(within(rows[2]).getByText('Reverse charge')).toBeInTheDocument()
    expect(rows[2]).toHaveTextContent('€490.00')
    expect(within(rows[2]).getByRole('link', { name: 'View AGCY1234-0001' })).toHaveAttribute('href', 'https://invoice.stripe.test/i/1')
    expect(within(rows[2]).getByRole('link', { name: 'PDF of AGCY1234-0001' })).toHaveAttribute('href', 'https://invoice.stripe.test/i/1/pdf')
    expect(within(rows[0]).queryByRole('link', { name: /^View/ })).not.toBeInTheDocument()
    expect(within(rows[2]).getByText('3 November 2026')).toBeInTheDocument()
  })

  it('a consumer invoice has no e-invoice link', async () => {
    mockBilling(() => ({ status: 200, body: { invoices: [invoice()] } }))
    renderApp('/dashboard/billing')
    const row = (await screen.findByText('AGCY1234-0001')).closest('tr') as HTMLElement
    expect(within(row).getByText('Paid')).toHaveClass('badge--green')
    expect(within(row).queryByRole('link', { name: /E-invoice/ })).not.toBeInTheDocument()
  })

  it('says "No invoices yet." and shows a load error with "Try again"', async () => {
    let fail = true
    mockBilling(() => (fail ? { status: 500, body: { error: { code: 'x', message: 'Database down.' } } } : { status: 200, body: { invoices: [] } }))
    renderApp('/dashboard/billing')
    expect(await screen.findByText('We could not load your invoices.')).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('No invoices yet.')).toBeInTheDocument()
  })
})

const report = (quarter: string) => ({
  quarter,
  start: '2026-10-01',
  end: '2026-12-31',
  home_country: 'DE',
  basis: 'Invoices count in the quarter they were paid.',
  rows: [
    { currency: 'eur', country: 'AT', rate: 1900, kind: 'standard', net: 150000, vat: 28500, gross: 178500, documents: 1 },
    { currency: 'eur', country: 'FR', rate: 0, kind: 'reverse_charge', net: 50000, vat: 0, gross: 50000, documents: 1 },
  ],
  totals: [{ currency: 'eur', net: 200000, vat: 28500, gross: 228500 }],
  reverse_charge: [{ vat_id: 'FR40303265045', country: 'FR', name: 'Société Test SARL', currency: 'eur', net: 50000, documents: 1 }],
  oss: [{ country: 'AT', rate: 1900, currency: 'eur', net: 150000, vat: 28500 }],
  threshold: {
    limit: 1000000, year: 2026, current_year: 150000, previous_year: 900000, exceeded: false,
    line: 'The €10,000 EU threshold for cross-border consumer sales is not exceeded (2026: €1,500.00; 2025: €9,000.00).',
  },
  unlinked_refunds: 0,
})

describe('/dashboard/admin/vat', () => {
  afterEach(() => vi.useRealTimers())

  it('shows the quarter, its tables, the threshold and the CSV link; another quarter loads on choice', async () => {
    vi.useFakeTimers({ now: new Date(Date.UTC(2026, 10, 26)), toFake: ['Date'] })
    const asked: string[] = []
    mockSignedIn({ ...testUser, role: 'admin' }, (_method, url) => {
      if (url.startsWith('/api/admin/vat-report?')) {
        const quarter = new URL(url, 'http://x').searchParams.get('quarter') ?? ''
        asked.push(quarter)
        return { status: 200, body: report(quarter) }
      }
      return undefined
    })
    renderApp('/dashboard/admin/vat')
    expect(await screen.findByText('FR40303265045')).toBeInTheDocument()
    expect(asked).toEqual(['2026Q4'])
    expect(screen.getByText('Société Test SARL')).toBeInTheDocument()
    expect(screen.getByText(/is not exceeded \(2026: €1,500\.00; 2025: €9,000\.00\)/)).toBeInTheDocument()
    expect(screen.getAllByText('€285.00').length).toBeGreaterThanOrEqual(2)
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/admin/vat-report?quarter=2026Q4&format=csv')
    await userEvent.selectOptions(screen.getByLabelText('Quarter'), '2026Q3')
    expect(await screen.findByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/admin/vat-report?quarter=2026Q3&format=csv')
    await screen.findByText('FR40303265045')
    expect(asked).toEqual(['2026Q4', '2026Q3'])
  })

  it('is linked in the admins\' navigation', async () => {
    mockSignedIn({ ...testUser, role: 'admin' }, (_method, url) =>
      url.startsWith('/api/admin/vat-report') ? { status: 200, body: report('2026Q4') } : undefined,
    )
    renderApp('/dashboard/admin/vat')
    expect((await screen.findAllByRole('link', { name: /VAT Report/ })).length).toBeGreaterThanOrEqual(1)
  })
})
