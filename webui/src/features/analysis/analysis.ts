/**
 * The AI website-analysis pages' rules (marketing spec §4, §5, §9), kept apart from React so
 * they are tested on their own: each page's checks and messages before any call, the domain
 * rule, the score labels, the progress pace and the spec's fixed figures. The server applies
 * the same checks (`analysis/service/analyses.py`) with the same words.
 */
import { bareDomain } from '../../lib/domains'
// Only the shape: the rules stay free of the forms' code.
import type { FormProblem } from '../../lib/forms'

/** The four pages (DECISIONS.md route mapping); each is also the lead's source. */
export type AnalysisSource = 'ai-analysis' | 'business-analysis' | 'technical-analysis' | 'agency-analysis'
export type AnalysisVariant = 'general' | 'lead' | 'technical' | 'agency'

export const VARIANT_OF: Readonly<Record<AnalysisSource, AnalysisVariant>> = {
  'ai-analysis': 'general',
  'business-analysis': 'lead',
  'technical-analysis': 'technical',
  'agency-analysis': 'agency',
}

export const EXAMPLE_HOST = 'example.com'
export const MSG_BAD_DOMAIN = `Please enter a valid domain (e.g., ${EXAMPLE_HOST})`
/** A failure with no message of its own (a lost connection, an answer we cannot read). */
export const MSG_GENERIC = 'Failed to analyze the website. Please try again.'

/** Each page's two presence messages (spec §5). */
export const MESSAGES: Readonly<Record<AnalysisVariant, { url: string; email: string }>> = {
  general: { url: 'Please enter a website URL', email: 'Please enter your email address' },
  lead: { url: 'Please enter your website URL', email: 'Please enter your email address' },
  technical: { url: 'Please enter your website URL', email: 'Please enter your email address' },
  agency: { url: "Please enter your client's website URL", email: 'Please enter your agency email address' },
}

/** The analysis cleaning: trimmed, leading http(s):// and www. removed, one trailing slash removed. */
export { bareDomain as stripAnalysis }

/**
 * Spec §5: one name of 3 to 63 letters, digits or hyphens (letter or digit at both ends), a dot
 * and 2 to 63 letters; no subdomain, port, path or trailing dot. The server's
 * `core.text.single_label_domain`; it stays here rather than in ./domains so that the
 * speed-test pages, which load ./domains first, do not carry it. Run by domains.test.ts.
 */
const SINGLE_LABEL = /^[A-Za-z0-9][A-Za-z0-9-]{1,61}[A-Za-z0-9]\.[A-Za-z]{2,63}$/
export function validAnalysisDomain(domain: string): boolean {
  return SINGLE_LABEL.test(domain)
}

/** The analysis form's fields, in the order the cursor goes to the one a problem concerns. */
export const ANALYSIS_FIELDS = ['url', 'email'] as const
export type AnalysisField = (typeof ANALYSIS_FIELDS)[number]

/** The checks before any call, in the spec's order: URL present, e-mail present, domain form. */
export function checkAnalysis(variant: AnalysisVariant, url: string, email: string): FormProblem | null {
  if (url.trim() === '') return concerning('url', MESSAGES[variant].url)
  if (email.trim() === '') return concerning('email', MESSAGES[variant].email)
  if (!validAnalysisDomain(bareDomain(url))) return concerning('url', MSG_BAD_DOMAIN)
  return null
}

/** The problem `message`, concerning the one field `field`. */
function concerning(field: AnalysisField, message: string): FormProblem {
  return { message, fields: { [field]: message } }
}

export type ScoreTone = 'good' | 'ok' | 'fair' | 'poor'

/** 80+ Excellent (green), 60-79 Good (blue), 40-59 Fair (yellow), below 40 'Needs Work' (red; 'Critical' on the technical page). */
export function scoreLabel(score: number, variant: AnalysisVariant): { label: string; tone: ScoreTone } {
  if (score >= 80) return { label: 'Excellent', tone: 'good' }
  if (score >= 60) return { label: 'Good', tone: 'ok' }
  if (score >= 40) return { label: 'Fair', tone: 'fair' }
  return { label: variant === 'technical' ? 'Critical' : 'Needs Work', tone: 'poor' }
}

/** The spec's cosmetic bar: 0 to 100 over 45 seconds (its beat is lib/use-polled-job's usePacedProgress). */
export const ANALYSIS_MS = 45_000
const STEADY_UNTIL = 90
const CREEP_MS = 40_000

/**
 * The bar's value (0-100) `elapsedMs` after the analysis started: the spec's pace (100 % at
 * 45 s) up to 90 %, then slower and slower, always below 99, so a long job never sits at
 * 100 % waiting. It only grows; the page sets 100 itself when the job ends.
 */
export function analysisProgress(elapsedMs: number): number {
  const t = Math.max(0, elapsedMs)
  const steady = (t / ANALYSIS_MS) * 100
  if (steady <= STEADY_UNTIL) return steady
  const past = t - (STEADY_UNTIL / 100) * ANALYSIS_MS
  return STEADY_UNTIL + 9 * (1 - Math.exp(-past / CREEP_MS))
}

/** Spec §9's fixed figures. */
export const INDUSTRY_STANDARD_SECONDS = 2
export const RECOMMENDED_RESPONSE_SECONDS = 0.2
export const BLOCKING_CRITICAL_MS = 300

/**
 * Whether a speed score is 'too slow' (below 90), the speed test's own line (`isTooSlow` of
 * features/speedtest, which a test keeps equal): here so the analysis pages' first load does
 * not carry the speed test's rules, which only the results need.
 */
export function tooSlow(score: number): boolean {
  return score < 90
}
