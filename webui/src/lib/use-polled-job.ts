/**
 * The browser's side of a job the server runs: start it, then ask about it every so often until
 * it ends. One place for the rules every such page shares:
 *
 * - a run: each start is one; starting another, `cancel()` or leaving the page ends it: no
 *   more asks, and an answer that comes late changes nothing;
 * - retries: a failed ask is tried again on the next beat when it may pass later (a lost
 *   connection, a restarting server: no answer, 5xx, 429), up to `retries` failures in a row;
 *   any other error, or one failure too many, ends the poll with that error;
 * - an optional limit on the number of asks, after which the poll gives up ({@link GAVE_UP});
 * - the cosmetic progress clock ({@link useTicker}), slower for a visitor who asks for reduced
 *   motion.
 */
import { useCallback, useEffect, useEffectEvent, useRef, type Dispatch, type SetStateAction } from 'react'
import { ApiError } from './api-client'
// Only the shape: the poller stays free of the forms' code (pages that poll need not load it).
import type { FormProblem } from './forms'

/** Failed asks in a row (a dropped connection, a restarting server) before giving up. */
export const POLL_RETRIES = 5

/** What a poll rejects with when it reaches its `limit` of asks. */
export const GAVE_UP = new Error('The job did not end in time.')

export interface PollRules<T> {
  /** Asks the server about the job. */
  get: () => Promise<T>
  /** Nothing more will change: the poll stops here. */
  ended: (job: T) => boolean
  /** Milliseconds between one answer and the next ask. */
  every: number
  /** What is known already (the start's answer): an ended one is returned at once. */
  first?: T
  /** Ask at once rather than one interval after the start. */
  immediate?: boolean
  /** Each answer of a live run, the last one included. */
  onAnswer?: (job: T) => void
  /** Which failures are worth another ask (default: no answer, 5xx, 429). */
  retryable?: (err: unknown) => boolean
  /** Failures in a row that end the poll (default {@link POLL_RETRIES}). */
  retries?: number
  /** Asks at most, answered or not (default: no limit). */
  limit?: number
}

/** No answer, a server error or a rate limit: the same ask may pass a moment later. */
export function retryable(err: unknown): boolean {
  return !(err instanceof ApiError) || err.status === 0 || err.status >= 500 || err.status === 429
}

/**
 * Polls until `ended`: resolves with the ended job, or null once `live()` is false (then nothing
 * more is called). Rejects, only while live, with the error that ended it or {@link GAVE_UP}.
 */
export async function pollJob<T>(live: () => boolean, rules: PollRules<T>): Promise<T | null> {
  const { get, ended, every, first, onAnswer, limit = Infinity, retries = POLL_RETRIES } = rules
  const worthRetry = rules.retryable ?? retryable
  if (first !== undefined && ended(first)) return live() ? first : null
  let misses = 0
  for (let asked = 0; ; ) {
    if (asked++ > 0 || !rules.immediate) await new Promise((resolve) => setTimeout(resolve, every))
    if (!live()) return null
    let job: T
    try {
      job = await get()
    } catch (err) {
      if (!live()) return null
      if (!worthRetry(err) || ++misses >= retries) throw err
      if (asked >= limit) throw GAVE_UP
      continue
    }
    if (!live()) return null
    misses = 0
    onAnswer?.(job)
    if (ended(job)) return job
    if (asked >= limit) throw GAVE_UP
  }
}

/** One start of a job and its polls. */
export interface Run {
  /** Which start this is (1, 2, ...). */
  readonly id: number
  /** False once a newer run started, `cancel()` was called or the component unmounted. */
  live: () => boolean
  /** {@link pollJob} for this run. */
  poll: <T>(rules: PollRules<T>) => Promise<T | null>
}

/**
 * Runs for one component: `begin()` starts a run (ending the previous one), `cancel()` ends the
 * current one; unmounting ends it too.
 */
export function usePolledJob() {
  // The live run's id; 0 when none is.
  const current = useRef(0)
  const count = useRef(0)

  const cancel = useCallback(() => {
    current.current = 0
  }, [])
  useEffect(() => cancel, [cancel])

  const begin = useCallback((): Run => {
    const id = (current.current = ++count.current)
    const live = () => current.current === id
    return { id, live, poll: (rules) => pollJob(live, rules) }
  }, [])

  return { begin, cancel }
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
}

/**
 * Calls `tick` every `every` ms while `active`: the clock of a progress bar or an elapsed time.
 * With `reduced`, a visitor who asks for reduced motion gets a tick every `reduced` ms instead.
 */
export function useTicker(active: boolean, tick: () => void, every: number, reduced?: number): void {
  const onTick = useEffectEvent(tick)
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => onTick(), reduced !== undefined && prefersReducedMotion() ? reduced : every)
    return () => clearInterval(timer)
  }, [active, every, reduced])
}

/** A cosmetic progress bar's beat: every 50 ms; with reduced motion, whole-second steps. */
export const PROGRESS_TICK_MS = 50
export const REDUCED_PROGRESS_TICK_MS = 1_000
/**
 * Moves a job state's `progress` along `pace` (of the time since the returned `start` was
 * called) while its phase is `running`, never back: the progress bar of a job the page waits on.
 */
export function usePacedProgress<S extends { phase: string; progress: number }>(
  phase: S['phase'],
  running: S['phase'],
  setState: Dispatch<SetStateAction<S>>,
  pace: (elapsedMs: number) => number,
): () => void {
  const startedAt = useRef(0)
  useTicker(
    phase === running,
    () => {
      const value = pace(performance.now() - startedAt.current)
      setState((s) => (s.phase === running && value > s.progress ? { ...s, progress: value } : s))
    },
    PROGRESS_TICK_MS,
    REDUCED_PROGRESS_TICK_MS,
  )
  return useCallback(() => {
    startedAt.current = performance.now()
  }, [])
}

/**
 * The problem of a job's request from what it threw: the server's own words (validation,
 * limits, the job's failure), concerning the first of `names` its answer names a field; else
 * (no connection, an HTTP failure without the server's words, an answer that does not read)
 * `fallback`, concerning no field.
 */
export function jobProblem(err: unknown, fallback: string, names: readonly string[]): FormProblem {
  if (err instanceof ApiError && err.code !== 'network_error' && !err.code.startsWith('http_') && err.code !== 'invalid_response') {
    const field = names.find((name) => Object.hasOwn(err.fields ?? {}, name))
    return { message: err.message, fields: field ? { [field]: err.message } : {} }
  }
  return { message: fallback, fields: {} }
}
