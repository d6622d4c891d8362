import type { User } from '../../lib/auth'

/** How long after the account was opened its holder is still new here: the first visit after
 * signing up or after a first purchase (which opens the account) is not a return. */
export const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000

/** The dashboard's greeting: "Welcome, Ada" on a new account, "Welcome back, Ada" after;
 * without a first name just "Welcome" / "Welcome back" (never a stand-in like "there"). */
export function greeting(user: Pick<User, 'first_name' | 'created_at'>, now: number = Date.now()): string {
  const opened = Date.parse(user.created_at)
  const isNew = Number.isFinite(opened) && now - opened < NEW_ACCOUNT_MS
  const first = user.first_name?.trim()
  const hello = isNew ? 'Welcome' : 'Welcome back'
  return first ? `${hello}, ${first}` : hello
}
