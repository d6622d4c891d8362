/**
 * Client-side form checks and error plumbing shared by the account forms.
 * Messages are the spec's wording (accounts spec, section 5) and match the server's.
 */
import { useLayoutEffect, useRef, useSyncExternalStore, type RefObject } from 'react'
import { ApiError, errorMessage } from './api-client'

export const MSG_FILL_ALL = 'Please fill in all fields'
export const MSG_PASSWORD_MISMATCH = 'Passwords do not match'
export const MSG_PASSWORD_SHORT = 'Password must be at least 6 characters'
export const MSG_PASSWORD_LONG = 'Password must be at most 128 characters'
export const MSG_ACCEPT_TERMS = 'Please accept the Terms of Service and Privacy Policy'

export const MIN_PASSWORD_LENGTH = 6
export const MAX_PASSWORD_LENGTH = 128

/** A message for the form's red box plus the fields it concerns (marked invalid). */
export interface FormProblem {
  message: string
  fields: readonly string[]
  /** Per-field messages from the server (`error.fields`), shown under the fields. */
  fieldMessages?: Readonly<Record<string, string>>
}

export function problem(message: string, fields: readonly string[] = []): FormProblem {
  return { message, fields }
}

/** Names of the values that are empty (strings are trimmed, passwords are not special-cased). */
export function emptyFields(values: Readonly<Record<string, string>>): string[] {
  return Object.entries(values)
    .filter(([, value]) => value.trim() === '')
    .map(([name]) => name)
}

/** "All fields required" problem, or null when every value is filled in. */
export function requireAll(values: Readonly<Record<string, string>>): FormProblem | null {
  const missing = emptyFields(values)
  return missing.length > 0 ? problem(MSG_FILL_ALL, missing) : null
}

/** New-password checks in the spec's order: match, then length. */
export function checkNewPassword(
  password: string,
  confirm: string,
  names: { password: string; confirm: string },
): FormProblem | null {
  if (password !== confirm) return problem(MSG_PASSWORD_MISMATCH, [names.confirm])
  if (password.length < MIN_PASSWORD_LENGTH) return problem(MSG_PASSWORD_SHORT, [names.password])
  if (password.length > MAX_PASSWORD_LENGTH) return problem(MSG_PASSWORD_LONG, [names.password])
  return null
}

/** Turns a thrown value (usually {@link ApiError}) into a form problem. */
export function problemFromError(err: unknown): FormProblem {
  const fieldMessages = err instanceof ApiError ? err.fields : undefined
  return { message: errorMessage(err), fields: Object.keys(fieldMessages ?? {}), fieldMessages }
}

/**
 * False during prerender and the hydration render, true afterwards. Prerendered forms keep
 * their submit button disabled until React handles the submit (no native GET with a password).
 */
export function useHydrated(): boolean {
  // The server snapshot (false) is what prerender and the hydration render see; React then
  // re-renders with the client snapshot (true).
  return useSyncExternalStore(subscribeNever, clientSnapshot, serverSnapshot)
}

const subscribeNever = () => () => {}
const clientSnapshot = () => true
const serverSnapshot = () => false

/** Props marking one input invalid and pointing it at the form's error box. */
export function invalidProps(current: FormProblem | null, name: string, errorBoxId: string) {
  const flagged = current !== null && current.fields.includes(name)
  return flagged ? { invalid: true, describedBy: errorBoxId } : {}
}

/**
 * What a form's named fields hold now, by name (`fallback`, React's state, for a name the form
 * has no field for; a radio group gives its checked value, '' when none is). The public pages
 * are prerendered: a visitor or the browser's autofill may fill a field before or while React
 * hydrates it, and React's state never hears of that; the elements have it. Forms read their
 * fields with this when they are submitted.
 */
export function readFields<T extends Record<string, string>>(form: HTMLFormElement, fallback: T): T {
  const current: Record<string, string> = { ...fallback }
  for (const name of Object.keys(fallback)) {
    const field = form.elements.namedItem(name)
    if (field instanceof RadioNodeList) {
      current[name] = field.value
    } else if (field instanceof HTMLInputElement && (field.type === 'radio' || field.type === 'checkbox')) {
      current[name] = field.checked ? field.value : ''
    } else if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement) {
      current[name] = field.value
    }
  }
  return current as T
}

/**
 * The ref for a prerendered form whose fields React's state must take over as they are when
 * React hydrates them. Hydration keeps what a visitor or autofill put into a field, but React's
 * state does not know it, and the next render of the field would put the state ('') back. The
 * layout effect runs in the commit that hydrates the form, before any event can reach it, and
 * hands `adopt` the fields that differ from `initial` (React's state at that moment).
 */
export function useAdoptFilledFields<T extends Record<string, string>>(
  initial: T,
  adopt: (filled: T) => void,
): RefObject<HTMLFormElement | null> {
  const ref = useRef<HTMLFormElement>(null)
  const first = useRef({ initial, adopt })
  useLayoutEffect(() => {
    const form = ref.current
    if (!form) return
    const { initial: state, adopt: take } = first.current
    const filled = readFields(form, state)
    if (Object.keys(state).some((name) => filled[name] !== state[name])) take(filled)
  }, [])
  return ref
}
