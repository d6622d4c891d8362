/**
 * Money in the visitor's locale with Intl.NumberFormat, as Babel writes it on the server
 * (tax.api.format_money; money.test.ts compares both), one formatter per locale, currency and
 * digits; en-IE and the English locales that write euros the same way keep money.ts's
 * hand-written fast path (no Intl). Apart from money.ts (on every page's first load): it
 * comes with the price parts, after it.
 */
import { formatCents } from './money'

const formatters = new Map<string, Intl.NumberFormat>()

function formatter(locale: string, currency: string, digits: number): Intl.NumberFormat {
  const key = `${locale}|${currency}|${digits}`
  let found = formatters.get(key)
  if (!found) {
    const options = { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: 2 } as const
    try {
      found = new Intl.NumberFormat(locale, options)
    } catch {
      found = new Intl.NumberFormat('en-IE', options) // an unknown locale
    }
    formatters.set(key, found)
  }
  return found
}

/** `cents` in `locale` ("1.234,50 €" for de-DE, "€ 1.234,50" for de-AT); `whole`: no ",00". */
export function intlMoney(cents: number, currency: string, locale: string, whole: boolean): string {
  return formatter(locale, currency, whole && cents % 100 === 0 ? 0 : 2).format(cents / 100)
}

/** Locales whose euro amounts read exactly as en-IE's ("€1,999.50"); money.test.ts checks it. */
const EN_IE_EURO = new Set(['en-IE', 'en-GB', 'en-US', 'en'])

/**
 * A price in cents in `locale`, as Babel's format_currency writes it on the server. en-IE and
 * the English locales that write euros the same way take money.ts's fast path (no Intl), the
 * others Intl. `whole`: decimals only when the
 * amount is not whole ("€499", the pages' style); else always two (Babel's, the summary's).
 */
export function formatMoney(cents: number, currency = 'EUR', locale = 'en-IE', whole = true): string {
  const code = currency.toUpperCase()
  if (locale !== 'en-IE' && !(code === 'EUR' && EN_IE_EURO.has(locale))) return intlMoney(cents, code, locale, whole)
  const text = formatCents(cents, code)
  return !whole && cents % 100 === 0 ? `${text}.00` : text
}
