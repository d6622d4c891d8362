/**
 * What the order form does once the page has hydrated (nothing of it is needed to show the
 * page; it is fetched right after hydration, in one request): the field rules, what the browser
 * remembers (./purchase-memory), the account fields giving their space back, and the submit,
 * which checks the fields, remembers the form (a cancelled checkout comes back with it) and
 * asks the server for the checkout.
 */
import { api, type RequestBody } from '../../lib/api-client'
import { formValues, problem as formProblem, problemFromError, type FormProblem } from '../../lib/forms'
import type { Family, Plan } from '../catalogue'
import { EARLY_START_CONSENT_VERSION, type BuyerType } from './order-terms'
import { rememberBuyerType, saveDraft } from './purchase-memory'
import { CHECKED_FIELDS, fieldProblem } from './purchase-rules'

export { fieldProblem } from './purchase-rules'
export { accountBuyerType, restoreDraft } from './purchase-memory'

export const CHECKOUT_PATH = '/api/billing/checkout'
export const MSG_SELECT_PACKAGE = 'Please select a package'
export const MSG_CHECK_FIELDS = 'Please correct the highlighted fields'

// `country` and `vat_id` (issue 27) until the generated schema has them.
export type CheckoutBody = NonNullable<RequestBody<typeof CHECKOUT_PATH, 'post'>> & { country?: string; vat_id?: string }

export interface OrderContext {
  page: NonNullable<CheckoutBody['page']>
  family: Family
  plans: readonly Plan[]
  signedIn: boolean
  /** The agency's country, sent when the form has none. */
  vatCountry: string
}

const FIELD_NAMES = ['plan', 'full_name', 'email', 'password', 'domain', 'buyer_type', 'early_start', 'country', 'vat_id'] as const

/** What is wrong with the sent form (the form shows it), or the checkout's body to send. */
export function checkOrder(form: HTMLFormElement, { page, family, plans, signedIn, vatCountry }: OrderContext): FormProblem | CheckoutBody {
  const current = formValues(form, FIELD_NAMES)
  const chosen = plans.find((plan) => plan.key === current.plan) ?? null
  if (!chosen) return formProblem(MSG_SELECT_PACKAGE, ['plan'])
  const names = signedIn ? (['domain'] as const) : CHECKED_FIELDS
  const found: Record<string, string> = {}
  for (const name of names) {
    if (name === 'domain' && !family.show_domain) continue
    const message = fieldProblem(name, current[name])
    if (message) found[name] = message
  }
  const messages = Object.values(found)
  if (messages.length > 0) {
    return { message: messages.length === 1 ? (messages[0] ?? MSG_CHECK_FIELDS) : MSG_CHECK_FIELDS, fields: found }
  }
  const buyer: BuyerType = current.buyer_type === 'business' ? 'business' : 'consumer'
  const consent = buyer === 'consumer' && current.early_start === 'yes'
  const body: CheckoutBody = { plan: chosen.key, page, buyer_type: buyer, early_start_consent: consent }
  body.country = current.country || vatCountry
  const vatId = current.vat_id.trim()
  if (buyer === 'business' && vatId !== '') body.vat_id = vatId
  if (consent) body.consent_version = EARLY_START_CONSENT_VERSION
  const domain = current.domain.trim()
  if (family.show_domain && domain !== '') body.domain = domain
  if (!signedIn) {
    body.full_name = current.full_name.trim()
    body.email = current.email.trim()
    body.password = current.password
  }
  return body
}

/** Remembers the order (buyer type, the form for a cancelled checkout) and sends the browser to
 * the payment page (null: on its way there); the problem to show when the server refuses. */
export async function placeOrder(body: CheckoutBody, { page, family }: Pick<OrderContext, 'page' | 'family'>): Promise<FormProblem | null> {
  const buyer: BuyerType = body.buyer_type === 'business' ? 'business' : 'consumer'
  rememberBuyerType(buyer)
  saveDraft({
    page,
    plan: body.plan ?? '',
    domain: family.show_domain ? (body.domain ?? '') : '',
    buyer_type: buyer,
    country: body.country,
    full_name: body.full_name ?? '',
    email: body.email ?? '',
  })
  try {
    const data = await api.post(CHECKOUT_PATH, body)
    if (!data?.url) throw new Error('no url')
    window.location.assign(data.url)
    return null
  } catch (err) {
    const found = problemFromError(err)
    // A registered e-mail concerns the account fields, and the box offers "Log in".
    return found.code === 'email_registered' ? { ...found, fields: { email: found.message, password: found.message } } : found
  }
}

/** Signed in: the hidden account fields give their space back at once when they are below the
 * screen (nothing visible moves), else with the buyer's first click or key (a shift the buyer
 * caused, which does not count as one). Returns the clean-up. */
export function collapseAccount(box: HTMLElement | null, collapse: () => void): () => void {
  if (!box || box.getBoundingClientRect().top >= window.innerHeight) {
    const frame = requestAnimationFrame(collapse)
    return () => cancelAnimationFrame(frame)
  }
  window.addEventListener('pointerdown', collapse, { once: true, capture: true })
  window.addEventListener('keydown', collapse, { once: true, capture: true })
  return () => {
    window.removeEventListener('pointerdown', collapse, { capture: true })
    window.removeEventListener('keydown', collapse, { capture: true })
  }
}
