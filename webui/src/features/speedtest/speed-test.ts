/**
 * The speed-test pages' rules (marketing spec §5, §8, §9), kept apart from React so they are
 * tested on their own: what each page checks before any call, the score's rating, the scan
 * progress pace, and how figures are written. The server applies the same checks
 * (`speedtest/service/speedtests.py`: `check_request`; the domain rules are `lib/domains`)
 * and its messages are the same words.
 */
import { bareDomain, stripScheme, validHost } from '../../lib/domains'
// Only the shape: the rules stay free of the forms' code, which the score gauge's pages do not load.
import type { FormProblem } from '../../lib/forms'

/** The three pages that run a speed test; each is also the lead's source. */
export type SpeedSource = 'speed-test' | 'clinic-speed-test' | 'coach-speed-test'

export const MSG_URL_REQUIRED = 'Please enter a website URL'
export const MSG_EMAIL_REQUIRED = 'Please enter your email address'
export const EXAMPLE_HOST = 'example.com'
export const MSG_BAD_DOMAIN = `Please enter a valid domain (e.g., ${EXAMPLE_HOST})`
/** A failure with no message of its own (a lost connection, an answer we cannot read). */
export const MSG_GENERIC = 'Failed to test website speed.'

/** The clinic and coach pages' cleaning is stripScheme; the generic page's is bareDomain (stripGeneric). */
export { bareDomain as stripGeneric, stripScheme, validHost }

/** What a page tests, as shown while it runs ("Testing example.com"). */
export function displayDomain(source: SpeedSource, raw: string): string {
  if (source === 'speed-test') return bareDomain(raw).toLowerCase()
  return stripScheme(raw).split(/[/?#]/, 1)[0] ?? ''
}

/** The speed-test form's fields, in the order the cursor goes to the one a problem concerns. */
export const SPEED_FIELDS = ['url', 'email'] as const
export type SpeedField = (typeof SPEED_FIELDS)[number]

/**
 * The checks a page makes before any call, in the spec's order: URL present, e-mail present,
 * then (generic page only) the domain's form. The clinic and coach pages only require both
 * fields. Null when the request may be sent.
 */
export function checkSpeedTest(source: SpeedSource, url: string, email: string): FormProblem | null {
  if (url.trim() === '') return concerning('url', MSG_URL_REQUIRED)
  if (email.trim() === '') return concerning('email', MSG_EMAIL_REQUIRED)
  if (source === 'speed-test' && !validHost(bareDomain(url))) return concerning('url', MSG_BAD_DOMAIN)
  return null
}

/** The problem `message`, concerning the one field `field`. */
function concerning(field: SpeedField, message: string): FormProblem {
  return { message, fields: { [field]: message } }
}

export type RatingLabel = 'Excellent' | 'Needs Improvement' | 'Poor'
export type RatingTone = 'good' | 'fair' | 'poor'

/** 90 and above Excellent (green), 70-89 Needs Improvement (yellow), below 70 Poor (red). */
export function ratingFor(score: number): { label: RatingLabel; tone: RatingTone } {
  if (score >= 90) return { label: 'Excellent', tone: 'good' }
  if (score >= 70) return { label: 'Needs Improvement', tone: 'fair' }
  return { label: 'Poor', tone: 'poor' }
}

/** A score below 90 shows the 'Too Slow' panel and 'Fix My Website Now'. */
export function isTooSlow(score: number): boolean {
  return score < 90
}

/** The spec's scan: about 25 seconds (the bar's beat is lib/use-polled-job's usePacedProgress). */
export const SCAN_MS = 25_000
/** Where the spec's straight pace stops; past it the bar only creeps towards (never to) 99. */
const STEADY_UNTIL = 90
const CREEP_MS = 30_000

/**
 * The bar's value (0-100) `elapsedMs` after the scan started: the spec's pace (100% at 25 s)
 * up to 90%, then slower and slower, always below 99, so a test that takes longer never sits
 * at 100% waiting. It only grows with time; the page sets 100 itself when the test is done.
 */
export function scanProgress(elapsedMs: number): number {
  const t = Math.max(0, elapsedMs)
  const steady = (t / SCAN_MS) * 100
  if (steady <= STEADY_UNTIL) return steady
  const past = t - (STEADY_UNTIL / 100) * SCAN_MS
  return STEADY_UNTIL + 9 * (1 - Math.exp(-past / CREEP_MS))
}

/** 3180 -> "3.2 s" (one decimal, as the report e-mail writes it). */
export function seconds(ms: number): string {
  return `${(Math.round(ms / 100) / 10).toFixed(1)} s`
}

/** 1234 -> "1,234 ms". */
export function milliseconds(ms: number): string {
  return `${String(Math.round(ms)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} ms`
}

/** CLS as Lighthouse shows it: two decimals (0.1 -> "0.10"). */
export function layoutShift(value: number): string {
  return value.toFixed(2)
}

/**
 * Below this many, 'websites tested this month' is not shown: a small number says little,
 * and the line never claims more than the server counted.
 */
export const MIN_TESTED_SHOWN = 10

/** The line under the form, from the server's count (null: nothing to show). */
export function testedThisMonthText(websites: number | null): string | null {
  if (websites === null || !Number.isInteger(websites) || websites < MIN_TESTED_SHOWN) return null
  return `${websites.toLocaleString('en-US')} websites tested this month.`
}
