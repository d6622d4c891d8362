/**
 * The speed-test pages' flow (marketing spec §2, §4, §8): every submit clears the previous
 * error, confirmation and result; the page's own checks; `POST /api/newsletter` and its
 * confirmation; `POST /api/speed-tests`; then `GET /api/speed-tests/{id}` about once a second
 * until the job is done or failed. The progress bar follows the spec's pace (`scanProgress`)
 * and jumps to 100% only when the result is there.
 */
import { useCallback, useRef, useState } from 'react'
import { ApiError, api, type ResponseBody } from '../../lib/api-client'
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
import { usePolledJob, useTicker } from '../../lib/use-polled-job'

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
/** The server's own message (validation, limits, Kit, the job's failure), else the generic one. */
function failure(err: unknown, fallback: string): { message: string; field: SpeedField | null } {
  if (err instanceof ApiError && err.code !== 'network_error' && !err.code.startsWith('http_') && err.code !== 'invalid_response') {
    const fields = Object.keys(err.fields ?? {})
    const field = fields.includes('url') ? 'url' : fields.includes('email') ? 'email' : null
    return { message: err.message, field }
  }
  return { message: fallback, field: null }
}

export interface SpeedTestInput {
  url: string
  email: string
}

export function useSpeedTest(source: SpeedSource) {
  const [state, setState] = useState<SpeedTestState>(IDLE)
  // Each submit is a run; a late answer of an earlier run (or after unmount) changes nothing.
  const { begin } = usePolledJob()
  const startedAt = useRef(0)

  useTicker(
    state.phase === 'scanning',
    () => {
      const value = scanProgress(performance.now() - startedAt.current)
      setState((s) => (s.phase === 'scanning' && value > s.progress ? { ...s, progress: value } : s))
    },
    TICK_MS,
    REDUCED_TICK_MS,
  )

  const submit = useCallback(
    async ({ url, email }: SpeedTestInput) => {
      const run = begin()
      const problem = checkSpeedTest(source, url, email)
      if (problem) {
        setState({ ...IDLE, attempt: run.id, phase: 'failed', error: problem.message, errorField: problem.field })
        return
      }
      const domain = displayDomain(source, url)
      setState({ ...IDLE, attempt: run.id, phase: 'subscribing', domain })
      const sent = { url: url.trim(), email: email.trim(), source }

      let confirmation: string
      try {
        confirmation = (await api.post('/api/newsletter', { email: sent.email, source })).message
      } catch (err) {
        if (!run.live()) return
        const { message, field } = failure(err, MSG_GENERIC)
        setState({ ...IDLE, attempt: run.id, phase: 'failed', domain, error: message, errorField: field })
        return
      }
      if (!run.live()) return
      startedAt.current = performance.now()
      setState({ ...IDLE, attempt: run.id, phase: 'scanning', domain, confirmation })

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

      let test: SpeedTestOut | null
      try {
        const first = await api.post('/api/speed-tests', { ...sent, strategy: 'mobile' })
        const params = { test_id: first.id }
        test = await run.poll({
          get: () => api.get('/api/speed-tests/{test_id}', { params }),
          ended: (t) => t.status === 'done' || t.status === 'failed',
          every: POLL_MS,
          first,
        })
      } catch (err) {
        if (run.live()) fail(err)
        return
      }
      if (test) finish(test)
    },
    [begin, source],
  )

  return { state, submit }
}
