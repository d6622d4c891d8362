/**
 * The forms' one shape of problem, their reading of a submitted form, and the client-side
 * checks shared by the account forms. Messages are the spec's wording (accounts spec, section 5)
 * and match the server's.
 */
import { useSyncExternalStore } from 'react'
import { ApiError, errorMessage } from './api-client'

export const MSG_FILL_ALL = 'Please fill in all fields'
export const MSG_PASSWORD_MISMATCH = 'Passwords do not match'
export const MSG_PASSWORD_SHORT = 'Password must be at least 6 characters'
export const MSG_PASSWORD_LONG = 'Password must be at most 128 characters'
export const MSG_ACCEPT_TERMS = 'Please accept the Terms of Service and Privacy Policy'

export const MIN_PASSWORD_LENGTH = 6
export const MAX_PASSWORD_LENGTH = 128

/**
 * What is wrong with a submitted form, in the server's error shape: the red box's message and
 * the fields it concerns, each with its own message (the answer's `error.fields`, or the form's
 * own check). `code` is the server's error code when the server answered.
 */
export interface FormProblem {
  message: string
  fields: Readonly<Record<string, string>>
  code?: string
}

/** A problem found by the form itself: `message`, concerning `names` (each with that message). */
export function problem(message: string, names: readonly string[] = []): FormProblem {
  return { message, fields: Object.fromEntries(names.map((name) => [name, message])) }
}

/** Whether `current` concerns the field `name`. */
export function concerns(current: FormProblem | null, name: string): boolean {
  return current !== null && Object.hasOwn(current.fields, name)
}

/** Turns a thrown value (usually {@link ApiError}) into a form problem with the server's fields. */
export function problemFromError(err: unknown): FormProblem {
  if (err instanceof ApiError) return { message: errorMessage(err), fields: err.fields ?? {}, code: err.code }
  return { message: errorMessage(err), fields: {} }
}

/**
 * The named values of a submitted form ('' for a name it does not send: a radio group with
 * none checked, an unchecked box, a field it does not have). The public forms' inputs are
 * uncontrolled, so their elements are the only copy of what was typed, picked or autofilled,
 * before or after React hydrated the prerendered page.
 */
export function formValues<K extends string>(form: HTMLFormElement, names: readonly K[]): Record<K, string> {
  const data = new FormData(form)
  const values = {} as Record<K, string>
  for (const name of names) {
    const value = data.get(name)
    values[name] = typeof value === 'string' ? value : ''
  }
  return values
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
  return concerns(current, name) ? { invalid: true, describedBy: errorBoxId } : {}
}
