/**
 * The client's e-mail look against the case table the server runs too
 * (test/fixtures/email-cases.json; tests/test_rule_cases.py runs the server's rule).
 */
import { describe, expect, it } from 'vitest'
import table from '@test/fixtures/email-cases.json'
import { looksLikeEmail } from './emails'

interface EmailCase {
  input: string
  /** The server's rule (core.text.valid_email), which decides. */
  server: boolean
  /** This file's loose look. */
  client: boolean
  why: string
}

const cases = table.cases as readonly EmailCase[]

describe('the e-mail look (test/fixtures/email-cases.json)', () => {
  it.each(cases.map((c) => [c.why, c] as const))('%s', (_why, c) => {
    expect(looksLikeEmail(c.input)).toBe(c.client)
    // Never stricter than the server: what it accepts passes here.
    if (c.server) expect(looksLikeEmail(c.input)).toBe(true)
  })
})
