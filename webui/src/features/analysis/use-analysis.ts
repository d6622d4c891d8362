/**
 * The analysis pages' flow (marketing spec §2, §4, §8): every submit clears the previous
 * error, note and results; the page's own checks; `POST /api/analyses` (the server registers
 * the e-mail first, then runs the audit and the speed test as a job) and its note; then
 * `GET /api/analyses/{id}` about once a second until the analysis has ended and so has the
 * speed test inside it. The progress bar follows the spec's pace (`analysisProgress`) and
 * jumps to 100 % when the analysis job ends.
 */
import { useCallback, useRef, useState } from 'react'
import { ApiError, api, type ResponseBody } from '../../lib/api-client'
import {
  MSG_GENERIC,
  REDUCED_TICK_MS,
  TICK_MS,
  VARIANT_OF,
  analysisProgress,
  checkAnalysis,
  stripAnalysis,
  type AnalysisField,
  type AnalysisSource,
} from './analysis'
import { usePolledJob, useTicker } from '../../lib/use-polled-job'

/** An analysis as `GET /api/analyses/{analysis_id}` answers it. */
export type AnalysisOut = ResponseBody<'/api/analyses/{analysis_id}', 'get'>

export type AnalysisPhase = 'idle' | 'loading' | 'done' | 'failed'

export interface AnalysisState {
  phase: AnalysisPhase
  /** The red box's message, and the field it concerns (when one does). */
  error: string | null
  errorField: AnalysisField | null
  /** 'You'll receive your detailed analysis report at {email}', once the e-mail is registered. */
  notice: string | null
  /** What is being analysed, as the visitor will recognise it. */
  domain: string
  /** 0-100; 100 once the analysis job has ended. */
  progress: number
  analysis: AnalysisOut | null
  /** Which submit this is (1, 2, ...): a repeated message is announced again. */
  attempt: number
}

const IDLE: AnalysisState = {
  phase: 'idle',
  error: null,
  errorField: null,
  notice: null,
  domain: '',
  progress: 0,
  analysis: null,
  attempt: 0,
}

/** How often a running analysis is asked about. */
export const POLL_MS = 1_000
/** The server's own message (validation, limits, the job's failure), else the generic one. */
function failure(err: unknown): { message: string; field: AnalysisField | null } {
  if (err instanceof ApiError && err.code !== 'network_error' && !err.code.startsWith('http_') && err.code !== 'invalid_response') {
    const fields = Object.keys(err.fields ?? {})
    const field = fields.includes('url') ? 'url' : fields.includes('email') ? 'email' : null
    return { message: err.message, field }
  }
  return { message: MSG_GENERIC, field: null }
}

/** The analysis job has ended (its speed test may still run). */
export function analysisEnded(analysis: AnalysisOut): boolean {
  return analysis.status === 'done' || analysis.status === 'failed'
}

/** Nothing more will change: the analysis has ended, and so has its speed test. */
export function settled(analysis: AnalysisOut): boolean {
  if (analysis.status === 'failed') return true
  if (analysis.status !== 'done') return false
  const speed = analysis.speed_test
  return speed === null || speed.status === 'done' || speed.status === 'failed'
}

export interface AnalysisInput {
  url: string
  email: string
}

export function useAnalysis(source: AnalysisSource) {
  const [state, setState] = useState<AnalysisState>(IDLE)
  // Each submit is a run; a late answer of an earlier run (or after unmount) changes nothing.
  const { begin } = usePolledJob()
  const startedAt = useRef(0)

  useTicker(
    state.phase === 'loading',
    () => {
      const value = analysisProgress(performance.now() - startedAt.current)
      setState((s) => (s.phase === 'loading' && value > s.progress ? { ...s, progress: value } : s))
    },
    TICK_MS,
    REDUCED_TICK_MS,
  )

  const submit = useCallback(
    async ({ url, email }: AnalysisInput) => {
      const run = begin()
      const problem = checkAnalysis(VARIANT_OF[source], url, email)
      if (problem) {
        setState({ ...IDLE, attempt: run.id, phase: 'failed', error: problem.message, errorField: problem.field })
        return
      }
      const domain = stripAnalysis(url).toLowerCase()
      startedAt.current = performance.now()
      setState({ ...IDLE, attempt: run.id, phase: 'loading', domain })

      const show = (analysis: AnalysisOut) => {
        if (analysis.status === 'failed') {
          setState((s) => ({ ...s, phase: 'failed', analysis: null, progress: 0, error: analysis.error ?? MSG_GENERIC, errorField: null }))
        } else if (analysis.status === 'done') {
          setState((s) => ({ ...s, phase: 'done', progress: 100, analysis, domain: analysis.domain }))
        } else {
          setState((s) => ({ ...s, analysis }))
        }
      }
      const fail = (err: unknown) => {
        const { message, field } = failure(err)
        setState((s) => ({ ...s, phase: 'failed', analysis: null, progress: 0, error: message, errorField: field }))
      }

      let analysis: AnalysisOut
      try {
        analysis = await api.post('/api/analyses', { url: url.trim(), email: email.trim(), source })
      } catch (err) {
        if (run.live()) fail(err)
        return
      }
      if (!run.live()) return
      setState((s) => ({ ...s, notice: analysis.notice, domain: analysis.domain }))
      show(analysis)

      const params = { analysis_id: analysis.id }
      try {
        await run.poll({
          get: () => api.get('/api/analyses/{analysis_id}', { params }),
          ended: settled,
          every: POLL_MS,
          first: analysis,
          onAnswer: (next) => {
            analysis = next
            show(next)
          },
        })
      } catch (err) {
        // The report is already on the page: only its speed figures are missing.
        if (!analysisEnded(analysis)) fail(err)
      }
    },
    [begin, source],
  )

  return { state, submit }
}
