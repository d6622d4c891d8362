/** Test helpers for the hooks of jobs the page waits on (useSpeedTest, useAnalysis), under fake timers. */
import { act } from '@testing-library/react'
import { afterEach, beforeEach, vi } from 'vitest'

/** Calls the hook's `submit` with `input` and lets the answers already due come in. */
export async function submitJob<I>(result: { current: { submit: (input: I) => Promise<void> } }, input: I): Promise<void> {
  await act(async () => {
    void result.current.submit(input)
    await vi.advanceTimersByTimeAsync(0)
  })
}

/** The progress `read` answers every `step` ms for `ms` ms. */
export async function sampleProgress(read: () => number, ms: number, step = 500): Promise<number[]> {
  const seen: number[] = []
  for (let t = 0; t < ms; t += step) {
    await act(() => vi.advanceTimersByTimeAsync(step))
    seen.push(read())
  }
  return seen
}

/** Whether the values never go back. */
export function neverBack(values: readonly number[]): boolean {
  return values.every((value, i) => i === 0 || value >= values[i - 1]!)
}

/** Fake timers (and `performance`, the progress clock's) around each test of the file. */
export function withJobTimers(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })
}

/**
 * Submits `input`, lets 3.5 s of asks happen, leaves the page (unmounts the hook) and lets 10 s
 * more pass: answers how many asks (`polls()`) came after leaving.
 */
export async function asksAfterLeaving<I>(
  hook: { result: { current: { submit: (input: I) => Promise<void> } }; unmount: () => void },
  input: I,
  polls: () => number,
): Promise<number> {
  await act(async () => {
    void hook.result.current.submit(input)
    await vi.advanceTimersByTimeAsync(3_500)
  })
  const before = polls()
  hook.unmount()
  await vi.advanceTimersByTimeAsync(10_000)
  return polls() - before
}
