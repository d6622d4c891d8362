import { useCallback, useEffect, useEffectEvent, useState } from 'react'
import { errorMessage } from './api-client'

/** What a dashboard page shows for data it loads: a spinner, an error with "Try again", or the data. */
export interface ApiData<T extends object> {
  /** The loaded value; null while loading and after an error. */
  data: T | null
  /** The message to show (`errorMessage` of what `load` threw); null unless the last load failed. */
  error: string | null
  loading: boolean
  /** Loads again (the "Try again" button): back to loading, previous data and error dropped. */
  reload: () => void
}

interface Settled<T> {
  key: string
  attempt: number
  data: T | null
  error: string | null
}

/**
 * Loads data for the dashboard: `load` runs on mount, whenever `key` changes and on `reload()`.
 * Until it settles the page shows its loading state (no stale data: a new key or a reload starts
 * from nothing, as the pages always did). A response that arrives after the key changed, after a
 * reload or after unmount is ignored, and its `signal` is aborted then.
 *
 * `key` names what is loaded (say the filter in the address); `load` may be an inline function.
 * Only dashboard code imports this: public pages keep their first-load budget.
 */
export function useApiData<T extends object>(key: string, load: (signal: AbortSignal) => Promise<T>): ApiData<T> {
  const [attempt, setAttempt] = useState(0)
  const [settled, setSettled] = useState<Settled<T> | null>(null)
  // The latest `load`, so callers need not keep it stable; only `key` and `attempt` start a load.
  const start = useEffectEvent(load)

  useEffect(() => {
    const controller = new AbortController()
    const settle = (data: T | null, error: string | null) => {
      if (!controller.signal.aborted) setSettled({ key, attempt, data, error })
    }
    start(controller.signal).then(
      (data) => settle(data, null),
      (err: unknown) => settle(null, errorMessage(err)),
    )
    return () => controller.abort()
  }, [key, attempt])

  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  const current = settled !== null && settled.key === key && settled.attempt === attempt ? settled : null
  return { data: current?.data ?? null, error: current?.error ?? null, loading: current === null, reload }
}
