import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { TaxDisplay } from './prices'
import { DEFAULT_TAX, SMALL_BUSINESS_NOTE, priceView, quoteLine, savePercent, split, taxOf, treatment } from './tax'

const RATES = { AT: 2000, DE: 1900, FR: 2000, FI: 2550, NL: 2100, LU: 1700 }
const tax = (over: Partial<TaxDisplay> = {}): TaxDisplay => ({ ...DEFAULT_TAX, rates: RATES, ...over })

/** round_half_up(a / b) exactly, with BigInt (the server's Decimal ROUND_HALF_UP). */
function halfUp(a: bigint, b: bigint): bigint {
  const q = a / b
  return (a % b) * 2n >= b ? q + 1n : q
}

describe('split (the server arithmetic in cents)', () => {
  it('gives the design examples', () => {
    expect(split(49900, 1900, true)).toEqual({ net: 41933, vat: 7967, gross: 49900 })
    expect(split(2900, 1900, true)).toEqual({ net: 2437, vat: 463, gross: 2900 })
    expect(split(41933, 1900, false)).toEqual({ net: 41933, vat: 7967, gross: 49900 })
    expect(split(1000, 550, false)).toEqual({ net: 1000, vat: 55, gross: 1055 })
  })

  it('rounds half up exactly, and net + vat is gross', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), fc.constantFrom(0, 550, 700, 1700, 1900, 2000, 2100, 2550, 2700), (cents, rate) => {
        const incl = split(cents, rate, true)
        expect(BigInt(incl.vat)).toBe(halfUp(BigInt(cents) * BigInt(rate), BigInt(10000 + rate)))
        expect(incl.net + incl.vat).toBe(incl.gross)
        const excl = split(cents, rate, false)
        expect(BigInt(excl.vat)).toBe(halfUp(BigInt(cents) * BigInt(rate), 10000n))
        expect(excl.net + excl.vat).toBe(excl.gross)
      }),
    )
  })
})

describe('treatment (client copy of tax.api.treatment)', () => {
  it('charges the home rate until the country is known, and never 0 % on an unverified ID', () => {
    expect(treatment(tax(), 'consumer', null)).toEqual({ rate: 1900, kind: 'standard' })
    expect(treatment(tax(), 'consumer', 'FR')).toEqual({ rate: 1900, kind: 'standard' })
    expect(treatment(tax({ vat_oss: true }), 'consumer', 'FR')).toEqual({ rate: 2000, kind: 'standard' })
    expect(treatment(tax(), 'business', 'FR', 'valid')).toEqual({ rate: 0, kind: 'reverse_charge' })
    for (const status of [null, 'pending', 'invalid']) expect(treatment(tax(), 'business', 'FR', status)).toEqual({ rate: 1900, kind: 'standard' })
    expect(treatment(tax(), 'business', 'DE', 'valid')).toEqual({ rate: 1900, kind: 'standard' })
    expect(treatment(tax(), 'consumer', 'US')).toEqual({ rate: 0, kind: 'outside_eu' })
    expect(treatment(tax({ vat_mode: 'small_business' }), 'business', 'FR', 'valid')).toEqual({ rate: 0, kind: 'small_business' })
  })

  it('with gross prices and no VAT the buyer pays the full price as net', () => {
    expect(quoteLine(49900, { rate: 0, kind: 'reverse_charge' }, true)).toEqual({ net: 49900, vat: 0, gross: 49900 })
    expect(quoteLine(49900, { rate: 0, kind: 'reverse_charge' }, false)).toEqual({ net: 49900, vat: 0, gross: 49900 })
  })
})

describe('price wording', () => {
  it('consumers see gross incl. the rate, businesses net excl. VAT (gross prices)', () => {
    expect(priceView(tax(), 'consumer', 49900)).toEqual({ amount: 49900, was: null, note: 'incl. 19\u00a0% VAT', save: null })
    expect(priceView(tax(), 'business', 49900)).toEqual({ amount: 41933, was: null, note: 'excl. VAT', save: null })
  })

  it('net prices: consumers see net + VAT, businesses the price as entered', () => {
    const net = tax({ prices_include_vat: false })
    expect(priceView(net, 'consumer', 41933)).toMatchObject({ amount: 49900, note: 'incl. 19\u00a0% VAT' })
    expect(priceView(net, 'business', 41933)).toMatchObject({ amount: 41933, note: 'excl. VAT' })
  })

  it('small business: the price as entered and the § 19 line, for both', () => {
    const small = tax({ vat_mode: 'small_business' })
    for (const buyer of ['consumer', 'business'] as const) {
      expect(priceView(small, buyer, 49900)).toEqual({ amount: 49900, was: null, note: SMALL_BUSINESS_NOTE, save: null })
    }
    expect(SMALL_BUSINESS_NOTE).toBe('No VAT is charged (small business, § 19 UStG).')
  })

  it('the previous price and the saving use the basis of the shown price', () => {
    const consumer = priceView(tax(), 'consumer', 2900, 9700)
    const business = priceView(tax(), 'business', 2900, 9700)
    expect(consumer).toMatchObject({ amount: 2900, was: 9700, save: 70 })
    expect(business).toMatchObject({ amount: 2437, was: 8151, save: 70 })
    expect(savePercent(consumer.was, consumer.amount)).toBe(70)
    expect(savePercent(business.was, business.amount)).toBe(70)
    expect(savePercent(null, 2900)).toBeNull()
    expect(savePercent(2900, 2900)).toBeNull()
  })

  it('a catalogue without a tax block gets the server defaults', () => {
    expect(taxOf({})).toBe(DEFAULT_TAX)
    expect(taxOf({ tax: { vat_mode: 'small_business' } }).vat_mode).toBe('small_business')
  })
})
