/**
 * The order form's field rules, checked when a field is left: the client's copies of the rules
 * the server applies to a checkout (billing/service/checkout.py `field_problems`: auth's e-mail
 * and password rules, the domain rule `bare_host`). The server checks again and its per-field messages are
 * shown at the fields.
 */
import { looksLikeEmail } from '../../lib/emails'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, MSG_PASSWORD_LONG, MSG_PASSWORD_SHORT } from '../../lib/forms'

export const MSG_NAME_REQUIRED = 'Please enter your full name'
export const MSG_EMAIL_REQUIRED = 'Please enter your email address'
export const MSG_EMAIL_INVALID = 'Please enter a valid email address'
export const MSG_PASSWORD_REQUIRED = 'Please enter a password'
export const MSG_DOMAIN_INVALID = 'Please enter a valid domain (e.g., example.com)'

const ANY_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
// Python's `$` also matches before a final line break; so does this copy.
const BARE_HOST = new RegExp(`^(?:${LABEL}\\.)+[a-z]{2,63}\n?$`)

/** The client's copy of the server's `bare_host` (core/text.py; sites.clean_domain, checkout):
 * the host of an address however typed, or null when the server refuses it. */
export function bareHost(raw: string): string | null {
  let value = raw.trim().toLowerCase().replace(ANY_SCHEME, '')
  value = (value.split('/')[0] ?? '').split('?')[0] ?? ''
  value = (value.split('#')[0] ?? '').replace(/\.+$/, '')
  if (value.startsWith('www.')) value = value.slice(4)
  return value.length <= 253 && BARE_HOST.test(value) ? value : null
}

export type CheckedField = 'full_name' | 'email' | 'password' | 'domain'
export const CHECKED_FIELDS: readonly CheckedField[] = ['full_name', 'email', 'password', 'domain']

/** The message for a field's value, or null when the value is fine. */
export function fieldProblem(name: CheckedField, value: string): string | null {
  switch (name) {
    case 'full_name':
      return value.trim() === '' ? MSG_NAME_REQUIRED : null
    case 'email': {
      const email = value.trim()
      if (email === '') return MSG_EMAIL_REQUIRED
      return looksLikeEmail(email) ? null : MSG_EMAIL_INVALID
    }
    case 'password':
      if (value === '') return MSG_PASSWORD_REQUIRED
      if (value.length < MIN_PASSWORD_LENGTH) return MSG_PASSWORD_SHORT
      if (value.length > MAX_PASSWORD_LENGTH) return MSG_PASSWORD_LONG
      return null
    case 'domain':
      if (value.trim() === '') return null // optional
      return bareHost(value) === null ? MSG_DOMAIN_INVALID : null
  }
}
