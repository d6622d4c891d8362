import { api, type ResponseBody } from '../../lib/api-client'
import type { components } from '../../lib/api-schema'

export const AUDIT_PATH = '/api/admin/audit'
/** Entries per "Load more". */
export const PAGE_SIZE = 50
/** What the actor filter takes to mean the `agency` command's entries. */
export const COMMAND_LINE = 'command line'

export type AuditEntry = components['schemas']['AuditEntryOut']
export type AuditPage = ResponseBody<'/api/admin/audit', 'get'>
export type AuditAction = components['schemas']['ActionOut']

/** The page's filters as the address keeps them (empty: not filtered). */
export interface AuditFilters {
  action: string
  actor: string
  since: string
  until: string
}

export const NO_FILTERS: AuditFilters = { action: '', actor: '', since: '', until: '' }

export function filtersFrom(params: URLSearchParams): AuditFilters {
  return {
    action: params.get('action') ?? '',
    actor: params.get('actor') ?? '',
    since: params.get('since') ?? '',
    until: params.get('until') ?? '',
  }
}

/** The filters that are set, for the address and the API's query. */
export function filterQuery(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = {}
  for (const key of ['action', 'actor', 'since', 'until'] as const) {
    const value = filters[key].trim()
    if (value) query[key] = value
  }
  return query
}

export function isFiltered(filters: AuditFilters): boolean {
  return Object.keys(filterQuery(filters)).length > 0
}

/** One page of the log, newest first; `beforeId` for the page after one. */
export function fetchAuditPage(filters: AuditFilters, beforeId?: number | null): Promise<AuditPage> {
  return api.get(AUDIT_PATH, { query: { ...filterQuery(filters), before_id: beforeId ?? undefined, limit: PAGE_SIZE } })
}

const whenFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

/** "26 Nov 2026, 21:40:12" in the reader's time zone; the raw text when it is not a date. */
export function formatWhen(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : whenFormat.format(date)
}

/** One changed field of an entry: its name as people read it, the value before and after. */
export interface FieldChange {
  field: string
  label: string
  before: string
  after: string
}

type Side = Record<string, unknown>

function asSide(value: unknown): Side {
  if (value === null || value === undefined) return {}
  if (typeof value === 'object' && !Array.isArray(value)) return value as Side
  return { value }
}

const FIELD_LABELS: Record<string, string> = {
  status: 'Status',
  role: 'Role',
  reply_id: 'Reply',
  on_sale: 'On sale',
  price: 'Price',
  stripe_price_id: 'Stripe price',
}

/** `reply_id` -> "Reply id", known fields by their label. */
export function fieldLabel(field: string): string {
  if (FIELD_LABELS[field]) return FIELD_LABELS[field]
  const words = field.replace(/_/g, ' ').trim()
  return words ? words[0].toUpperCase() + words.slice(1) : field
}

const ABSENT = '—'

/** Cents as money ("€29.00"). Not lib/money: importing it here would split it out of the public pages' chunks into one more request. */
function moneyText(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-IE', { style: 'currency', currency }).format(cents / 100)
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`
  }
}

/** A value as people read it: text as it is, yes/no, money for a price in cents next to its currency, other values as JSON. */
export function valueText(field: string, value: unknown, side: Side = {}): string {
  if (value === null || value === undefined || value === '') return ABSENT
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (typeof value === 'number' && Number.isInteger(value) && /(^|_)(price|amount)$/.test(field) && typeof side.currency === 'string') {
    return moneyText(value, side.currency)
  }
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  return JSON.stringify(value)
}

/** The fields an entry changed, those of `before` first; a currency that is the same on both sides is shown with its price only. */
export function changesOf(entry: Pick<AuditEntry, 'before' | 'after'>): FieldChange[] {
  const before = asSide(entry.before)
  const after = asSide(entry.after)
  const names = [...Object.keys(before), ...Object.keys(after).filter((name) => !(name in before))]
  return names
    .filter((name) => !(name === 'currency' && before.currency === after.currency && ('price' in before || 'price' in after)))
    .map((name) => ({
      field: name,
      label: fieldLabel(name),
      before: valueText(name, before[name], before),
      after: valueText(name, after[name], after),
    }))
}

/** A CSV cell: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is defused (spreadsheets would run it). */
export function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export const CSV_HEADER = ['Time (UTC)', 'Who', 'Action', 'Target type', 'Target id', 'Target', 'Field', 'Before', 'After']

/** The shown entries as CSV: one row per changed field (one row with empty fields for an entry without any), CRLF line ends. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const rows: string[][] = [CSV_HEADER]
  for (const entry of entries) {
    const head = [entry.at, entry.actor_label, entry.action_label, entry.target_type, entry.target_id, entry.target_label]
    const changes = changesOf(entry)
    if (changes.length === 0) rows.push([...head, '', '', ''])
    for (const change of changes) rows.push([...head, change.label, change.before, change.after])
  }
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

/** Saves `text` as a file through a temporary link (the browser's download). */
export function downloadText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
