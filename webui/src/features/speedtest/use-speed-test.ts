/**
 * The speed-test pages' flow (marketing spec §2, §4, §8): every submit clears the previous
 * error, confirmation and result; the page's own checks; `POST /api/newsletter` and its
 * confirmation; `POST /api/speed-tests`; then `GET /api/speed-tests/{id}` about once a second
 * until the job is done or failed. The progress bar follows the spec's pace (`scanProgress`)
 * and jumps to 100% only when the result is there.
 */
import { useCallback, useState } from 'react'
import { api, type ResponseBody } from '../../lib/api-client'
import type { FormProblem } from '../../lib/forms'
import {
  MSG_GENERIC,
  checkSpeedTest,
  displayDomain,
  scanProgress,
  SPEED_FIELDS,
  type SpeedSource,
} from './speed-test'
import { jobProblem, usePacedProgress, usePolledJob } from '../../lib/use-polled-job'

/** A speed test as `GET /api/speed-tests/{test_id}` answers it. */
export type SpeedTestOut = ResponseBody<'/api/speed-tests/{test_id}', 'get'>

export type SpeedPhase = 'idle' | 'subscribing' | 'scanning' | 'done' | 'failed'

export interface SpeedTestState {
  phase: SpeedPhase
  /** What is wrong: the red box's message and the field it concerns (when one does). */
  problem: FormProblem | null
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
  problem: null,
  confirmation: null,
  domain: '',
  progress: 0,
  test: null,
  attempt: 0,
}

/** How often a running test is asked about. */
export const POLL_MS = 1_000

export interface SpeedTestInput {
  url: string
  email: string
}

export function useSpeedTest(source: SpeedSource) {
  const [state, setState] = useState<SpeedTestState>(IDLE)
  // Each submit is a run; a late answer of an earlier run (or after unmount) changes nothing.
  const { begin } = usePolledJob()
  const startPace = usePacedProgress(state.phase, 'scanning', setState, scanProgress)

  const submit = useCallback(
    async ({ url, email }: SpeedTestInput) => {
      const run = begin()
      const checked = checkSpeedTest(source, url, email)
      if (checked) {
        setState({ ...IDLE, attempt: run.id, phase: 'failed', problem: checked })
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
        setState({ ...IDLE, attempt: run.id, phase: 'failed', domain, problem: jobProblem(err, MSG_GENERIC, SPEED_FIELDS) })
        return
      }
      if (!run.live()) return
      startPace()
      setState({ ...IDLE, attempt: run.id, phase: 'scanning', domain, confirmation })

      const finish = (test: SpeedTestOut) => {
        if (test.status === 'done' && test.result) {
          setState((s) => ({ ...s, phase: 'done', progress: 100, test, domain: test.domain }))
        } else {
          setState((s) => ({ ...s, phase: 'failed', test: null, problem: { message: test.error ?? MSG_GENERIC, fields: {} } }))
        }
      }
      const fail = (err: unknown) => {
        setState((s) => ({ ...s, phase: 'failed', problem: jobProblem(err, MSG_GENERIC, SPEED_FIELDS) }))
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
    [begin, source, startPace],
  )

  return { state, submit }
}
