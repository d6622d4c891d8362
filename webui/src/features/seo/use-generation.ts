/**
 * The article manager's AI flow (marketing spec §2, §4, §8): a topic gives three ideas;
 * clicking one writes the whole article and saves it as a draft; 'Start Over' resets. Each
 * step is a job on the server (`POST /api/admin/article-ideas`, `POST /api/admin/article-drafts`)
 * asked about once a second (`GET /api/admin/generations/{id}`) until done or failed; a real
 * model takes tens of seconds, so the elapsed time and a progress bar show meanwhile. The red
 * 'Error' box is cleared when a new generation starts.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../lib/api-client'
import {
  EXPECTED_MS,
  MSG_GENERATION_FAILED,
  MSG_TOPIC_REQUIRED,
  generationProgress,
  getGeneration,
  startArticle,
  startIdeas,
  type Generation,
  type Idea,
} from './articles'
import { usePolledJob, useTicker, type Run } from '../../lib/use-polled-job'

export type GenerationPhase = 'idle' | 'ideas' | 'choosing' | 'writing' | 'saved'

export interface GenerationState {
  phase: GenerationPhase
  /** The topic the ideas are for. */
  topic: string
  ideas: Idea[]
  /** The idea being written, or the last one written. */
  chosen: Idea | null
  /** The saved draft, once phase is 'saved'. */
  articleId: number | null
  /** The red box's message. */
  error: string | null
  /** Milliseconds since the running step started (0 when none runs). */
  elapsed: number
  /** Which step this is (1, 2, ...): a repeated message is announced again. */
  attempt: number
}

export const IDLE: GenerationState = {
  phase: 'idle',
  topic: '',
  ideas: [],
  chosen: null,
  articleId: null,
  error: null,
  elapsed: 0,
  attempt: 0,
}

/** How often a running generation is asked about. */
export const POLL_MS = 1_000
const TICK_MS = 250

/** The bar's value for a state: 0-100, only while a step runs. */
export function progressOf(state: GenerationState): number {
  if (state.phase === 'ideas') return generationProgress(state.elapsed, EXPECTED_MS.ideas)
  if (state.phase === 'writing') return generationProgress(state.elapsed, EXPECTED_MS.article)
  return 0
}

/** Asks about a started job until it ends; null when the run was replaced meanwhile. */
async function follow(run: Run, started: Promise<Generation>): Promise<Generation | null> {
  const first = await started
  return run.poll({
    get: () => getGeneration(first.id),
    ended: (job) => job.status === 'done' || job.status === 'failed',
    every: POLL_MS,
    first,
  })
}

/** `onSaved(articleId)` runs when a generated article has been saved as a draft. */
export function useGeneration(onSaved: (articleId: number) => void) {
  const [state, setState] = useState<GenerationState>(IDLE)
  // Each step is a run; a late answer of an earlier run (or after unmount) changes nothing.
  const { begin, cancel } = usePolledJob()
  const startedAt = useRef(0)
  const attempts = useRef(0)
  const saved = useRef(onSaved)

  useEffect(() => {
    saved.current = onSaved
  }, [onSaved])

  useTicker(state.phase === 'ideas' || state.phase === 'writing', () => {
    const elapsed = performance.now() - startedAt.current
    setState((s) => (s.phase === 'ideas' || s.phase === 'writing' ? { ...s, elapsed } : s))
  }, TICK_MS)

  const generateIdeas = useCallback(
    async (rawTopic: string) => {
      const topic = rawTopic.trim()
      if (topic === '') {
        // Nothing starts: a step under way carries on; the message is announced again.
        const attempt = ++attempts.current
        setState((s) => ({ ...s, error: MSG_TOPIC_REQUIRED, attempt }))
        return
      }
      const run = begin()
      ++attempts.current
      startedAt.current = performance.now()
      setState({ ...IDLE, phase: 'ideas', topic, attempt: attempts.current })
      let job: Generation | null
      try {
        job = await follow(run, startIdeas(topic))
      } catch (err) {
        if (run.live()) setState((s) => ({ ...s, phase: 'idle', elapsed: 0, error: errorMessage(err) }))
        return
      }
      if (job === null) return
      const ideas = job.ideas ?? []
      if (job.status === 'done' && ideas.length > 0) {
        setState((s) => ({ ...s, phase: 'choosing', ideas, elapsed: 0 }))
      } else {
        setState((s) => ({ ...s, phase: 'idle', elapsed: 0, error: job.error ?? MSG_GENERATION_FAILED }))
      }
    },
    [begin],
  )

  const writeArticle = useCallback(
    async (idea: Idea) => {
      const run = begin()
      const attempt = ++attempts.current
      startedAt.current = performance.now()
      setState((s) => ({ ...s, phase: 'writing', chosen: idea, articleId: null, error: null, elapsed: 0, attempt }))
      let job: Generation | null
      try {
        job = await follow(run, startArticle(idea))
      } catch (err) {
        if (run.live()) setState((s) => ({ ...s, phase: 'choosing', elapsed: 0, error: errorMessage(err) }))
        return
      }
      if (job === null) return
      const articleId = job.article_id
      if (job.status === 'done' && articleId !== null) {
        setState((s) => ({ ...s, phase: 'saved', articleId, elapsed: 0 }))
        saved.current(articleId)
      } else {
        setState((s) => ({ ...s, phase: 'choosing', elapsed: 0, error: job.error ?? MSG_GENERATION_FAILED }))
      }
    },
    [begin],
  )

  const startOver = useCallback(() => {
    cancel()
    setState(IDLE)
  }, [cancel])

  return { state, generateIdeas, writeArticle, startOver }
}
