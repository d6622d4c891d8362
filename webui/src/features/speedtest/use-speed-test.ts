/**
 * The speed-test pages' flow (marketing spec §2, §4, §8): every submit clears the previous
 * error, confirmation and result; the page's own checks; `POST /api/speed-tests` (with
 * `newsletter: true` only when the unticked opt-in box was ticked) and its confirmation; then
 * `GET /api/speed-tests/{id}` about once a second until the job is done or failed. A failed
 * test shows its error alone: no confirmation beside it. The progress bar follows the spec's
 * pace (`scanProgress`) and jumps to 100% only when the result is there.
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

/** What became of a ticked newsletter box (null when it was not ticked). */
export type NewsletterOutcome = NonNullable<ResponseBody<'/api/speed-tests', 'post'>['newsletter']>

export type SpeedPhase = 'idle' | 'starting' | 'scanning' | 'done' | 'failed'

export interface SpeedTestState {
  phase: SpeedPhase
  /** What is wrong: the red box's message and the field it concerns (when one does). */
  problem: FormProblem | null
  /** Where the report goes ('Your speed report will arrive at ...'), once the test started. */
  confirmation: string | null
  /** The newsletter box's outcome, when it was ticked and the test started. */
  newsletter: NewsletterOutcome | null
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
  newsletter: null,
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
  /** The opt-in box was ticked. */
  newsletter: boolean
}

export function useSpeedTest(source: SpeedSource) {
  const [state, setState] = useState<SpeedTestState>(IDLE)
  // Each submit is a run; a late answer of an earlier run (or after unmount) changes nothing.
  const { begin } = usePolledJob()
  const startPace = usePacedProgress(state.phase, 'scanning', setState, scanProgress)

  const submit = useCallback(
    async ({ url, email, newsletter }: SpeedTestInput) => {
      const run = begin()
      const checked = checkSpeedTest(source, url, email)
      if (checked) {
        setState({ ...IDLE, attempt: run.id, phase: 'failed', problem: checked })
        return
      }
      const domain = displayDomain(source, url)
      setState({ ...IDLE, attempt: run.id, phase: 'starting', domain })

      // A failure shows its message alone: what was confirmed before goes.
      const fail = (problem: FormProblem) => {
        setState((s) => ({ ...s, phase: 'failed', test: null, confirmation: null, newsletter: null, problem }))
      }
      let test: SpeedTestOut | null
      try {
        const body = { url: url.trim(), email: email.trim(), source, strategy: 'mobile' as const, newsletter: newsletter === true }
        const first = await api.post('/api/speed-tests', body)
        if (!run.live()) return
        startPace()
        setState({ ...IDLE, attempt: run.id, phase: 'scanning', domain, confirmation: first.notice, newsletter: first.newsletter })
        const params = { test_id: first.id }
        test = await run.poll({
          get: () => api.get('/api/speed-tests/{test_id}', { params }),
          ended: (t) => t.status === 'done' || t.status === 'failed',
          every: POLL_MS,
          first,
        })
      } catch (err) {
        if (run.live()) fail(jobProblem(err, MSG_GENERIC, SPEED_FIELDS))
        return
      }
      if (!test) return
      if (test.status === 'done' && test.result) {
        const done = test
        setState((s) => ({ ...s, phase: 'done', progress: 100, test: done, domain: done.domain }))
      } else {
        fail({ message: test.error ?? MSG_GENERIC, fields: {} })
      }
    },
    [begin, source, startPace],
  )

  return { state, submit }
}
