/**
 * Number and price formatting as 'en-IE' Intl.NumberFormat writes it ("€1,999", "€19.50",
 * "2,000", "2.5"), without Intl.NumberFormat: building the first currency formatter costs
 * Chromium about 25 ms of main thread (ICU data), 100 ms on a throttled phone, right in the
 * middle of hydration. money.test.ts checks these against Intl.NumberFormat itself.
 */

const SYMBOLS: Readonly<Record<string, string>> = { EUR: '€', USD: 'US$', GBP: '£' }

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** `value` with thousands separators and at most `maxDecimals` decimals (trailing zeros dropped). */
export function formatNumber(value: number, maxDecimals = 0): string {
  const scale = 10 ** maxDecimals
  // Half away from zero, as Intl rounds; -0 and tiny negatives print as "-0" there too.
  const scaled = Math.round(Math.abs(value) * scale)
  const integer = Math.floor(scaled / scale)
  const fraction = (scaled % scale).toString().padStart(maxDecimals, '0').replace(/0+$/, '')
  const sign = value < 0 || Object.is(value, -0) ? '-' : ''
  return `${sign}${groupThousands(integer.toString())}${fraction ? `.${fraction}` : ''}`
}

function symbolFor(currency: string): string {
  const code = currency.toUpperCase()
  return SYMBOLS[code] ?? `${code}\u00a0`
}

/** Whole euros (or another currency): "€2,000", "-€15". */
export function formatCurrencyWhole(amount: number, currency = 'EUR'): string {
  const text = formatNumber(amount, 0)
  return text.startsWith('-') ? `-${symbolFor(currency)}${text.slice(1)}` : `${symbolFor(currency)}${text}`
}

/** A price in cents: "€19", "€1,999", "€19.50" (decimals only when the amount is not whole). */
export function formatCents(cents: number, currency = 'EUR'): string {
  const sign = cents < 0 ? '-' : ''
  const magnitude = Math.abs(Math.round(cents))
  const euros = groupThousands(Math.floor(magnitude / 100).toString())
  const rest = magnitude % 100
  return `${sign}${symbolFor(currency)}${euros}${rest ? `.${rest.toString().padStart(2, '0')}` : ''}`
}


