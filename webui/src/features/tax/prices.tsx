/**
 * What every price on a page needs at first load (small: it is on every priced page, and the
 * only part of the price display the purchase pages share with the others; the switch is in
 * ./index.ts):
 * whom the prices are shown for (the Private / Business switch on pricing sections and the
 * "You order as a consumer / as a business" choice on /start: one value for the whole site,
 * remembered in localStorage; prerender and hydration render the catalogue's default, the
 * remembered choice applies right after, every switch on the page following it), the locale
 * money is written in, and the agency's tax set-up. The wording
 * itself (./tax.ts) and Intl come with the components that show prices.
 */
import { useSyncExternalStore } from 'react'

/** Whom an order (and a price) is for. */
export type BuyerType = 'consumer' | 'business'

/** The catalogue's `tax` block (GET /api/catalogue). */
export interface TaxDisplay {
  vat_mode: 'standard' | 'small_business' | string
  prices_include_vat: boolean
  vat_country: string
  vat_country_rate: number
  vat_oss: boolean
  default_buyer_type: BuyerType | string
  locale: string
  rates: Record<string, number>
}

/** The key purchase-memory.ts has always used for the buyer type. */
export const BUYER_KEY = 'agency.buyer-type'

const listeners = new Set<() => void>()

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null // storage disabled
  }
}

export function isBuyerType(value: unknown): value is BuyerType {
  return value === 'consumer' || value === 'business'
}

/** The choice this browser remembers, or null. */
export function rememberedBuyerType(): BuyerType | null {
  let value: string | null | undefined
  try {
    value = store()?.getItem(BUYER_KEY)
  } catch {
    value = null
  }
  return isBuyerType(value) ? value : null
}

/** Remember `value` and tell every switch on the page. */
export function rememberBuyerType(value: BuyerType): void {
  try {
    store()?.setItem(BUYER_KEY, value)
  } catch {
    // full or disabled: the choice is not remembered
  }
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const clientSnapshot = rememberedBuyerType
const serverSnapshot = () => null

/** The buyer type prices are shown for (`initial` until the browser remembers one), and the
 * setter that remembers a new choice. */
export function useBuyerType(initial: BuyerType): [BuyerType, (value: BuyerType) => void] {
  const remembered = useSyncExternalStore(subscribe, clientSnapshot, serverSnapshot)
  return [remembered ?? initial, rememberBuyerType]
}

const subscribeNever = () => () => {}
const browserLocale = () => (typeof navigator === 'undefined' ? null : (navigator.language ?? null))

/** The locale money is written in: `initial` (the catalogue's, as prerendered) until hydrated,
 * then the browser's. */
export function useMoneyLocale(initial: string): string {
  return useSyncExternalStore(subscribeNever, browserLocale, serverSnapshot) ?? initial
}

export interface Prices {
  /** The catalogue's tax block as sent (taxOf gives it with the defaults). */
  tax: Partial<TaxDisplay> | null | undefined
  buyer: BuyerType
  setBuyer: (value: BuyerType) => void
  /** The locale money is written in. */
  locale: string
}

/** The tax set-up of `catalogue`, whom its prices are for and the locale (the wording itself,
 * ./tax.ts, is loaded by the components that show prices). */
export function usePrices(catalogue: object | null | undefined): Prices {
  const tax = (catalogue as { tax?: Partial<TaxDisplay> | null } | null | undefined)?.tax
  const [buyer, setBuyer] = useBuyerType(tax?.default_buyer_type === 'business' ? 'business' : 'consumer')
  const locale = useMoneyLocale(tax?.locale ?? 'en-IE')
  return { tax, buyer, setBuyer, locale }
}
