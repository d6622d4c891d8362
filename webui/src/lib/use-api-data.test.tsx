import { act, renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError, GENERIC_ERROR_MESSAGE } from './api-client'
import { useApiData } from './use-api-data'

/** A promise with its resolve and reject at hand. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('useApiData', () => {
  it('is loading, then has the data', async () => {
    const answer = deferred<{ n: number }>()
    const { result } = renderHook(() => useApiData('a', () => answer.promise))
    expect(result.current).toMatchObject({ data: null, error: null, loading: true })
    await act(async () => answer.resolve({ n: 1 }))
    expect(result.current).toMatchObject({ data: { n: 1 }, error: null, loading: false })
  })

  it('has the error message on failure, and reload loads again from the loading state', async () => {
    const load = vi
      .fn<() => Promise<{ n: number }>>()
      .mockRejectedValueOnce(new ApiError(503, 'unavailable', 'Try later.'))
      .mockRejectedValueOnce(new Error('not an ApiError'))
    const { result } = renderHook(() => useApiData('a', load))
    await waitFor(() => expect(result.current.error).toBe('Try later.'))
    expect(result.current).toMatchObject({ data: null, loading: false })

    act(() => result.current.reload())
    expect(result.current).toMatchObject({ data: null, error: null, loading: true })
    await waitFor(() => expect(result.current.error).toBe(GENERIC_ERROR_MESSAGE))

    const answer = deferred<{ n: number }>()
    load.mockReturnValueOnce(answer.promise)
    act(() => result.current.reload())
    expect(result.current.loading).toBe(true)
    await act(async () => answer.resolve({ n: 3 }))
    expect(result.current).toMatchObject({ data: { n: 3 }, error: null, loading: false })
    expect(load).toHaveBeenCalledTimes(3)
  })

  it('drops the data of the old key at once and ignores its late answer', async () => {
    const answers = { a: deferred<{ key: string }>(), b: deferred<{ key: string }>() }
    const signals: AbortSignal[] = []
    const { result, rerender } = renderHook(
      ({ key }: { key: 'a' | 'b' }) =>
        useApiData(key, (signal) => {
          signals.push(signal)
          return answers[key].promise
        }),
      { initialProps: { key: 'a' } },
    )
    rerender({ key: 'b' })
    expect(result.current.loading).toBe(true)
    expect(signals[0]?.aborted).toBe(true)

    await act(async () => answers.b.resolve({ key: 'b' }))
    expect(result.current.data).toEqual({ key: 'b' })
    await act(async () => answers.a.resolve({ key: 'a' })) // late: the key moved on
    expect(result.current.data).toEqual({ key: 'b' })

    rerender({ key: 'a' }) // a new load for "a", not the answer that came late
    expect(result.current).toMatchObject({ data: null, loading: true })
  })

  it('ignores an answer that arrives after a reload or after unmount', async () => {
    const first = deferred<{ n: number }>()
    const second = deferred<{ n: number }>()
    const load = vi
      .fn<(signal: AbortSignal) => Promise<{ n: number }>>()
      .mockReturnValueOnce(first.promise)
      .mockReturnValueOnce(second.promise)
    const { result, unmount } = renderHook(() => useApiData('a', load))
    act(() => result.current.reload())
    await act(async () => first.reject(new ApiError(500, 'boom', 'Boom.')))
    expect(result.current).toMatchObject({ data: null, error: null, loading: true })
    await act(async () => second.resolve({ n: 2 }))
    expect(result.current.data).toEqual({ n: 2 })

    const third = deferred<{ n: number }>()
    load.mockReturnValueOnce(third.promise)
    act(() => result.current.reload())
    unmount()
    expect(load.mock.calls[2]?.[0].aborted).toBe(true)
    await act(async () => third.resolve({ n: 3 })) // no update of an unmounted component
    expect(result.current).toMatchObject({ data: null, loading: true })
  })
})
