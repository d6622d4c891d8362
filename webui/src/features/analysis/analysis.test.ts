import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ANALYSIS_MS,
  MESSAGES,
  MSG_BAD_DOMAIN,
  analysisProgress,
  checkAnalysis,
  scoreLabel,
  stripAnalysis,
  tooSlow,
  validAnalysisDomain,
  type AnalysisVariant,
} from './analysis'
import { isTooSlow } from '../speedtest'

const VARIANTS: AnalysisVariant[] = ['general', 'lead', 'technical', 'agency']
const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
const alnum = `${letters}0123456789`
const char = (set: string) => fc.constantFrom(...set.split(''))
const str = (set: string, min: number, max: number) => fc.string({ unit: char(set), minLength: min, maxLength: max })
/** A name the rule accepts: 3-63 letters, digits or hyphens, letter or digit at both ends. */
const name = fc.tuple(str(alnum, 1, 1), str(`${alnum}-`, 1, 61), str(alnum, 1, 1)).map(([a, b, c]) => a + b + c)
const tld = str(letters, 2, 12)
const domain = fc.tuple(name, tld).map(([n, t]) => `${n}.${t}`)
const prefix = fc.constantFrom('', 'http://', 'https://', 'HTTPS://', 'www.', 'https://www.', 'http://WWW.')
const blank = fc.constantFrom('', ' ', '  ', '\t', ' \n ')
const variant = fc.constantFrom(...VARIANTS)

/** The rule as the spec says it, written out by hand. */
function reference(value: string): boolean {
  const dot = value.indexOf('.')
  if (dot < 0 || value.indexOf('.', dot + 1) >= 0) return false
  const [n, t] = [value.slice(0, dot), value.slice(dot + 1)]
  const isAlnum = (c: string) => alnum.includes(c)
  return (
    n.length >= 3 &&
    n.length <= 63 &&
    [...n].every((c) => isAlnum(c) || c === '-') &&
    isAlnum(n[0]!) &&
    isAlnum(n[n.length - 1]!) &&
    t.length >= 2 &&
    t.length <= 63 &&
    [...t].every((c) => letters.includes(c))
  )
}

describe("the analysis pages' checks (spec §5)", () => {
  it('a valid domain passes with or without scheme, www. and one trailing slash, on every page', () => {
    fc.assert(
      fc.property(variant, prefix, domain, fc.boolean(), blank, (v, pre, d, slash, pad) => {
        const typed = `${pad}${pre}${d}${slash ? '/' : ''}${pad}`
        expect(stripAnalysis(typed)).toBe(d)
        expect(checkAnalysis(v, typed, 'ann@example.com')).toBeNull()
      }),
    )
  })

  it('the URL is checked first, then the e-mail, then the domain, with each page its own words', () => {
    fc.assert(
      fc.property(variant, blank, blank, fc.string(), (v, url, email, junk) => {
        expect(checkAnalysis(v, url, junk)).toEqual({ message: MESSAGES[v].url, fields: { url: MESSAGES[v].url } })
        expect(checkAnalysis(v, `not a domain${junk}`, email)).toEqual({ message: MESSAGES[v].email, fields: { email: MESSAGES[v].email } })
        expect(checkAnalysis(v, 'not a domain', 'ann@example.com')).toEqual({ message: MSG_BAD_DOMAIN, fields: { url: MSG_BAD_DOMAIN } })
      }),
    )
  })

  it('subdomains, paths, short names, digits in the top-level part and IP addresses are refused', () => {
    const bad = fc.oneof(
      fc.tuple(name, domain).map(([sub, d]) => `${sub}.${d}`),
      fc.tuple(domain, fc.constantFrom('/page', '/a/b', '?q=1', ':8080', ' x', '_', '.')).map(([d, tail]) => d + tail),
      fc.tuple(str(alnum, 1, 2), tld).map(([n, t]) => `${n}.${t}`),
      fc.tuple(name, str('0123456789', 1, 3)).map(([n, d]) => `${n}.${d}`),
      fc.tuple(name, tld).map(([n, t]) => `-${n}.${t}`),
      fc.tuple(name, tld).map(([n, t]) => `${n}-.${t}`),
      fc.constantFrom('localhost', '127.0.0.1', 'example.c', `${'a'.repeat(64)}.com`, 'exa mple.com', 'https://', 'www.'),
    )
    fc.assert(
      fc.property(variant, bad, (v, typed) => {
        expect(checkAnalysis(v, typed, 'ann@example.com')).toEqual({ message: MSG_BAD_DOMAIN, fields: { url: MSG_BAD_DOMAIN } })
      }),
    )
  })

  it('the rule agrees with a plain reading of the spec on any string', () => {
    const near = fc.string({ unit: char(`${alnum}-._/ `), maxLength: 70 })
    fc.assert(fc.property(fc.oneof(near, domain, fc.string()), (value) => {
        expect(validAnalysisDomain(value)).toBe(reference(value))
      }),
    )
  })

  it('the messages are the spec words', () => {
    expect(MSG_BAD_DOMAIN).toBe('Please enter a valid domain (e.g., example.com)')
    expect(MESSAGES.general.url).toBe('Please enter a website URL')
    expect(MESSAGES.lead.url).toBe('Please enter your website URL')
    expect(MESSAGES.technical.url).toBe('Please enter your website URL')
    expect(MESSAGES.agency).toEqual({ url: "Please enter your client's website URL", email: 'Please enter your agency email address' })
  })
})

describe('score labels (spec §4)', () => {
  it('80 / 60 / 40, with Critical instead of Needs Work on the technical page', () => {
    fc.assert(
      fc.property(variant, fc.integer({ min: 0, max: 100 }), (v, score) => {
        const { label, tone } = scoreLabel(score, v)
        if (score >= 80) expect([label, tone]).toEqual(['Excellent', 'good'])
        else if (score >= 60) expect([label, tone]).toEqual(['Good', 'ok'])
        else if (score >= 40) expect([label, tone]).toEqual(['Fair', 'fair'])
        else expect([label, tone]).toEqual([v === 'technical' ? 'Critical' : 'Needs Work', 'poor'])
      }),
    )
    expect(scoreLabel(80, 'general').label).toBe('Excellent')
    expect(scoreLabel(79, 'general').label).toBe('Good')
    expect(scoreLabel(60, 'agency').label).toBe('Good')
    expect(scoreLabel(59, 'lead').label).toBe('Fair')
    expect(scoreLabel(40, 'technical').label).toBe('Fair')
    expect(scoreLabel(39, 'technical').label).toBe('Critical')
    expect(scoreLabel(39, 'agency').label).toBe('Needs Work')
  })
})

describe('the progress bar (spec §4: 45 s, 50 ms ticks)', () => {
  it('keeps the spec pace to 90 %, then only creeps, never reaching 99, never going back', () => {
    expect(analysisProgress(0)).toBe(0)
    expect(analysisProgress(ANALYSIS_MS / 2)).toBeCloseTo(50, 5)
    expect(analysisProgress(ANALYSIS_MS * 0.9)).toBeCloseTo(90, 5)
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 10 * ANALYSIS_MS }), fc.integer({ min: 0, max: ANALYSIS_MS }), (t, dt) => {
        const a = analysisProgress(t)
        const b = analysisProgress(t + dt)
        expect(a).toBeGreaterThanOrEqual(0)
        expect(b).toBeGreaterThanOrEqual(a)
        expect(b).toBeLessThan(99)
      }),
    )
  })
})

describe("the analysis pages' 'too slow' line", () => {
  it('is the speed test\'s own, for every score', () => {
    fc.assert(fc.property(fc.integer({ min: -5, max: 105 }), (score) => tooSlow(score) === isTooSlow(score)))
  })
})
