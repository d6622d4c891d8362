/**
 * A website's 'Run speed test': `POST /api/sites/{id}/speed-tests`, then
 * `GET /api/sites/{id}/speed-tests/latest` every `POLL_MS` until the check is done or failed,
 * with the speed test pages' progress pace. `onEnded` runs once a check ends (the page reloads
 * its figures and chart). A check already running when the page opens is followed the same way.
 */
import { useEffect, useEffectEvent, useState } from 'react'
import { errorMessage } from '../../lib/api-client'
import { fetchLatestCheck, isRunning, startSpeedCheck, type SpeedCheck } from './sites'
import { scanProgress } from '../speedtest'
import { usePolledJob, useTicker } from '../../lib/use-polled-job'

export const POLL_MS = 1_500
const TICK_MS = 250

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
  const { begin, cancel } = usePolledJob()
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

  useTicker(running, () => setNow(Date.now()), TICK_MS)

  useEffect(() => {
    if (!running) return
    begin()
      .poll({
        get: () => fetchLatestCheck(siteId),
        ended: (next) => !isRunning(next),
        every: POLL_MS,
        onAnswer: setCheck,
        // Any failure counts towards the five in a row, a 4xx answer too.
        retryable: () => true,
      })
      .then(
        (next) => {
          if (!next) return
          if (next.status === 'failed') setError(next.error ?? 'Failed to test website speed.')
          ended()
        },
        (err: unknown) => setError(errorMessage(err)),
      )
    return cancel
  }, [running, siteId, check?.id, begin, cancel])

  const progress = running ? scanProgress(now - startedAt) : check ? 100 : 0
  return { check, error, starting, running, progress, start }
}
