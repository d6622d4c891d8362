/**
 * ROI of the AI content engine (the calculator on /ai-scale-startup*). Pure functions, no React.
 *
 * weekly value  = hours per week spent on content x hourly value
 * monthly value = weekly value x 4
 * ROI           = monthly value / the price of the plan the page sells x 100
 *                 (its monthly price, or a one-time price against the first month's value)
 * Defaults (20 h at EUR 100) give 2,000 weekly and 8,000 monthly: against the Builder's
 * EUR 199 that is 4,020%, against the Plan's EUR 39 a month 20,513%.
 */

import { formatCurrencyWhole, formatNumber } from '../../lib/money'

export const WEEKS_PER_MONTH = 4
export const DEFAULT_HOURS = 20
export const DEFAULT_RATE = 100
/** Upper bounds of sensible input: a week has 168 hours; EUR 10,000 an hour is already generous. */
export const MAX_HOURS = 168
export const MAX_RATE = 10_000

export interface RoiResult {
  weekly: number
  monthly: number
  /** Percentage, e.g. 2000 for 2,000%. */
  roiPercent: number
}

/** The figures for valid (finite, non-negative) numbers against `cost` euros (the plan's
 * price, above zero); without a cost (the plan not loaded yet) the ROI is NaN. */
export function contentRoi(hoursPerWeek: number, hourlyValue: number, cost: number | null): RoiResult {
  const weekly = hoursPerWeek * hourlyValue
  const monthly = weekly * WEEKS_PER_MONTH
  return { weekly, monthly, roiPercent: cost !== null && cost > 0 ? (monthly / cost) * 100 : Number.NaN }
}

export type ParsedNumber = { ok: true; value: number } | { ok: false; message: string }

interface Bounds {
  /** What to ask for when the field is empty, e.g. "Enter the hours you spend on content each week." */
  empty: string
  /** Noun used in messages, e.g. "Hours". */
  noun: string
  max: number
  /** Message for a value above `max`. */
  tooBig: string
}

/** Reads one input's text; every bad value gets a clear message instead of a NaN. */
export function parseInput(text: string, bounds: Bounds): ParsedNumber {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, message: bounds.empty }
  const value = Number(trimmed)
  if (!Number.isFinite(value)) return { ok: false, message: `${bounds.noun} must be a number.` }
  if (value < 0) return { ok: false, message: `${bounds.noun} cannot be negative.` }
  if (value > bounds.max) return { ok: false, message: bounds.tooBig }
  return { ok: true, value }
}

export const HOURS_BOUNDS: Bounds = {
  empty: 'Enter the hours you spend on content each week.',
  noun: 'Hours per week',
  max: MAX_HOURS,
  tooBig: `A week has ${MAX_HOURS} hours: enter ${MAX_HOURS} or less.`,
}

export const RATE_BOUNDS: Bounds = {
  empty: 'Enter what an hour of your time is worth.',
  noun: 'Hourly value',
  max: MAX_RATE,
  tooBig: 'Enter an hourly value of €10,000 or less.',
}

export type RoiState =
  | { ok: true; result: RoiResult; hoursError: null; rateError: null }
  | { ok: false; result: null; hoursError: string | null; rateError: string | null }

/** Both inputs as typed -> the result against `cost` euros, or a message per bad field. */
export function roiFromInputs(hoursText: string, rateText: string, cost: number | null): RoiState {
  const hours = parseInput(hoursText, HOURS_BOUNDS)
  const rate = parseInput(rateText, RATE_BOUNDS)
  if (hours.ok && rate.ok) return { ok: true, result: contentRoi(hours.value, rate.value, cost), hoursError: null, rateError: null }
  return { ok: false, result: null, hoursError: hours.ok ? null : hours.message, rateError: rate.ok ? null : rate.message }
}

/** "€2,000" (rounded to whole euros). */
export const formatEuro = (n: number) => formatCurrencyWhole(Math.round(n))
/** "2,000%" (rounded to a whole percent). */
export const formatPercent = (n: number) => `${formatNumber(Math.round(n))}%`
