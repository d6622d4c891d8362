/**
 * Support requests: the form (visitors and customers, `POST /api/support`), the customer's past
 * requests (`GET /api/support`) and the admins' list, reply and resolve. The messages are the
 * server's words, so a check here and an answer from there read alike.
 */
import { api, type RequestBody, type ResponseBody } from '../../lib/api-client'
import type { components } from '../../lib/api-schema'
import { looksLikeEmail } from '../../lib/emails'
import type { FormProblem } from '../../lib/forms'

export type SupportRequest = components['schemas']['SupportRequestOut']
export type AdminSupportRequest = components['schemas']['AdminSupportRequestOut']
export type SupportReply = components['schemas']['ReplyOut']
export type SupportInput = NonNullable<RequestBody<'/api/support', 'post'>>
export type SupportReceipt = ResponseBody<'/api/support', 'post'>

export const SUPPORT_STATUSES = ['open', 'answered', 'resolved'] as const
export type SupportStatus = (typeof SUPPORT_STATUSES)[number]

export const MSG_NAME = 'Please enter your name'
export const MSG_EMAIL = 'Please enter your email address'
export const MSG_EMAIL_INVALID = 'Please enter a valid email address'
export const MSG_SUBJECT = 'Please enter a subject'
export const MSG_MESSAGE = 'Please enter a message'
export const MSG_REPLY = 'Please write a reply'

/** The columns' limits (the server refuses more). */
export const NAME_MAX = 200
export const EMAIL_MAX = 254
export const SUBJECT_MAX = 200
export const MESSAGE_MAX = 5000

export interface SupportValues {
  name: string
  email: string
  subject: string
  message: string
}

/** The first problem and every field concerned, in the form's order; null when it may be sent. */
export function checkSupport(values: SupportValues, visitor: boolean): FormProblem | null {
  const fieldMessages: Record<string, string> = {}
  if (visitor) {
    if (!values.name.trim()) fieldMessages.name = MSG_NAME
    const email = values.email.trim()
    if (!email) fieldMessages.email = MSG_EMAIL
    else if (!looksLikeEmail(email)) fieldMessages.email = MSG_EMAIL_INVALID
  }
  if (!values.subject.trim()) fieldMessages.subject = MSG_SUBJECT
  if (!values.message.trim()) fieldMessages.message = MSG_MESSAGE
  const first = Object.values(fieldMessages)[0]
  return first === undefined ? null : { message: first, fields: fieldMessages }
}

export function statusLabel(status: string): string {
  if (status === 'open') return 'Open'
  if (status === 'answered') return 'Answered'
  if (status === 'resolved') return 'Resolved'
  return status
}

export function statusTone(status: string): 'blue' | 'green' | 'grey' {
  if (status === 'open') return 'blue'
  if (status === 'answered') return 'green'
  return 'grey'
}

export async function sendSupport(body: SupportInput): Promise<string> {
  return (await api.post('/api/support', body)).message
}

export async function fetchMyRequests(): Promise<SupportRequest[]> {
  return (await api.get('/api/support')).requests
}

export async function fetchAllRequests(status: string): Promise<AdminSupportRequest[]> {
  return (await api.get('/api/admin/support', { query: { status: status || undefined } })).requests
}

export async function replyTo(id: number, body: string): Promise<AdminSupportRequest> {
  return api.post('/api/admin/support/{request_id}/reply', { body }, { params: { request_id: id } })
}

export async function resolve(id: number): Promise<AdminSupportRequest> {
  return api.post('/api/admin/support/{request_id}/resolve', undefined, { params: { request_id: id } })
}

const whenFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

/** "23 Nov 2026, 11:42" in the reader's time zone; the raw text when it is not a date. */
export function formatWhen(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : whenFormat.format(date)
}
