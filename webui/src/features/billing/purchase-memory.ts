/**
 * What the order form remembers in the browser: whether the visitor buys as a consumer or a
 * business (localStorage; the server keeps it too for a signed-in buyer), and the form as it
 * was sent to checkout (sessionStorage), so a cancelled checkout comes back with it. The
 * password and the early-start consent are never kept: the consent is given afresh.
 */
import { isBuyerType } from '../tax'
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
