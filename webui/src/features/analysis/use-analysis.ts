/**
 * The analysis pages' flow (marketing spec §2, §4, §8): every submit clears the previous
 * error, note and results; the page's own checks; `POST /api/analyses` (the server registers
 * the e-mail first, then runs the audit and the speed test as a job; `newsletter: true` only
 * when the unticked opt-in box was ticked) and its note; then
 * `GET /api/analyses/{id}` about once a second until the analysis has ended and so has the
 * speed test inside it. The progress bar follows the spec's pace (`analysisProgress`) and
 * jumps to 100 % when the analysis job ends.
 */
import { useCallback, useState } from 'react'
import { api, type ResponseBody } from '../../lib/api-client'
import type { FormProblem } from '../../lib/forms'
import {
  ANALYSIS_FIELDS,
  MSG_GENERIC,
  VARIANT_OF,
  analysisProgress,
  checkAnalysis,
  stripAnalysis,
  type AnalysisSource,
} from './analysis'
import { jobProblem, usePacedProgress, usePolledJob } from '../../lib/use-polled-job'

/** An analysis as `GET /api/analyses/{analysis_id}` answers it. */
export type AnalysisOut = ResponseBody<'/api/analyses/{analysis_id}', 'get'>

export type AnalysisPhase = 'idle' | 'loading' | 'done' | 'failed'

/** What became of a ticked newsletter box (null when it was not ticked). */
export type NewsletterOutcome = NonNullable<ResponseBody<'/api/analyses', 'post'>['newsletter']>

export interface AnalysisState {
  phase: AnalysisPhase
  /** What is wrong: the red box's message and the field it concerns (when one does). */
  problem: FormProblem | null
  /** 'You'll receive your detailed analysis report at {email}', once the e-mail is registered. */
  notice: string | null
  /** The newsletter box's outcome, when it was ticked and the analysis started. */
  newsletter: NewsletterOutcome | null
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
  problem: null,
  notice: null,
  newsletter: null,
  domain: '',
  progress: 0,
  analysis: null,
  attempt: 0,
}

/** A failure shows its message alone: the note and the newsletter's outcome go with the rest. */
const CLEARED = { phase: 'failed', analysis: null, progress: 0, notice: null, newsletter: null } as const

/** How often a running analysis is asked about. */
export const POLL_MS = 1_000

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
  /** The opt-in box was ticked. */
  newsletter: boolean
}

export function useAnalysis(source: AnalysisSource) {
  const [state, setState] = useState<AnalysisState>(IDLE)
  // Each submit is a run; a late answer of an earlier run (or after unmount) changes nothing.
  const { begin } = usePolledJob()
  const startPace = usePacedProgress(state.phase, 'loading', setState, analysisProgress)

  const submit = useCallback(
    async ({ url, email, newsletter }: AnalysisInput) => {
      const run = begin()
      const checked = checkAnalysis(VARIANT_OF[source], url, email)
      if (checked) {
        setState({ ...IDLE, attempt: run.id, phase: 'failed', problem: checked })
        return
      }
      const domain = stripAnalysis(url).toLowerCase()
      startPace()
      setState({ ...IDLE, attempt: run.id, phase: 'loading', domain })

      const show = (analysis: AnalysisOut) => {
        if (analysis.status === 'failed') {
          setState((s) => ({ ...s, ...CLEARED, problem: { message: analysis.error ?? MSG_GENERIC, fields: {} } }))
        } else if (analysis.status === 'done') {
          setState((s) => ({ ...s, phase: 'done', progress: 100, analysis, domain: analysis.domain }))
        } else {
          setState((s) => ({ ...s, analysis }))
        }
      }
      const fail = (err: unknown) => {
        setState((s) => ({ ...s, ...CLEARED, problem: jobProblem(err, MSG_GENERIC, ANALYSIS_FIELDS) }))
      }

      let analysis: AnalysisOut
      try {
        const started = await api.post('/api/analyses', { url: url.trim(), email: email.trim(), source, newsletter: newsletter === true })
        if (run.live()) setState((s) => ({ ...s, newsletter: started.newsletter }))
        analysis = started
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
    [begin, source, startPace],
  )

  return { state, submit }
}
