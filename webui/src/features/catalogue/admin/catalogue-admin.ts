/**
 * The admins' catalogue (`GET /api/admin/catalogue`, `PATCH /api/admin/catalogue/plans/{key}`):
 * its types, calls, and the plan form's checks, which are the server's (PlanChangesIn and
 * catalogue.service.parse_price), so a check here and an answer from there read alike.
 *
 * Only the admin page imports this folder (a lazy chunk): nothing here may be imported by the
 * public pages, whose first load it would grow. It imports nothing the public pages' chunks
 * hold as shared originals (lib/money, lib/forms' code): a second importer makes the bundler
 * split such a module into a chunk of its own on every public page (vite.config.ts).
 */
import { api, ApiError, errorMessage, type RequestBody, type ResponseBody } from '../../../lib/api-client'
import type { components } from '../../../lib/api-schema'
import type { FormProblem } from '../../../lib/forms'

export type AdminCatalogue = ResponseBody<'/api/admin/catalogue', 'get'>
export type AdminFamily = components['schemas']['AdminFamilyOut']
export type AdminPlan = components['schemas']['AdminPlanOut']
export type PriceChange = components['schemas']['PriceChangeOut']
export type PlanChanges = NonNullable<RequestBody<'/api/admin/catalogue/plans/{key}', 'patch'>>
export type PlanUpdate = ResponseBody<'/api/admin/catalogue/plans/{key}', 'patch'>
export type PlanBadge = NonNullable<AdminPlan['badge']>

/** The server's limits (catalogue/schemas.py). */
export const MAX_PRICE = 99_999_999
export const NAME_MAX = 100
export const DESCRIPTION_MAX = 5000
export const DELIVERY_MAX = 50
export const GUARANTEE_MAX = 100
export const FEATURE_MAX = 200
export const FEATURES_MAX = 20

export const MSG_PRICE = 'Enter the price in euros, such as 29 or 29.90.'
export const MSG_PRICE_ZERO = 'The price must be above zero.'
export const MSG_PRICE_MAX = 'The price can be at most €999,999.99.'
export const MSG_NAME = 'The name cannot be empty.'
export const MSG_NAME_LONG = `The name can be at most ${NAME_MAX} characters.`
export const MSG_DESCRIPTION_LONG = `The description can be at most ${DESCRIPTION_MAX} characters.`
export const MSG_DELIVERY_LONG = `The delivery promise can be at most ${DELIVERY_MAX} characters.`
export const MSG_GUARANTEE_LONG = `The guarantee can be at most ${GUARANTEE_MAX} characters.`
export const MSG_FEATURES_MANY = `A plan can list at most ${FEATURES_MAX} features.`
export const MSG_FEATURE_LONG = `Each feature can be at most ${FEATURE_MAX} characters.`
export const MSG_ONE_LINE = 'Line breaks are not allowed here.'

export const BADGES: readonly { value: PlanBadge; label: string }[] = [
  { value: 'popular', label: 'Most popular' },
  { value: 'premium', label: 'Premium' },
  { value: 'launch', label: 'Launch offer' },
]

export function badgeText(badge: PlanBadge | null): string {
  return BADGES.find((b) => b.value === badge)?.label ?? 'None'
}

const PRICE = /^(\d{1,7})(?:[.,](\d{1,2}))?$/

/**
 * A price typed in euros ("29", "29.90", "29,9", "€ 1999") as integer cents, or the problem's
 * message: the server's parse_price, with its upper limit (Stripe's 8 digits).
 */
export function parseEuros(text: string): { cents: number } | { error: string } {
  let cleaned = text.trim()
  if (cleaned.startsWith('€')) cleaned = cleaned.slice(1)
  if (cleaned.endsWith('€')) cleaned = cleaned.slice(0, -1)
  const match = PRICE.exec(cleaned.trim())
  if (!match) return { error: MSG_PRICE }
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'))
  if (cents <= 0) return { error: MSG_PRICE_ZERO }
  if (cents > MAX_PRICE) return { error: MSG_PRICE_MAX }
  return { cents }
}

/** Cents as the price field shows them: "29", "29.90". */
export function eurosText(cents: number): string {
  const euros = Math.floor(cents / 100)
  const rest = cents % 100
  return rest ? `${euros}.${rest.toString().padStart(2, '0')}` : String(euros)
}

/** "€29.00 per month", "€499.00 one-time". */
export function priceText(plan: Pick<AdminPlan, 'price' | 'currency' | 'mode' | 'interval'>, cents = plan.price): string {
  const amount = money(cents, plan.currency)
  return plan.mode === 'subscription' ? `${amount} per ${plan.interval ?? 'month'}` : `${amount} one-time`
}

/** Always with cents, so a change of a few cents is visible: "€29.00", "€1,999.50". */
export function money(cents: number, currency = 'EUR'): string {
  const sign = cents < 0 ? '-' : ''
  const magnitude = Math.abs(Math.round(cents))
  const euros = Math.floor(magnitude / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const symbol = currency.toUpperCase() === 'EUR' ? '€' : `${currency.toUpperCase()}\u00a0`
  return `${sign}${symbol}${euros}.${(magnitude % 100).toString().padStart(2, '0')}`
}

/** A thrown value as the form's problem: the server's message and its fields. */
export function problemOf(err: unknown): FormProblem {
  if (err instanceof ApiError) return { message: errorMessage(err), fields: formFields(err.fields ?? {}), code: err.code }
  return { message: errorMessage(err), fields: {} }
}

/** The named values of a submitted form ('' for one it does not send). */
export function valuesOf<K extends string>(form: HTMLFormElement, names: readonly K[]): Record<K, string> {
  const data = new FormData(form)
  const values = {} as Record<K, string>
  for (const name of names) {
    const value = data.get(name)
    values[name] = typeof value === 'string' ? value : ''
  }
  return values
}

export function sourceText(source: string): string {
  switch (source) {
    case 'admin':
      return 'Catalogue page'
    case 'cli':
      return 'Command line'
    case 'seed':
      return 'Catalogue file'
    case 'file':
      return 'Catalogue file (previous price)'
    default:
      return source
  }
}

/** The plan form's values as typed. */
export interface PlanFormValues {
  name: string
  price: string
  badge: string
  delivery: string
  guarantee: string
  features: string
  description: string
}

export function formValuesOf(plan: AdminPlan): PlanFormValues {
  return {
    name: plan.name,
    price: eurosText(plan.price),
    badge: plan.badge ?? '',
    delivery: plan.delivery ?? '',
    guarantee: plan.guarantee ?? '',
    features: plan.features.join('\n'),
    description: plan.description,
  }
}

const LINE_BREAK = /[\r\n]/

/**
 * The changes the form asks for (only the fields that differ from `plan`), or the problems in
 * the form's order, each at its field. An empty object: nothing to save.
 */
export function planChanges(plan: AdminPlan, values: PlanFormValues): { changes: PlanChanges } | { problem: FormProblem } {
  const fields: Record<string, string> = {}
  const changes: PlanChanges = {}

  const name = values.name.trim()
  if (!name) fields.name = MSG_NAME
  else if (LINE_BREAK.test(name)) fields.name = MSG_ONE_LINE
  else if (name.length > NAME_MAX) fields.name = MSG_NAME_LONG
  else if (name !== plan.name) changes.name = name

  const price = parseEuros(values.price)
  if ('error' in price) fields.price = price.error
  else if (price.cents !== plan.price) changes.price = price.cents

  const badge = (values.badge || null) as PlanBadge | null
  if (badge !== plan.badge) changes.badge = badge

  const delivery = values.delivery.trim()
  if (LINE_BREAK.test(delivery)) fields.delivery = MSG_ONE_LINE
  else if (delivery.length > DELIVERY_MAX) fields.delivery = MSG_DELIVERY_LONG
  else if ((delivery || null) !== plan.delivery) changes.delivery = delivery || null

  const guarantee = values.guarantee.trim()
  if (LINE_BREAK.test(guarantee)) fields.guarantee = MSG_ONE_LINE
  else if (guarantee.length > GUARANTEE_MAX) fields.guarantee = MSG_GUARANTEE_LONG
  else if ((guarantee || null) !== plan.guarantee) changes.guarantee = guarantee || null

  const features = values.features
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
  if (features.length > FEATURES_MAX) fields.features = MSG_FEATURES_MANY
  else if (features.some((line) => line.length > FEATURE_MAX)) fields.features = MSG_FEATURE_LONG
  else if (features.join('\n') !== plan.features.join('\n')) changes.features = features

  const description = values.description.trim()
  if (description.length > DESCRIPTION_MAX) fields.description = MSG_DESCRIPTION_LONG
  else if (description !== plan.description) changes.description = description

  const first = Object.values(fields)[0]
  return first === undefined ? { changes } : { problem: { message: first, fields } }
}

/** The server's field names (`features.0`) as the form's (`features`). */
export function formFields(fields: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, message] of Object.entries(fields)) {
    const name = key.split('.')[0]
    out[name] ??= message
  }
  return out
}

export async function fetchAdminCatalogue(): Promise<AdminCatalogue> {
  return api.get('/api/admin/catalogue')
}

export async function updatePlan(key: string, changes: PlanChanges): Promise<PlanUpdate> {
  return api.patch('/api/admin/catalogue/plans/{key}', changes, { params: { key } })
}

/** `catalogue` with `plan` in place of the plan of the same key. */
export function withPlan(catalogue: AdminCatalogue, plan: AdminPlan): AdminCatalogue {
  return {
    ...catalogue,
    families: catalogue.families.map((family) =>
      family.plans.some((p) => p.key === plan.key)
        ? { ...family, plans: family.plans.map((p) => (p.key === plan.key ? plan : p)) }
        : family,
    ),
  }
}

/** "26 Nov 2026, 21:30" in the browser's time zone. */
export function formatWhen(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return date.toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })
}
