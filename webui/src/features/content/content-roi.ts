/**
 * ROI of the AI content engine (the calculator on /ai-scale-startup*). Pure functions, no React.
 *
 * weekly value  = hours per week spent on content x hourly value
 * monthly value = weekly value x 4
 * ROI           = monthly value / monthly cost basis (EUR 400) x 100
 * Defaults (20 h at EUR 100) give 2,000 weekly, 8,000 monthly and 2,000%.
 */

import { formatCurrencyWhole, formatNumber } from '../../lib/money'

/** Monthly cost basis the ROI is measured against (stated on the page). */
export const ROI_COST_BASIS = 400
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

/** The figures for valid (finite, non-negative) numbers. */
export function contentRoi(hoursPerWeek: number, hourlyValue: number): RoiResult {
  const weekly = hoursPerWeek * hourlyValue
  const monthly = weekly * WEEKS_PER_MONTH
  return { weekly, monthly, roiPercent: (monthly / ROI_COST_BASIS) * 100 }
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

/** Both inputs as typed -> the result, or a message per bad field. */
export function roiFromInputs(hoursText: string, rateText: string): RoiState {
  const hours = parseInput(hoursText, HOURS_BOUNDS)
  const rate = parseInput(rateText, RATE_BOUNDS)
  if (hours.ok && rate.ok) return { ok: true, result: contentRoi(hours.value, rate.value), hoursError: null, rateError: null }
  return { ok: false, result: null, hoursError: hours.ok ? null : hours.message, rateError: rate.ok ? null : rate.message }
}

/** "€2,000" (rounded to whole euros). */
export const formatEuro = (n: number) => formatCurrencyWhole(Math.round(n))
/** "2,000%" (rounded to a whole percent). */
export const formatPercent = (n: number) => `${formatNumber(Math.round(n))}%`
