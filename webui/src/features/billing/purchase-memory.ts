/**
 * What the order form remembers in the browser: whether the visitor buys as a consumer or a
 * business (localStorage; the server keeps it too for a signed-in buyer), and the form as it
 * was sent to checkout (sessionStorage), so a cancelled checkout comes back with it. The
 * password and the early-start consent are never kept: the consent is given afresh.
 */
import { api } from '../../lib/api-client'
import { isBuyerType, rememberedBuyerType } from '../tax'
import type { BuyerType } from './order-terms'

// The buyer type is the site's shared Private / Business choice (its key 'agency.buyer-type').
export { isBuyerType, rememberBuyerType, rememberedBuyerType } from '../tax'

const DRAFT_KEY = 'agency.purchase-draft'

export interface PurchaseDraft {
  page: string
  plan: string
  domain: string
  buyer_type: BuyerType
  /** The buyer's country (ISO code); absent in drafts saved before it was asked. */
  country?: string
  full_name: string
  email: string
}

function storage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window[kind]
  } catch {
    return null // storage disabled
  }
}

export function saveDraft(draft: PurchaseDraft): void {
  try {
    storage('sessionStorage')?.setItem(DRAFT_KEY, JSON.stringify(draft))
  } catch {
    // not remembered
  }
}

/** The draft of `page` (once: it is removed when read). */
export function takeDraft(page: string): PurchaseDraft | null {
  const store = storage('sessionStorage')
  const text = store?.getItem(DRAFT_KEY)
  if (!text) return null
  store?.removeItem(DRAFT_KEY)
  try {
    const draft = JSON.parse(text) as Partial<PurchaseDraft>
    if (draft.page !== page || !isBuyerType(draft.buyer_type)) return null
    return {
      page,
      plan: String(draft.plan ?? ''),
      domain: String(draft.domain ?? ''),
      buyer_type: draft.buyer_type,
      country: typeof draft.country === 'string' ? draft.country : undefined,
      full_name: String(draft.full_name ?? ''),
      email: String(draft.email ?? ''),
    }
  } catch {
    return null
  }
}

export const BUYER_PATH = '/api/billing/buyer'

/** Where a cancelled checkout's form goes back: the package, buyer type and country (the text
 * fields are filled in here). */
export interface DraftTarget {
  plan: (key: string) => void
  buyer: (value: BuyerType) => void
  country: (code: string) => void
}

/** Puts `page`'s cancelled checkout back into `form` (once; see takeDraft). A buyer type the
 * visitor already switched to business before this ran wins. */
export function restoreDraft(form: HTMLFormElement, page: string, plans: readonly { key: string }[], to: DraftTarget): void {
  const draft = takeDraft(page)
  if (!draft) return
  if (draft.plan && plans.some((plan) => plan.key === draft.plan)) to.plan(draft.plan)
  if (!form.querySelector('input[name="buyer_type"][value="business"]:checked')) to.buyer(draft.buyer_type)
  if (draft.country) to.country(draft.country)
  for (const name of ['domain', 'full_name', 'email'] as const) {
    const input = form.elements.namedItem(name)
    const value = draft[name]
    if (input instanceof HTMLInputElement && value && input.value === '') input.value = value
  }
}

/** A signed-in buyer's type as they bought before, unless this browser already remembers one
 * (null then, or when the server does not say). */
export async function accountBuyerType(): Promise<BuyerType | null> {
  const stored = (await api.get(BUYER_PATH))?.buyer_type
  return isBuyerType(stored) && rememberedBuyerType() === null ? stored : null
}
