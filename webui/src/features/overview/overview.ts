/**
 * The admins' overview (GET /api/admin/overview): the call, the periods, how figures read
 * (money, changes, hours, days) and the CSV files of its tables. Dashboard code only, loaded
 * with the overview's own chunk (admins): public pages never import this.
 */
import { api, type ResponseBody } from '../../lib/api-client'
import { formatCents, formatNumber } from '../../lib/money'

// ---- The answer (OverviewOut in the server's OpenAPI document) ----------------------------------

export type Overview = ResponseBody<'/api/admin/overview', 'get'>
export type Compared = Overview['cards']['mrr']
export type OverviewPeriod = Overview['period']
export type FailedPayment = Overview['failed_payments'][number]
export type PastDue = Overview['past_due'][number]
export type Definitions = Overview['definitions']

export const OVERVIEW_PATH = '/api/admin/overview' as const

// ---- Periods ---------------------------------------------------------------------------------

export const PERIODS = [
  { key: 'this_month', label: 'This month' },
  { key: 'last_month', label: 'Last month' },
  { key: 'last_30_days', label: 'Last 30 days' },
  { key: 'this_quarter', label: 'This quarter' },
  { key: 'last_quarter', label: 'Last quarter' },
  { key: 'custom', label: 'Custom range' },
] as const

export type PeriodKey = (typeof PERIODS)[number]['key']

export const DEFAULT_PERIOD: PeriodKey = 'this_month'

/** The period asked for, as the address keeps it (`?period=&start=&end=`). */
export interface PeriodChoice {
  period: PeriodKey
  /** YYYY-MM-DD, only for `custom`. */
  start: string
  end: string
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

function isPeriodKey(value: string | null): value is PeriodKey {
  return PERIODS.some((p) => p.key === value)
}

/** The period in the address; an unknown one reads as this month, a custom range keeps its dates as written. */
export function periodFromParams(params: URLSearchParams): PeriodChoice {
  const key = params.get('period')
  const period = isPeriodKey(key) ? key : DEFAULT_PERIOD
  if (period !== 'custom') return { period, start: '', end: '' }
  return { period, start: params.get('start') ?? '', end: params.get('end') ?? '' }
}

/** The address's query for a period (this month: none). */
export function periodParams(choice: PeriodChoice): Record<string, string> {
  if (choice.period === DEFAULT_PERIOD) return {}
  if (choice.period !== 'custom') return { period: choice.period }
  return { period: 'custom', start: choice.start, end: choice.end }
}

/** Why a custom range cannot be asked for, or null when it can (the server checks the rest). */
export function rangeProblem(start: string, end: string): string | null {
  if (!DAY.test(start) || !DAY.test(end)) return 'Choose a first and a last day.'
  if (end < start) return 'The last day must not be before the first day.'
  return null
}

export function overviewKey(choice: PeriodChoice): string {
  return `overview|${choice.period}|${choice.start}|${choice.end}`
}

/** The query for a period: its key, and the days of a custom range. */
export function overviewQuery(choice: PeriodChoice): { period: string; start?: string; end?: string } {
  return choice.period === 'custom' ? { period: 'custom', start: choice.start, end: choice.end } : { period: choice.period }
}

export function fetchOverview(choice: PeriodChoice): Promise<Overview> {
  return api.get(OVERVIEW_PATH, { query: overviewQuery(choice) })
}

// ---- How figures read ------------------------------------------------------------------------

/** Money in cents as the pages write it: "€3,487", "€24.50", "-€30". */
export function money(cents: number, currency = 'EUR'): string {
  return formatCents(cents, currency)
}

/** A count: "1,234". */
export function count(value: number): string {
  return formatNumber(value, 0)
}

/** A share of `whole`: "12.5%", or "—" without a whole. */
export function percentOf(part: number, whole: number): string {
  if (whole <= 0) return '—'
  return `${formatNumber((part / whole) * 100, 1)}%`
}

/** Hours as a person reads them: "45 min", "2.5 h", "3.2 days"; "—" without a value. */
export function hours(value: number | null): string {
  if (value === null) return '—'
  if (value < 1) return `${formatNumber(value * 60, 0)} min`
  if (value < 48) return `${formatNumber(value, 1)} h`
  return `${formatNumber(value / 24, 1)} days`
}

export type Direction = 'up' | 'down' | 'same' | 'new'

export interface Change {
  direction: Direction
  /** "Up 12.5%", "Down 3%", "No change", "New". */
  text: string
}

/** How `current` compares with `previous`, in words (the arrow only repeats it). */
export function change(current: number, previous: number): Change {
  if (current === previous) return { direction: 'same', text: 'No change' }
  if (previous === 0) return { direction: 'new', text: current > 0 ? 'Up from zero' : 'Down from zero' }
  const ratio = ((current - previous) / Math.abs(previous)) * 100
  const shown = formatNumber(Math.abs(ratio), Math.abs(ratio) < 10 ? 1 : 0)
  return current > previous ? { direction: 'up', text: `Up ${shown}%` } : { direction: 'down', text: `Down ${shown}%` }
}

export const ARROWS: Readonly<Record<Direction, string>> = { up: '↑', down: '↓', same: '→', new: '↑' }

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "2026-11-03" -> "3 Nov"; with the year: "3 Nov 2026". */
export function shortDay(day: string, withYear = false): string {
  const found = /^(\d{4})-(\d{2})-(\d{2})/.exec(day)
  if (!found) return day
  const text = `${Number(found[3])} ${MONTHS[Number(found[2]) - 1]}`
  return withYear ? `${text} ${found[1]}` : text
}

/** An ISO time as "20 Nov 2026, 09:15 UTC". */
export function dayTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const pad = (n: number) => n.toString().padStart(2, '0')
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`
}

/**
 * True for the figures of a new install: no money, lead, checkout, free-tool run, website or
 * support request counted yet (sign-ups alone do not count: the admins' own accounts are some).
 */
export function isEmpty(data: Overview): boolean {
  const cards = data.cards
  const compared = [cards.mrr, cards.one_time_revenue, cards.recurring_revenue, cards.new_customers, cards.failed_payments, cards.active_subscriptions]
  return (
    compared.every((c) => c.current === 0 && c.previous === 0) &&
    data.mrr_series.every((p) => p.mrr === 0) &&
    data.funnel.steps.every((s) => s.key === 'signups' || (s.current === 0 && s.previous === 0)) &&
    data.funnel.leads_by_source.every((s) => s.current === 0 && s.previous === 0) &&
    data.revenue_by_plan.every((p) => p.total === 0) &&
    data.failed_payments.length === 0 &&
    data.past_due.length === 0 &&
    data.websites.by_status.every((s) => s.count === 0) &&
    data.tools.speed_tests.current === 0 &&
    data.tools.analyses.current === 0 &&
    data.support.open === 0 &&
    data.support.answered === 0
  )
}

// ---- CSV -------------------------------------------------------------------------------------

export type CsvCell = string | number | null

/** Money in cents as a CSV number in units: 348700 -> "3487.00". */
export function csvMoney(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const magnitude = Math.abs(Math.round(cents))
  return `${sign}${Math.floor(magnitude / 100)}.${(magnitude % 100).toString().padStart(2, '0')}`
}

function csvCell(value: CsvCell): string {
  if (value === null) return ''
  let text = String(value)
  // A text cell a spreadsheet would run as a formula is written as text.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** RFC 4180 text: a header row, then the rows, CRLF line ends. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

/** Saves `text` as the file `name` (a Blob, no request). */
export function downloadCsv(name: string, text: string): void {
  const blob = new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
