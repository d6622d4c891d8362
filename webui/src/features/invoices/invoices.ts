/**
 * The customer's invoices (GET /api/invoices) and the admins' VAT report
 * (GET /api/admin/vat-report): the calls, and how amounts, rates, statuses and quarters read.
 * Dashboard code only: public pages never import this.
 */
import { api, buildUrl, type ResponseBody } from '../../lib/api-client'

export type InvoiceList = ResponseBody<'/api/invoices', 'get'>
export type Invoice = InvoiceList['invoices'][number]
export type VatReport = ResponseBody<'/api/admin/vat-report', 'get'>

export const VAT_REPORT_PATH = '/api/admin/vat-report'

export const fetchInvoices = (): Promise<InvoiceList> => api.get('/api/invoices')
export const fetchVatReport = (quarter: string): Promise<VatReport> => api.get(VAT_REPORT_PATH, { query: { quarter } })
export const vatReportCsvUrl = (quarter: string): string => buildUrl(VAT_REPORT_PATH, { query: { quarter, format: 'csv' } })

const SYMBOLS: Readonly<Record<string, string>> = { EUR: '€', USD: 'US$', GBP: '£' }

/** An invoice amount in cents, always with its cents: "€24.37", "-€1,234.00", "CHF 5.00". */
export function formatAmount(cents: number, currency = 'eur'): string {
  const code = currency.toUpperCase()
  const symbol = SYMBOLS[code] ?? `${code}\u00a0`
  const magnitude = Math.abs(Math.round(cents))
  const units = Math.floor(magnitude / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const rest = (magnitude % 100).toString().padStart(2, '0')
  return `${cents < 0 ? '-' : ''}${symbol}${units}.${rest}`
}

/** A rate in basis points: 1900 -> "19 %", 550 -> "5.5 %", 2550 -> "25.5 %". */
export function formatRate(rate: number): string {
  return `${(rate / 100).toString()}\u00a0%`
}

const STATUS: Readonly<Record<string, string>> = {
  paid: 'Paid',
  open: 'Open',
  void: 'Void',
  uncollectible: 'Uncollectible',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
  issued: 'Credit note',
  draft: 'Draft',
}

export function invoiceStatusText(status: string): string {
  return STATUS[status] ?? status.replace(/_/g, ' ')
}

export type Tone = 'green' | 'yellow' | 'grey' | 'red'

export function invoiceStatusTone(status: string): Tone {
  if (status === 'paid') return 'green'
  if (status === 'open' || status === 'partially_refunded') return 'yellow'
  if (status === 'refunded' || status === 'uncollectible') return 'red'
  return 'grey'
}

/** What the VAT column says: the amount, or why there is none. */
export function vatText(invoice: Pick<Invoice, 'vat' | 'currency' | 'tax_lines' | 'reverse_charge'>): string {
  if (invoice.reverse_charge) return 'Reverse charge'
  if (invoice.vat === 0 && invoice.tax_lines.some((line) => line.kind === 'small_business')) return 'No VAT (§ 19 UStG)'
  const rates = [...new Set(invoice.tax_lines.filter((line) => line.vat !== 0).map((line) => line.rate))]
  const amount = formatAmount(invoice.vat, invoice.currency)
  return rates.length === 1 ? `${amount} (${formatRate(rates[0])})` : amount
}

let dayFormat: Intl.DateTimeFormat | null = null

/** "3 November 2026" (UTC, as the invoice's date). */
export function formatDay(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  dayFormat ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
  return dayFormat.format(date)
}

/** "2026Q4" for a date (UTC). */
export function quarterOf(date: Date): string {
  return `${date.getUTCFullYear()}Q${Math.floor(date.getUTCMonth() / 3) + 1}`
}

/** The last `count` quarters, newest first: ["2026Q4", "2026Q3", ...]. */
export function recentQuarters(now: Date, count = 8): string[] {
  const out: string[] = []
  let year = now.getUTCFullYear()
  let quarter = Math.floor(now.getUTCMonth() / 3) + 1
  for (let i = 0; i < count; i += 1) {
    out.push(`${year}Q${quarter}`)
    quarter -= 1
    if (quarter === 0) {
      quarter = 4
      year -= 1
    }
  }
  return out
}

/** "2026Q4" -> "Q4 2026 (October to December)". */
export function quarterLabel(quarter: string): string {
  const found = /^(\d{4})Q([1-4])$/.exec(quarter)
  if (!found) return quarter
  const months = [
    ['January', 'March'],
    ['April', 'June'],
    ['July', 'September'],
    ['October', 'December'],
  ][Number(found[2]) - 1]
  return `Q${found[2]} ${found[1]} (${months[0]} to ${months[1]})`
}

const KINDS: Readonly<Record<string, string>> = {
  standard: 'Standard',
  reverse_charge: 'Reverse charge',
  small_business: 'Small business (§ 19 UStG)',
  outside_eu: 'Outside the EU',
  zero: '0 % (other)',
}

export function kindText(kind: string): string {
  return KINDS[kind] ?? kind
}
