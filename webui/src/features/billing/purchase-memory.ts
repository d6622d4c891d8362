/**
 * What the order form remembers in the browser: whether the visitor buys as a consumer or a
 * business (localStorage; the server keeps it too for a signed-in buyer), and the form as it
 * was sent to checkout (sessionStorage), so a cancelled checkout comes back with it. The
 * password and the early-start consent are never kept: the consent is given afresh.
 */
import type { BuyerType } from './order-terms'

const BUYER_KEY = 'agency.buyer-type'
const DRAFT_KEY = 'agency.purchase-draft'

export interface PurchaseDraft {
  page: string
  plan: string
  domain: string
  buyer_type: BuyerType
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

export function isBuyerType(value: unknown): value is BuyerType {
  return value === 'consumer' || value === 'business'
}

export function rememberedBuyerType(): BuyerType | null {
  const value = storage('localStorage')?.getItem(BUYER_KEY)
  return isBuyerType(value) ? value : null
}

export function rememberBuyerType(value: BuyerType): void {
  try {
    storage('localStorage')?.setItem(BUYER_KEY, value)
  } catch {
    // full or disabled: the choice is simply not remembered
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
      full_name: String(draft.full_name ?? ''),
      email: String(draft.email ?? ''),
    }
  } catch {
    return null
  }
}
