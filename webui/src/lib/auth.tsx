import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { api, ApiError, errorMessage, type RequestBody } from './api-client'
import type { components } from './api-schema'

/** The signed-in user as returned by `GET /api/auth/me` (`{user: {...}}`). */
export type User = components['schemas']['UserOut']

export type SignUpInput = Required<NonNullable<RequestBody<typeof AUTH_SIGNUP_PATH, 'post'>>>

export interface AuthState {
  user: User | null
  /** True until the first `/api/auth/me` answer arrives (and while refreshing or signing in). */
  isLoading: boolean
  error: string | null
  refresh: () => Promise<User | null>
  /** `POST /api/auth/login`; sets the user from the answer. Throws {@link ApiError}. */
  signIn: (email: string, password: string, remember: boolean) => Promise<User>
  /** `POST /api/auth/signup`; sets the user from the answer. Throws {@link ApiError}. */
  signUp: (input: SignUpInput) => Promise<User>
  signOut: () => Promise<void>
  /** Replaces the current user with a fresh copy from the server (profile or e-mail change). */
  applyUser: (user: User) => void
  /** Forgets the user locally, e.g. after the account was deleted (the server ended the session). */
  forgetUser: () => void
}

const AuthContext = createContext<AuthState | null>(null)

export const AUTH_ME_PATH = '/api/auth/me'
export const AUTH_LOGOUT_PATH = '/api/auth/logout'
export const AUTH_LOGIN_PATH = '/api/auth/login'
export const AUTH_SIGNUP_PATH = '/api/auth/signup'
/** Set by the server next to the (HttpOnly) session cookie; holds no secret. Without it
 * nobody is signed in, so visitors make no API call at all. */
export const SIGNED_IN_HINT = 'agency_signed_in'

export function hasSignedInHint(): boolean {
  return typeof document !== 'undefined' && document.cookie.split('; ').includes(`${SIGNED_IN_HINT}=1`)
}

function clearSignedInHint(): void {
  document.cookie = `${SIGNED_IN_HINT}=; Max-Age=0; path=/; SameSite=Lax`
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null)
  const [isLoading, setIsLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)

  const refresh = useCallback(async (): Promise<User | null> => {
    setIsLoading(true)
    if (!hasSignedInHint()) {
      setUser(null)
      setError(null)
      setIsLoading(false)
      return null
    }
    try {
      const data = await api.get(AUTH_ME_PATH)
      const next = data?.user ?? null
      setUser(next)
      setError(null)
      return next
    } catch (err) {
      setUser(null)
      // 401 simply means "nobody is signed in" (the session ended elsewhere).
      const signedOut = err instanceof ApiError && err.status === 401
      if (signedOut) clearSignedInHint()
      setError(signedOut ? null : errorMessage(err))
      return null
    } finally {
      setIsLoading(false)
    }
  }, [])

  /** Shared by sign-in and sign-up: loading on, error cleared, user from the answer. */
  const authenticate = useCallback(async (send: () => Promise<{ user: User }>): Promise<User> => {
    setIsLoading(true)
    setError(null)
    try {
      const data = await send()
      setUser(data.user)
      return data.user
    } finally {
      setIsLoading(false)
    }
  }, [])

  const signIn = useCallback(
    (email: string, password: string, remember: boolean) =>
      authenticate(() => api.post(AUTH_LOGIN_PATH, { email, password, remember })),
    [authenticate],
  )

  const signUp = useCallback((input: SignUpInput) => authenticate(() => api.post(AUTH_SIGNUP_PATH, input)), [authenticate])

  const signOut = useCallback(async () => {
    try {
      await api.post(AUTH_LOGOUT_PATH)
    } catch {
      // The local state is cleared whatever the server answered.
    }
    setUser(null)
    setError(null)
  }, [])

  const applyUser = useCallback((next: User) => {
    setUser(next)
    setError(null)
  }, [])

  const forgetUser = useCallback(() => {
    clearSignedInHint()
    setUser(null)
    setError(null)
  }, [])

  // Runs after hydration only, so server HTML and the first client render agree
  // (both show the visitor buttons). As a transition: a context change would otherwise make
  // React finish hydrating the whole page at once, in one long task.
  useEffect(() => {
    startTransition(() => {
      void refresh()
    })
  }, [refresh])

  const value = useMemo<AuthState>(
    () => ({ user, isLoading, error, refresh, signIn, signUp, signOut, applyUser, forgetUser }),
    [user, isLoading, error, refresh, signIn, signUp, signOut, applyUser, forgetUser],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

/** "Ada Lovelace", else the e-mail. */
export function displayName(user: Pick<User, 'first_name' | 'last_name' | 'email'>): string {
  const full = [user.first_name, user.last_name].map((part) => part?.trim() ?? '').filter(Boolean).join(' ')
  return full || user.email
}

/** The avatar letter: first letter of the first name, else of the e-mail, upper-case. */
export function avatarInitial(user: Pick<User, 'first_name' | 'email'>): string {
  const source = user.first_name?.trim() || user.email.trim()
  return (Array.from(source)[0] ?? '?').toUpperCase()
}

/**
 * Where to go back to after logging in: only same-site paths ("/dashboard/settings"),
 * never "//evil.example" or "/\\evil.example" (browsers treat those as other hosts).
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null
  if (value.startsWith('//') || value.startsWith('/\\')) return null
  // Control characters (tabs, newlines) are stripped by URL parsers and could rebuild "//".
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return null
  if (value === '/login' || value.startsWith('/login?') || value.startsWith('/signup')) return null
  return value
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext)
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>')
  return ctx
}
