/**
 * The domain rules against the case table the server runs too (test/fixtures/domain-cases.json;
 * tests/test_rule_cases.py), and the client's copies of the server's words against
 * test/fixtures/rule-messages.json, which the server's test holds to its own constants.
 */
import { describe, expect, it } from 'vitest'
import table from '@test/fixtures/domain-cases.json'
import words from '@test/fixtures/rule-messages.json'
import { MESSAGES, MSG_BAD_DOMAIN as ANALYSIS_BAD_DOMAIN, MSG_GENERIC as ANALYSIS_FAILED, stripAnalysis, validAnalysisDomain } from '../features/analysis'
import { bareDomain, stripScheme, validHost } from './domains'
import {
  MSG_BAD_DOMAIN,
  MSG_EMAIL_REQUIRED,
  MSG_GENERIC,
  MSG_URL_REQUIRED,
  stripGeneric,
  stripScheme as speedTestStripScheme,
} from '../features/speedtest'
import { MSG_EMAIL, MSG_EMAIL_INVALID } from '../features/support'

interface DomainCase {
  input: string
  strip_scheme: string
  bare_domain: string
  single_label_domain: boolean
  valid_host: boolean
  /** The server's website-address rule; the client has no copy. */
  bare_host: string | null
  why: string
}

const cases = table.cases as readonly DomainCase[]

describe('the domain rules (test/fixtures/domain-cases.json)', () => {
  it.each(cases.map((c) => [c.why, c] as const))('%s', (_why, c) => {
    const bare = bareDomain(c.input)
    expect({
      strip_scheme: stripScheme(c.input),
      bare_domain: bare,
      single_label_domain: validAnalysisDomain(bare),
      valid_host: validHost(bare),
    }).toEqual({
      strip_scheme: c.strip_scheme,
      bare_domain: c.bare_domain,
      single_label_domain: c.single_label_domain,
      valid_host: c.valid_host,
    })
    // The pages' own names for the rules are the same functions.
    expect(stripGeneric(c.input)).toBe(bare)
    expect(speedTestStripScheme(c.input)).toBe(c.strip_scheme)
    expect(stripAnalysis(c.input)).toBe(bare)
  })
})

describe("the client's copies of the server's words (test/fixtures/rule-messages.json)", () => {
  it('each copy is the server\'s text', () => {
    const copies: Record<string, string[]> = {
      domain: [MSG_BAD_DOMAIN, ANALYSIS_BAD_DOMAIN],
      url: [MSG_URL_REQUIRED],
      email: [MSG_EMAIL_REQUIRED, MSG_EMAIL],
      email_invalid: [MSG_EMAIL_INVALID],
      ...Object.fromEntries(Object.entries(MESSAGES).map(([v, m]) => [`analysis_url.${v}`, [m.url]])),
      ...Object.fromEntries(Object.entries(MESSAGES).map(([v, m]) => [`analysis_email.${v}`, [m.email]])),
      speed_test_failed: [MSG_GENERIC],
      analysis_failed: [ANALYSIS_FAILED],
    }
    const server: Record<string, string> = words.messages
    expect(Object.keys(copies).sort()).toEqual(Object.keys(server).sort())
    for (const [key, texts] of Object.entries(copies)) {
      expect(texts, key).toEqual(texts.map(() => server[key]))
    }
  })
})
