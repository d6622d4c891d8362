import { describe, expect, it } from 'vitest'
import {
  DEFAULT_HOURS,
  DEFAULT_RATE,
  MAX_HOURS,
  MAX_RATE,
  contentRoi,
  formatEuro,
  formatPercent,
  roiFromInputs,
} from './content-roi'

/** Small deterministic PRNG (mulberry32) so the property checks are reproducible. */
function rng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('contentRoi', () => {
  it('measures the spec defaults (2,000 weekly, 8,000 monthly) against the plan\'s real price', () => {
    expect(contentRoi(DEFAULT_HOURS, DEFAULT_RATE, 199)).toEqual({ weekly: 2000, monthly: 8000, roiPercent: (8000 / 199) * 100 })
    const state = roiFromInputs('20', '100', 199)
    expect(state.ok && [formatEuro(state.result.weekly), formatEuro(state.result.monthly), formatPercent(state.result.roiPercent)]).toEqual([
      '€2,000',
      '€8,000',
      '4,020%',
    ])
    // Never the old fixed €400 basis: a €39 plan gives 20,513%.
    const plan = roiFromInputs('20', '100', 39)
    expect(plan.ok && formatPercent(plan.result.roiPercent)).toBe('20,513%')
  })

  it('has no ROI before the price is known', () => {
    expect(Number.isNaN(contentRoi(20, 100, null).roiPercent)).toBe(true)
    expect(Number.isNaN(contentRoi(20, 100, 0).roiPercent)).toBe(true)
  })

  it('responds to both inputs', () => {
    expect(contentRoi(10, 100, 400)).toEqual({ weekly: 1000, monthly: 4000, roiPercent: 1000 })
    expect(contentRoi(20, 50, 400)).toEqual({ weekly: 1000, monthly: 4000, roiPercent: 1000 })
    expect(contentRoi(0, 100, 400)).toEqual({ weekly: 0, monthly: 0, roiPercent: 0 })
    expect(contentRoi(2.5, 80, 400)).toEqual({ weekly: 200, monthly: 800, roiPercent: 200 })
  })

  it('property: over many valid inputs the figures are finite, consistent and monotonic', () => {
    const next = rng(20261123)
    for (let i = 0; i < 2000; i++) {
      const hours = Math.round(next() * MAX_HOURS * 2) / 2
      const rate = Math.round(next() * MAX_RATE)
      const cost = 1 + Math.round(next() * 5000)
      const r = contentRoi(hours, rate, cost)
      expect(Number.isFinite(r.weekly) && Number.isFinite(r.monthly) && Number.isFinite(r.roiPercent)).toBe(true)
      expect(r.weekly).toBeCloseTo(hours * rate, 6)
      expect(r.monthly).toBeCloseTo(r.weekly * 4, 6)
      expect(r.roiPercent).toBeCloseTo((r.monthly / cost) * 100, 6)
      expect(r.roiPercent).toBeGreaterThanOrEqual(0)
      // More hours or a higher rate never lowers the result.
      expect(contentRoi(hours + 1, rate, cost).roiPercent).toBeGreaterThanOrEqual(r.roiPercent)
      expect(contentRoi(hours, rate + 1, cost).roiPercent).toBeGreaterThanOrEqual(r.roiPercent)
      // A dearer plan never shows a higher return.
      expect(contentRoi(hours, rate, cost + 1).roiPercent).toBeLessThanOrEqual(r.roiPercent)
      // The text path agrees with the number path, and the formatted output never says NaN.
      const state = roiFromInputs(String(hours), String(rate), cost)
      expect(state.ok).toBe(true)
      if (state.ok) {
        expect(state.result).toEqual(r)
        expect(`${formatEuro(state.result.monthly)} ${formatPercent(state.result.roiPercent)}`).not.toMatch(/NaN|Infinity/)
      }
    }
  })

  it('property: any text that is not a sane number gives a message, never a result', () => {
    const next = rng(7)
    const bad = ['', '   ', 'abc', '-1', '-0.5', '1e400', 'Infinity', 'NaN', String(MAX_HOURS + 1), '1e9']
    for (let i = 0; i < 200; i++) bad.push(String(-(next() * 1000 + 0.01)))
    for (const text of bad) {
      const state = roiFromInputs(text, '100', 199)
      expect(state.ok).toBe(false)
      expect(state.hoursError).toEqual(expect.any(String))
      expect(state.rateError).toBeNull()
    }
  })

  it('explains each bad input clearly', () => {
    expect(roiFromInputs('', '100', 199)).toMatchObject({ ok: false, hoursError: 'Enter the hours you spend on content each week.' })
    expect(roiFromInputs('-3', '100', 199)).toMatchObject({ ok: false, hoursError: 'Hours per week cannot be negative.' })
    expect(roiFromInputs('500', '100', 199)).toMatchObject({ ok: false, hoursError: 'A week has 168 hours: enter 168 or less.' })
    expect(roiFromInputs('20', '', 199)).toMatchObject({ ok: false, hoursError: null, rateError: 'Enter what an hour of your time is worth.' })
    expect(roiFromInputs('20', '99999999', 199)).toMatchObject({ ok: false, rateError: 'Enter an hourly value of €10,000 or less.' })
    expect(roiFromInputs('x', '-1', 199)).toMatchObject({ ok: false, hoursError: 'Hours per week must be a number.', rateError: 'Hourly value cannot be negative.' })
    expect(roiFromInputs(String(MAX_HOURS), String(MAX_RATE), 199).ok).toBe(true)
  })
})
