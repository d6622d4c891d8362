/**
 * The order form's field rules against the case tables the server runs too: the client never
 * refuses what the server accepts (the server decides, and checks again), and says the
 * server's words.
 */
import { describe, expect, it } from 'vitest'
import domainTable from '@test/fixtures/domain-cases.json'
import emailTable from '@test/fixtures/email-cases.json'
import words from '@test/fixtures/rule-messages.json'
import { MSG_PASSWORD_LONG, MSG_PASSWORD_SHORT } from '../../lib/forms'
import { MSG_DOMAIN_INVALID, MSG_EMAIL_INVALID, MSG_EMAIL_REQUIRED, bareHost, fieldProblem } from './purchase-rules'

const domains = domainTable.cases as readonly { input: string; bare_host: string | null }[]
const emails = emailTable.cases as readonly { input: string; server: boolean }[]

describe('the order form rules', () => {
  it.each(domains)('domain $input: the host the server keeps, or refused', ({ input, bare_host }) => {
    expect(bareHost(input)).toBe(bare_host)
    if (input.trim() !== '') expect(fieldProblem('domain', input)).toBe(bare_host === null ? MSG_DOMAIN_INVALID : null)
  })

  it.each(emails)('e-mail $input: accepted when the server accepts it', ({ input, server }) => {
    if (server) expect(fieldProblem('email', input)).toBeNull()
  })

  it('refuses an address without a top-level domain, and says the server words', () => {
    expect(fieldProblem('email', 'max@mustermann')).toBe(MSG_EMAIL_INVALID)
    expect(fieldProblem('email', ' ')).toBe(MSG_EMAIL_REQUIRED)
    expect(MSG_EMAIL_INVALID).toBe(words.messages.email_invalid)
    expect(MSG_EMAIL_REQUIRED).toBe(words.messages.email)
    expect(MSG_DOMAIN_INVALID).toBe(words.messages.domain)
  })

  it('holds a password to 6 to 128 characters and a name to something', () => {
    expect(fieldProblem('password', '12345')).toBe(MSG_PASSWORD_SHORT)
    expect(fieldProblem('password', 'x'.repeat(129))).toBe(MSG_PASSWORD_LONG)
    expect(fieldProblem('password', 'secret')).toBeNull()
    expect(fieldProblem('full_name', '  ')).not.toBeNull()
    expect(fieldProblem('domain', '')).toBeNull() // optional
  })
})
