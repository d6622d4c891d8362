/**
 * Money on the purchase pages in the buyer's locale: en-IE (and the English locales that write
 * euros the same way) by money.ts's fast path, others with Intl once money-locale.ts has
 * loaded after hydration (until then, and in the prerendered page, as en-IE).
 */
import { useEffect, useState } from 'react'
import { formatCents } from '../../lib/money'

export { formatCents }

type Format = (cents: number, currency: string, locale: string, whole: boolean) => string

const fast: Format = (cents, currency, _locale, whole) => {
  const text = formatCents(cents, currency)
  return !whole && cents % 100 === 0 ? `${text}.00` : text
}
let loaded: Format | null = null

/** A formatter for `locale`: `money(cents, currency)` ("€499"), `exact(...)` ("€499.00"). */
export function useMoney(locale: string): {
  money: (cents: number, currency: string) => string
  exact: (cents: number, currency: string) => string
} {
  const [format, setFormat] = useState<Format>(() => loaded ?? fast)
  useEffect(() => {
    if (format !== fast || /^en(-(IE|GB|US))?$/.test(locale)) return undefined
    let live = true
    void import('../../lib/money-locale').then(({ formatMoney }) => {
      loaded = formatMoney
      if (live) setFormat(() => formatMoney)
    })
    return () => {
      live = false
    }
  }, [format, locale])
  return {
    money: (cents, currency) => format(cents, currency, locale, true),
    exact: (cents, currency) => format(cents, currency, locale, false),
  }
}
