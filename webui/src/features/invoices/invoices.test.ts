import { describe, expect, it } from 'vitest'
import { formatAmount, formatRate, invoiceStatusText, quarterLabel, quarterOf, recentQuarters, vatReportCsvUrl, vatText } from './invoices'

describe('invoice helpers', () => {
  it('writes amounts with their cents and rates in percent', () => {
    expect(formatAmount(2437)).toBe('€24.37')
    expect(formatAmount(123456700, 'EUR')).toBe('€1,234,567.00')
    expect(formatAmount(-2900)).toBe('-€29.00')
    expect(formatAmount(500, 'chf')).toBe('CHF\u00a05.00')
    expect(formatRate(1900)).toBe('19\u00a0%')
    expect(formatRate(550)).toBe('5.5\u00a0%')
    expect(formatRate(2550)).toBe('25.5\u00a0%')
  })

  it('says why an invoice has no VAT', () => {
    const line = (rate: number, vat: number, kind: string) => ({ rate, net: 1000, vat, kind })
    expect(vatText({ vat: 463, currency: 'eur', reverse_charge: false, tax_lines: [line(1900, 463, 'standard')] })).toBe('€4.63 (19\u00a0%)')
    expect(vatText({ vat: 0, currency: 'eur', reverse_charge: true, tax_lines: [line(0, 0, 'reverse_charge')] })).toBe('Reverse charge')
    expect(vatText({ vat: 0, currency: 'eur', reverse_charge: false, tax_lines: [line(0, 0, 'small_business')] })).toBe('No VAT (§ 19 UStG)')
    expect(invoiceStatusText('partially_refunded')).toBe('Partially refunded')
    expect(invoiceStatusText('issued')).toBe('Credit note')
  })

  it('counts quarters back across years', () => {
    const now = new Date(Date.UTC(2027, 1, 10))
    expect(quarterOf(now)).toBe('2027Q1')
    expect(recentQuarters(now, 3)).toEqual(['2027Q1', '2026Q4', '2026Q3'])
    expect(quarterLabel('2026Q4')).toBe('Q4 2026 (October to December)')
    expect(vatReportCsvUrl('2026Q4')).toBe('/api/admin/vat-report?quarter=2026Q4&format=csv')
  })
})
