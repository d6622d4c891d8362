/**
 * A website's 'Run speed test': `POST /api/sites/{id}/speed-tests`, then
 * `GET /api/sites/{id}/speed-tests/latest` every `POLL_MS` until the check is done or failed,
 * with the speed test pages' progress pace. `onEnded` runs once a check ends (the page reloads
 * its figures and chart). A check already running when the page opens is followed the same way.
 */
import { useEffect, useEffectEvent, useState } from 'react'
import { errorMessage } from './api-client'
import { fetchLatestCheck, isRunning, startSpeedCheck, type SpeedCheck } from './sites'
import { scanProgress } from './speed-test'

export const POLL_MS = 1_500
const TICK_MS = 250
const POLL_RETRIES = 5

export interface SiteCheckState {
  check: SpeedCheck | null
  /** The red box's message (a refused start, a failed test, a lost connection). */
  error: string | null
  starting: boolean
  running: boolean
  /** 0-100 while running; 100 once ended. */
  progress: number
  start: () => void
}

export function useSiteCheck(siteId: number, initial: SpeedCheck | null, onEnded: () => void): SiteCheckState {
  const [check, setCheck] = useState<SpeedCheck | null>(initial)
  const [error, setError] = useState<string | null>(null)
  const [starting, setStarting] = useState(false)
  const [now, setNow] = useState(() => Date.now())
  const [startedAt, setStartedAt] = useState(() => Date.now())
  const ended = useEffectEvent(onEnded)
  const running = isRunning(check)

  const start = () => {
    setStarting(true)
    setError(null)
    startSpeedCheck(siteId)
      .then((next) => {
        setStartedAt(Date.now())
        setNow(Date.now())
        setCheck(next)
        if (!isRunning(next)) onEnded()
      })
      .catch((err: unknown) => setError(errorMessage(err)))
      .finally(() => setStarting(false))
  }

  useEffect(() => {
    if (!running) return
    let stopped = false
    let failures = 0
    const tick = setInterval(() => setNow(Date.now()), TICK_MS)
    const poll = async () => {
      while (!stopped) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
        if (stopped) return
        try {
          const next = await fetchLatestCheck(siteId)
          failures = 0
          if (stopped) return
          setCheck(next)
          if (!isRunning(next)) {
            if (next.status === 'failed') setError(next.error ?? 'Failed to test website speed.')
            ended()
            return
          }
        } catch (err) {
          failures += 1
          if (failures >= POLL_RETRIES) {
            if (!stopped) setError(errorMessage(err))
            return
          }
        }
      }
    }
    void poll()
    return () => {
      stopped = true
      clearInterval(tick)
    }
  }, [running, siteId, check?.id])

  const progress = running ? scanProgress(now - startedAt) : check ? 100 : 0
  return { check, error, starting, running, progress, start }
}
