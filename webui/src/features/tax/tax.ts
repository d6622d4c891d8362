/**
 * Prices with their tax, as the catalogue's `tax` block describes the agency's set-up: the
 * client's copy of the server's arithmetic (tax.api.split / treatment / quote_line), used for
 * the price wording on every page and the order summary's estimate. Money is integer cents,
 * rates are basis points (1900 = 19 %). Loaded with the catalogue on the landing pages (not on
 * their first load); part of the purchase pages.
 */
import type { BuyerType, TaxDisplay } from './prices'

/** The server's defaults (a German agency), used while a catalogue without the block is shown. */
export const DEFAULT_TAX: TaxDisplay = {
  vat_mode: 'standard',
  prices_include_vat: true,
  vat_country: 'DE',
  vat_country_rate: 1900,
  vat_oss: false,
  default_buyer_type: 'consumer',
  locale: 'en-IE',
  rates: {},
}

/** The tax block of a catalogue (the defaults when the server sent none). */
export function taxOf(catalogue: object | null | undefined): TaxDisplay {
  const tax = (catalogue as { tax?: Partial<TaxDisplay> | null } | null | undefined)?.tax
  return tax ? { ...DEFAULT_TAX, ...tax } : DEFAULT_TAX
}

export function defaultBuyer(tax: TaxDisplay): BuyerType {
  return tax.default_buyer_type === 'business' ? 'business' : 'consumer'
}

export const SMALL_BUSINESS_NOTE = 'No VAT is charged (small business, § 19 UStG).'

/** round_half_up(a / b) for a >= 0, b > 0, in integers (as the server's Decimal ROUND_HALF_UP). */
function divHalfUp(a: number, b: number): number {
  const sign = a < 0 ? -1 : 1
  return sign * Math.floor((2 * Math.abs(a) + b) / (2 * b))
}

export interface Amounts {
  net: number
  vat: number
  gross: number
}

/** tax.api.split: `inclusive` (gross given) or exclusive (net given). */
export function split(amount: number, rate: number, inclusive: boolean): Amounts {
  if (inclusive) {
    const vat = divHalfUp(amount * rate, 10000 + rate)
    return { net: amount - vat, vat, gross: amount }
  }
  const vat = divHalfUp(amount * rate, 10000)
  return { net: amount, vat, gross: amount + vat }
}

export type TaxKind = 'standard' | 'reverse_charge' | 'small_business' | 'outside_eu'

export interface Treatment {
  rate: number
  kind: TaxKind | string
}

/** tax.api.treatment: who pays which VAT (never 0 % on a VAT ID that is not verified valid). */
export function treatment(tax: TaxDisplay, buyer: BuyerType, country: string | null | undefined, vatIdStatus?: string | null): Treatment {
  if (tax.vat_mode === 'small_business') return { rate: 0, kind: 'small_business' }
  const home = tax.vat_country
  const where = (country || home).toUpperCase()
  const eu = where === home || tax.rates[where] !== undefined
  if (!eu) return { rate: 0, kind: 'outside_eu' }
  if (buyer === 'business') {
    return where !== home && vatIdStatus === 'valid' ? { rate: 0, kind: 'reverse_charge' } : { rate: tax.vat_country_rate, kind: 'standard' }
  }
  return { rate: tax.vat_oss ? (tax.rates[where] ?? tax.vat_country_rate) : tax.vat_country_rate, kind: 'standard' }
}

/** tax.api.quote_line: with gross prices and no VAT the buyer pays the full price as net
 * (Stripe's inclusive rule); with net prices they pay the net only. */
export function quoteLine(price: number, how: Treatment, pricesIncludeVat: boolean): Amounts {
  if (how.rate === 0) return { net: price, vat: 0, gross: price }
  return split(price, how.rate, pricesIncludeVat)
}

/** "19 %", "5.5 %", "25.5 %". */
export function rateText(rate: number): string {
  return `${(rate / 100).toString()}\u00a0%`
}

/** A price as a buyer of `buyer` type sees it: gross for consumers, net for businesses. */
export interface PriceView {
  amount: number
  /** The amount on the same basis for the previous price (null when there is none). */
  was: number | null
  /** The line under the price: "incl. 19 % VAT", "excl. VAT", the small-business note. */
  note: string
  /** "Save N%" on the same basis (null without a previous price). */
  save: number | null
}

export function priceView(
  tax: TaxDisplay,
  buyer: BuyerType,
  price: number,
  previous: number | null = null,
  country: string | null = null,
  vatIdStatus: string | null = null,
): PriceView {
  const how = treatment(tax, buyer, country, vatIdStatus)
  const pick = (cents: number) => {
    const line = quoteLine(cents, how, tax.prices_include_vat)
    return buyer === 'business' ? line.net : line.gross
  }
  let note: string
  if (how.kind === 'small_business') note = SMALL_BUSINESS_NOTE
  else if (buyer === 'business') note = how.kind === 'reverse_charge' ? 'excl. VAT (reverse charge)' : 'excl. VAT'
  else if (how.kind === 'outside_eu') note = 'no VAT (outside the EU)'
  else note = `incl. ${rateText(how.rate)} VAT`
  const amount = pick(price)
  const was = previous !== null && previous > price ? pick(previous) : null
  return { amount, was, note, save: savePercent(was, amount) }
}

/** Whole percent `now` is below `was`, rounded down, as the catalogue's save_percent. */
export function savePercent(was: number | null, now: number): number | null {
  if (was === null || was <= now || was <= 0) return null
  return Math.floor(((was - now) * 100) / was) || null
}
