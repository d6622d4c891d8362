import { describe, expect, it } from 'vitest'
import { formatCents, formatCurrencyWhole, formatNumber } from './money'
import { formatMoney } from './money-locale'
// The server's Babel output, written by the tax module's tests (tests/tax/money_formats.json).
import serverFormats from '../../../tests/tax/money_formats.json'

/** Deterministic pseudo-random numbers (mulberry32): the same cases on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const next = random(20261123)
const magnitudes = [1, 10, 1_000, 100_000, 10_000_000, 1e10]
const samples = (count: number, make: (r: number, scale: number) => number) =>
  Array.from({ length: count }, (_, i) => make(next(), magnitudes[i % magnitudes.length] ?? 1))

describe('money formatting matches Intl.NumberFormat("en-IE")', () => {
  it('whole and one-decimal numbers', () => {
    const whole = new Intl.NumberFormat('en-IE', { maximumFractionDigits: 0 })
    const oneDecimal = new Intl.NumberFormat('en-IE', { maximumFractionDigits: 1 })
    const values = [0, 1, 999, 1000, 1234567, -1, -1000, 2.5, 0.5, 1.25, 99.95, 1e6 + 0.04, ...samples(500, (r, s) => (r - 0.3) * s)]
    for (const value of values) {
      expect(formatNumber(value), String(value)).toBe(whole.format(value))
      const twoDecimals = Math.round(value * 100) / 100 // decimals the calculators actually produce
      expect(formatNumber(twoDecimals, 1), String(twoDecimals)).toBe(oneDecimal.format(twoDecimals))
    }
  })

  it('whole euros', () => {
    const euro = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 })
    for (const value of [0, 5, 2000, 1234567, -15, ...samples(300, (r, s) => Math.round((r - 0.2) * s))]) {
      expect(formatCurrencyWhole(value), String(value)).toBe(euro.format(value))
    }
  })

  it('prices in cents, decimals only when not whole', () => {
    for (const cents of [0, 1, 99, 100, 1950, 199900, 14700, 123456789, ...samples(300, (r, s) => Math.floor(r * s))]) {
      const digits = cents % 100 === 0 ? 0 : 2
      const intl = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR', minimumFractionDigits: digits, maximumFractionDigits: digits })
      expect(formatCents(cents), String(cents)).toBe(intl.format(cents / 100))
    }
    expect(formatCents(2900, 'GBP')).toBe('£29')
    expect(formatCents(2900, 'usd')).toBe('US$29')
  })
})


interface MoneyCase {
  cents: number
  currency: string
  locale: string
  expected: string
}
const fixture = serverFormats as { money: MoneyCase[] }

describe('formatMoney writes what Babel writes on the server', () => {
  it('every case of the server fixture, to the character (no-break spaces included)', () => {
    expect(fixture.money.length).toBeGreaterThan(50)
    for (const { cents, currency, locale, expected } of fixture.money) {
      expect(formatMoney(cents, currency, locale, false), `${locale} ${cents}`).toBe(expected)
    }
  })

  it('the pages drop ".00" of whole amounts, in any locale', () => {
    expect(formatMoney(49900, 'EUR', 'en-IE')).toBe('€499')
    expect(formatMoney(49950, 'EUR', 'en-IE')).toBe('€499.50')
    expect(formatMoney(49900, 'EUR', 'de-DE', true)).toBe('499\u00a0€')
    expect(formatMoney(123456, 'EUR', 'de-DE', true)).toBe('1.234,56\u00a0€')
    expect(formatMoney(49900, 'EUR', 'de-AT', true)).toBe('€\u00a0499')
  })

  it('the English locales that write euros as en-IE take the fast path and agree with Intl', () => {
    for (const locale of ['en-IE', 'en-GB', 'en-US', 'en']) {
      for (const cents of [0, 1, 99, 100, 2900, 41933, 123456, 99999999, -2900]) {
        const intl = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 })
        expect(formatMoney(cents, 'EUR', locale, false), `${locale} ${cents}`).toBe(intl.format(cents / 100))
      }
    }
  })

  it('an unknown locale is written as en-IE', () => {
    expect(formatMoney(2900, 'EUR', 'xx-invalid-@@')).toBe('€29')
  })
})
