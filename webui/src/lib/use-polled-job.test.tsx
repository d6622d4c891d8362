import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './api-client'
import { GAVE_UP, POLL_RETRIES, usePolledJob, useTicker, type PollRules } from './use-polled-job'

interface Job {
  status: 'running' | 'done'
  n: number
}

const EVERY = 1_000
const running = (n: number): Job => ({ status: 'running', n })
const done = (n: number): Job => ({ status: 'done', n })
const ended = (job: Job) => job.status === 'done'

/** A server whose answers are given one per ask by `answers` (a function of the ask's number). */
function server(answers: (ask: number) => Job | Error) {
  let asks = 0
  const get = vi.fn(async () => {
    const answer = answers(++asks)
    if (answer instanceof Error) throw answer
    return answer
  })
  return { get, asks: () => asks }
}

/** A promise settled from outside: an answer that comes when the test says so. */
function later<T>() {
  const handle = {} as { promise: Promise<T>; resolve: (value: T) => void; reject: (err: unknown) => void }
  handle.promise = new Promise<T>((resolve, reject) => Object.assign(handle, { resolve, reject }))
  return handle
}

/** Starts a poll in a fresh run; its outcome is read from `outcome` once it settles. */
function start(hook: { current: ReturnType<typeof usePolledJob> }, rules: PollRules<Job>) {
  const outcome: { value?: Job | null; error?: unknown; settled: boolean } = { settled: false }
  const run = hook.current.begin()
  run.poll(rules).then(
    (value) => Object.assign(outcome, { value, settled: true }),
    (error: unknown) => Object.assign(outcome, { error, settled: true }),
  )
  return { run, outcome }
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('usePolledJob', () => {
  it('asks once an interval after the start until the job ends, shows each answer, then asks no more', async () => {
    const { get, asks } = server((ask) => (ask < 3 ? running(ask) : done(ask)))
    const onAnswer = vi.fn()
    const { result } = renderHook(() => usePolledJob())
    const { outcome } = start(result, { get, ended, every: EVERY, first: running(0), onAnswer })

    await advance(EVERY - 1)
    expect(asks()).toBe(0)
    await advance(1)
    expect(asks()).toBe(1)
    await advance(2 * EVERY)
    expect(asks()).toBe(3)
    expect(outcome).toEqual({ value: done(3), settled: true })
    expect(onAnswer.mock.calls.map(([job]) => (job as Job).n)).toEqual([1, 2, 3])

    await advance(10 * EVERY)
    expect(asks()).toBe(3)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('returns a start that has already ended without asking, and asks at once when told to', async () => {
    const { get, asks } = server(() => done(1))
    const { result } = renderHook(() => usePolledJob())
    const ready = start(result, { get, ended, every: EVERY, first: done(0) })
    await advance(0)
    expect(ready.outcome.value).toEqual(done(0))
    expect(asks()).toBe(0)

    const now = start(result, { get, ended, every: EVERY, immediate: true })
    await advance(0)
    expect(asks()).toBe(1)
    expect(now.outcome.value).toEqual(done(1))
  })

  it('stops when the component unmounts: no more asks, no timer left, resolves null', async () => {
    const { get, asks } = server((ask) => running(ask))
    const onAnswer = vi.fn()
    const { result, unmount } = renderHook(() => usePolledJob())
    const { run, outcome } = start(result, { get, ended, every: EVERY, onAnswer })
    await advance(2 * EVERY)
    expect(asks()).toBe(2)

    unmount()
    expect(run.live()).toBe(false)
    await advance(EVERY)
    expect(outcome).toEqual({ value: null, settled: true })
    expect(vi.getTimerCount()).toBe(0)
    await advance(10 * EVERY)
    expect(asks()).toBe(2)
    expect(onAnswer).toHaveBeenCalledTimes(2)
  })

  it('drops an answer that comes after the unmount', async () => {
    const slow = later<Job>()
    const onAnswer = vi.fn()
    const { result, unmount } = renderHook(() => usePolledJob())
    const { outcome } = start(result, { get: () => slow.promise, ended, every: EVERY, onAnswer })
    await advance(EVERY)
    unmount()
    await act(async () => slow.resolve(done(1)))
    expect(onAnswer).not.toHaveBeenCalled()
    expect(outcome).toEqual({ value: null, settled: true })
  })

  it('cancel() ends the current run the same way', async () => {
    const { get, asks } = server((ask) => running(ask))
    const { result } = renderHook(() => usePolledJob())
    const { run, outcome } = start(result, { get, ended, every: EVERY })
    await advance(EVERY)
    act(() => result.current.cancel())
    expect(run.live()).toBe(false)
    await advance(5 * EVERY)
    expect(asks()).toBe(1)
    expect(outcome).toEqual({ value: null, settled: true })
  })

  it('a new start drops the old run: its late answer (or late error) changes nothing', async () => {
    const slow = later<Job>()
    const failing = later<Job>()
    const oldAnswers = vi.fn()
    const { result } = renderHook(() => usePolledJob())
    const first = start(result, { get: () => slow.promise, ended, every: EVERY, onAnswer: oldAnswers })
    await advance(EVERY) // the old run's ask is on its way
    const second = start(result, { get: () => failing.promise, ended, every: EVERY, retries: 1 })
    expect(first.run.live()).toBe(false)
    expect(second.run.live()).toBe(true)
    expect(second.run.id).toBe(first.run.id + 1)

    await act(async () => slow.resolve(done(1)))
    expect(oldAnswers).not.toHaveBeenCalled()
    expect(first.outcome).toEqual({ value: null, settled: true })

    // An error that comes after the run ended is not reported either.
    await advance(EVERY)
    act(() => result.current.cancel())
    await act(async () => failing.reject(new ApiError(404, 'not_found', 'Gone.')))
    expect(second.outcome).toEqual({ value: null, settled: true })
  })

  it('tries again after no answer, a 5xx or a 429, and counts only failures in a row', async () => {
    const lost = new ApiError(0, 'network_error', 'Lost.')
    const script: (Job | Error)[] = [
      lost,
      new ApiError(503, 'unavailable', 'Restarting.'),
      new ApiError(429, 'rate_limited', 'Slow down.'),
      new TypeError('Failed to fetch'),
      running(5),
      new ApiError(502, 'http_502', 'Bad gateway.'),
      lost,
      lost,
      lost,
      done(10),
    ]
    const { get, asks } = server((ask) => script[ask - 1]!)
    const { result } = renderHook(() => usePolledJob())
    const { outcome } = start(result, { get, ended, every: EVERY })
    await advance(script.length * EVERY)
    expect(asks()).toBe(script.length)
    expect(outcome).toEqual({ value: done(10), settled: true })
  })

  it(`gives up after ${POLL_RETRIES} failures in a row, with the last error`, async () => {
    const errors = Array.from({ length: POLL_RETRIES }, (_, i) => new ApiError(500, 'http_500', `Failure ${i + 1}.`))
    const { get, asks } = server((ask) => errors[ask - 1] ?? running(ask))
    const { result } = renderHook(() => usePolledJob())
    const { outcome } = start(result, { get, ended, every: EVERY })
    await advance((POLL_RETRIES - 1) * EVERY)
    expect(outcome.settled).toBe(false)
    await advance(EVERY)
    expect(outcome.error).toBe(errors[POLL_RETRIES - 1])
    await advance(10 * EVERY)
    expect(asks()).toBe(POLL_RETRIES)
  })

  it('gives up at once on an error a retry cannot mend (a 404, a 400)', async () => {
    const gone = new ApiError(404, 'not_found', 'This job does not exist.')
    const { get, asks } = server(() => gone)
    const { result } = renderHook(() => usePolledJob())
    const { outcome } = start(result, { get, ended, every: EVERY })
    await advance(EVERY)
    expect(outcome.error).toBe(gone)
    await advance(10 * EVERY)
    expect(asks()).toBe(1)
  })

  it('with a limit, gives up after that many asks, answered or not; a custom rule may retry anything', async () => {
    const gone = new ApiError(404, 'not_found', 'Unknown session.')
    const { get, asks } = server((ask) => (ask % 2 ? gone : running(ask)))
    const { result } = renderHook(() => usePolledJob())
    const { outcome } = start(result, { get, ended, every: EVERY, immediate: true, retryable: () => true, retries: Infinity, limit: 4 })
    await advance(3 * EVERY - 1)
    expect(outcome.settled).toBe(false)
    await advance(1)
    expect(asks()).toBe(4)
    expect(outcome.error).toBe(GAVE_UP)
    await advance(10 * EVERY)
    expect(asks()).toBe(4)
  })
})

describe('useTicker', () => {
  it('ticks while active, and stops when not', async () => {
    const tick = vi.fn()
    const { rerender } = renderHook(({ active }) => useTicker(active, tick, 50, 1_000), { initialProps: { active: false } })
    await advance(500)
    expect(tick).not.toHaveBeenCalled()
    rerender({ active: true })
    await advance(500)
    expect(tick).toHaveBeenCalledTimes(10)
    rerender({ active: false })
    await advance(500)
    expect(tick).toHaveBeenCalledTimes(10)
  })

  it('ticks every `reduced` ms for a visitor who asks for reduced motion, and at its pace without one', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }))
    const slow = vi.fn()
    const plain = vi.fn()
    renderHook(() => {
      useTicker(true, slow, 50, 1_000)
      useTicker(true, plain, 250)
    })
    await advance(2_000)
    expect(slow).toHaveBeenCalledTimes(2)
    expect(plain).toHaveBeenCalledTimes(8)
  })
})
