/**
 * "Withdraw from contract" (/withdraw) and "Cancel contracts here" (/cancel) without an account,
 * and the admins' list: the calls, the form's own first check (the server's words; the server
 * decides) and the dates as the pages write them.
 */
import { api, type ResponseBody } from '../../lib/api-client'
import { looksLikeEmail } from '../../lib/emails'
import { problem, type FormProblem } from '../../lib/forms'

export type ContractKind = 'withdrawal' | 'cancellation'
export type WithdrawalPreview = ResponseBody<'/api/contracts/withdrawal/check', 'post'>
export type WithdrawalReceipt = ResponseBody<'/api/contracts/withdrawal', 'post'>
export type CancellationPreview = ResponseBody<'/api/contracts/cancellation/check', 'post'>
export type CancellationReceipt = ResponseBody<'/api/contracts/cancellation', 'post'>
export type AdminContracts = ResponseBody<'/api/admin/contracts', 'get'>
export type Identification = { email: string; reference: string }
export type CancellationKind = 'ordinary' | 'extraordinary'

// The server's messages (agency/modules/contracts/service.py).
export const MSG_EMAIL = 'Please enter the e-mail address you ordered with'
export const MSG_EMAIL_INVALID = 'Please enter a valid email address'
export const MSG_REFERENCE = "Please enter your order number (for example AG-000042) or your website's domain"
export const MSG_REASON = 'Please give the reason for the extraordinary cancellation'
export const EMAIL_MAX = 254
export const REFERENCE_MAX = 300
export const REASON_MAX = 2000

/** The form's first look: both fields given, the address plausible (the server checks the rest). */
export function checkIdentification(values: Identification): FormProblem | null {
  const fields: Record<string, string> = {}
  const email = values.email.trim()
  if (!email) fields.email = MSG_EMAIL
  else if (!looksLikeEmail(email)) fields.email = MSG_EMAIL_INVALID
  if (!values.reference.trim()) fields.reference = MSG_REFERENCE
  const names = Object.keys(fields)
  if (names.length === 0) return null
  return { ...problem(fields[names[0]]), fields }
}

const clean = (values: Identification): Identification => ({ email: values.email.trim(), reference: values.reference.trim() })

export const checkWithdrawal = (values: Identification): Promise<WithdrawalPreview> =>
  api.post('/api/contracts/withdrawal/check', clean(values))
export const withdraw = (values: Identification): Promise<WithdrawalReceipt> =>
  api.post('/api/contracts/withdrawal', clean(values))
export const checkCancellation = (values: Identification): Promise<CancellationPreview> =>
  api.post('/api/contracts/cancellation/check', clean(values))
export const cancel = (values: Identification, kind: CancellationKind = 'ordinary', reason = ''): Promise<CancellationReceipt> =>
  api.post('/api/contracts/cancellation', { ...clean(values), kind, reason: reason.trim() })
export const fetchAdminContracts = (): Promise<AdminContracts> => api.get('/api/admin/contracts')
export const markWithdrawalHandled = (id: number): Promise<AdminContracts['withdrawals'][number]> =>
  api.post('/api/admin/contracts/withdrawals/{withdrawal_id}/handled', undefined, { params: { withdrawal_id: id } })

// Made on first use: building an Intl formatter loads locale data, work the page's first
// paint and hydration need not do.
let day: Intl.DateTimeFormat | null = null
let dayTime: Intl.DateTimeFormat | null = null
const DAY = () => (day ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }))
const DAY_TIME = () =>
  (dayTime ??= new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  }))

/** "2026-12-10" or an ISO date-time -> "10 December 2026" (UTC, as the e-mails write it). */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '-'
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value)
  return Number.isNaN(date.getTime()) ? value : DAY().format(date)
}

/** An ISO date-time -> "26 November 2026, 14:05 UTC". */
export function formatDayTime(value: string | null | undefined): string {
  if (!value) return '-'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : `${DAY_TIME().format(date).replace(' at ', ', ')} UTC`
}
