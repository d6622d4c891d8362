import { describe, expect, it } from 'vitest'
import { greeting, NEW_ACCOUNT_MS } from './greeting'

const now = Date.parse('2026-11-27T12:00:00Z')
const old = '2026-01-01T00:00:00Z'
const fresh = new Date(now - 5 * 60 * 1000).toISOString()

describe('greeting', () => {
  it('greets a returning customer by first name', () => {
    expect(greeting({ first_name: 'Ada', created_at: old }, now)).toBe('Welcome back, Ada')
    expect(greeting({ first_name: '  Ada ', created_at: old }, now)).toBe('Welcome back, Ada')
  })

  it('says "Welcome", not "Welcome back", to a new account (a first-time buyer)', () => {
    expect(greeting({ first_name: 'Ada', created_at: fresh }, now)).toBe('Welcome, Ada')
    expect(greeting({ first_name: '', created_at: fresh }, now)).toBe('Welcome')
    const edge = new Date(now - NEW_ACCOUNT_MS).toISOString()
    expect(greeting({ first_name: 'Ada', created_at: edge }, now)).toBe('Welcome back, Ada')
  })

  it('never stands in "there" or the e-mail for a missing name', () => {
    expect(greeting({ first_name: '', created_at: old }, now)).toBe('Welcome back')
    expect(greeting({ first_name: '   ', created_at: old }, now)).toBe('Welcome back')
  })
})
