import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { api, ApiError, errorMessage } from './api-client'

export type UserRole = 'customer' | 'admin'

/** The signed-in user as returned by `GET /api/auth/me` (`{user: {...}}`). */
export interface User {
  id: string | number
  email: string
  first_name?: string | null
  last_name?: string | null
  avatar_url?: string | null
  role?: UserRole | string
}

export interface AuthState {
  user: User | null
  /** True until the first `/api/auth/me` answer arrives (and while refreshing). */
  isLoading: boolean
  error: string | null
  refresh: () => Promise<User | null>
  signOut: () => Promise<void>
}

const AuthContext = createContext<AuthState | null>(null)

export const AUTH_ME_PATH = '/api/auth/me'
export const AUTH_LOGOUT_PATH = '/api/auth/logout'
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
      const data = await api.get<{ user: User | null }>(AUTH_ME_PATH)
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

  const signOut = useCallback(async () => {
    try {
      await api.post<unknown>(AUTH_LOGOUT_PATH)
    } catch {
      // The local state is cleared whatever the server answered.
    }
    setUser(null)
    setError(null)
  }, [])

  // Runs after hydration only, so server HTML and the first client render agree
  // (both show the visitor buttons).
  useEffect(() => {
    void refresh()
  }, [refresh])

  const value = useMemo<AuthState>(
    () => ({ user, isLoading, error, refresh, signOut }),
    [user, isLoading, error, refresh, signOut],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext)
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>')
  return ctx
}
