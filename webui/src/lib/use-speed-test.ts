/**
 * The speed-test pages' flow (marketing spec §2, §4, §8): every submit clears the previous
 * error, confirmation and result; the page's own checks; `POST /api/newsletter` and its
 * confirmation; `POST /api/speed-tests`; then `GET /api/speed-tests/{id}` about once a second
 * until the job is done or failed. The progress bar follows the spec's pace (`scanProgress`)
 * and jumps to 100% only when the result is there.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError, api, type ResponseBody } from './api-client'
import {
  MSG_GENERIC,
  REDUCED_TICK_MS,
  TICK_MS,
  checkSpeedTest,
  displayDomain,
  scanProgress,
  type SpeedField,
  type SpeedSource,
} from './speed-test'

/** A speed test as `GET /api/speed-tests/{test_id}` answers it. */
export type SpeedTestOut = ResponseBody<'/api/speed-tests/{test_id}', 'get'>

export type SpeedPhase = 'idle' | 'subscribing' | 'scanning' | 'done' | 'failed'

export interface SpeedTestState {
  phase: SpeedPhase
  /** The red box's message, and the field it concerns (when one does). */
  error: string | null
  errorField: SpeedField | null
  /** The newsletter's confirmation ("You're subscribed! ..."). */
  confirmation: string | null
  /** What is being tested, as the visitor will recognise it. */
  domain: string
  /** 0-100; 100 only once the result is there. */
  progress: number
  test: SpeedTestOut | null
  /** Which submit this is (1, 2, ...): a repeated message is announced again. */
  attempt: number
}

const IDLE: SpeedTestState = {
  phase: 'idle',
  error: null,
  errorField: null,
  confirmation: null,
  domain: '',
  progress: 0,
  test: null,
  attempt: 0,
}

/** How often a running test is asked about. */
export const POLL_MS = 1_000
/** Polls that may fail in a row (a dropped connection, a restarting server) before giving up. */
const POLL_RETRIES = 5

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
}

/** The server's own message (validation, limits, Kit, the job's failure), else the generic one. */
function failure(err: unknown, fallback: string): { message: string; field: SpeedField | null } {
  if (err instanceof ApiError && err.code !== 'network_error' && !err.code.startsWith('http_') && err.code !== 'invalid_response') {
    const fields = Object.keys(err.fields ?? {})
    const field = fields.includes('url') ? 'url' : fields.includes('email') ? 'email' : null
    return { message: err.message, field }
  }
  return { message: fallback, field: null }
}

function retryable(err: unknown): boolean {
  return !(err instanceof ApiError) || err.status === 0 || err.status >= 500 || err.status === 429
}

export interface SpeedTestInput {
  url: string
  email: string
}

export function useSpeedTest(source: SpeedSource) {
  const [state, setState] = useState<SpeedTestState>(IDLE)
  // Each submit is a run; a late answer of an earlier run (or after unmount) changes nothing.
  const run = useRef(0)
  const startedAt = useRef(0)

  useEffect(() => {
    const current = run
    return () => {
      current.current = -1
    }
  }, [])

  const scanning = state.phase === 'scanning'
  useEffect(() => {
    if (!scanning) return
    const every = prefersReducedMotion() ? REDUCED_TICK_MS : TICK_MS
    const timer = setInterval(() => {
      const value = scanProgress(performance.now() - startedAt.current)
      setState((s) => (s.phase === 'scanning' && value > s.progress ? { ...s, progress: value } : s))
    }, every)
    return () => clearInterval(timer)
  }, [scanning])

  const submit = useCallback(
    async ({ url, email }: SpeedTestInput) => {
      const mine = ++run.current
      const live = () => run.current === mine
      const problem = checkSpeedTest(source, url, email)
      if (problem) {
        setState({ ...IDLE, attempt: mine, phase: 'failed', error: problem.message, errorField: problem.field })
        return
      }
      const domain = displayDomain(source, url)
      setState({ ...IDLE, attempt: mine, phase: 'subscribing', domain })
      const sent = { url: url.trim(), email: email.trim(), source }

      let confirmation: string
      try {
        confirmation = (await api.post('/api/newsletter', { email: sent.email, source })).message
      } catch (err) {
        if (!live()) return
        const { message, field } = failure(err, MSG_GENERIC)
        setState({ ...IDLE, attempt: mine, phase: 'failed', domain, error: message, errorField: field })
        return
      }
      if (!live()) return
      startedAt.current = performance.now()
      setState({ ...IDLE, attempt: mine, phase: 'scanning', domain, confirmation })

      const finish = (test: SpeedTestOut) => {
        if (test.status === 'done' && test.result) {
          setState((s) => ({ ...s, phase: 'done', progress: 100, test, domain: test.domain }))
        } else {
          setState((s) => ({ ...s, phase: 'failed', test: null, error: test.error ?? MSG_GENERIC, errorField: null }))
        }
      }
      const fail = (err: unknown) => {
        const { message, field } = failure(err, MSG_GENERIC)
        setState((s) => ({ ...s, phase: 'failed', error: message, errorField: field }))
      }

      let test: SpeedTestOut
      try {
        test = await api.post('/api/speed-tests', { ...sent, strategy: 'mobile' })
      } catch (err) {
        if (live()) fail(err)
        return
      }
      let misses = 0
      while (live() && test.status !== 'done' && test.status !== 'failed') {
        await sleep(POLL_MS)
        if (!live()) return
        try {
          test = await api.get('/api/speed-tests/{test_id}', { params: { test_id: test.id } })
          misses = 0
        } catch (err) {
          if (!live()) return
          if (retryable(err) && ++misses < POLL_RETRIES) continue
          fail(err)
          return
        }
      }
      if (live()) finish(test)
    },
    [source],
  )

  return { state, submit }
}
