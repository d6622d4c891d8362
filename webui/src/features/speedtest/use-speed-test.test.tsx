import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { asksAfterLeaving, neverBack, sampleProgress, submitJob, withJobTimers } from '@test/jobs'
import { mockFetch } from '@test/utils'
import { MSG_GENERIC, SCAN_MS } from './speed-test'
import { POLL_MS, useSpeedTest } from './use-speed-test'

const ID = 'b'.repeat(32)
const running = { id: ID, status: 'running', domain: 'example.com', strategy: 'mobile', created_at: '2026-11-24T20:00:00Z', result: null, error: null }
const done = {
  ...running,
  status: 'done',
  result: {
    score: 93, rating: 'Excellent', speed_index_ms: 900, total_blocking_time_ms: 0, largest_contentful_paint_ms: null,
    cumulative_layout_shift: null, first_contentful_paint_ms: null, field_data: [], opportunities: [], provider: 'lighthouse',
  },
}

/** The server: the test stays running until `finished` is set. */
function serve(state: { finished: boolean; polls: number }) {
  return mockFetch((_method, url) => {
    if (url === '/api/newsletter') return { status: 200, body: { message: 'ok' } }
    if (url === '/api/speed-tests') return { status: 202, body: { ...running, status: 'queued' } }
    if (url === `/api/speed-tests/${ID}`) {
      state.polls += 1
      return { status: 200, body: state.finished ? done : running }
    }
    return { status: 404 }
  })
}

withJobTimers()

describe('useSpeedTest: the progress bar', () => {
  it('keeps the spec pace, never sits at 100 or goes back while the job runs, and ends at 100 with the result', async () => {
    const server = { finished: false, polls: 0 }
    serve(server)
    const { result } = renderHook(() => useSpeedTest('speed-test'))
    await submitJob(result, { url: 'example.com', email: 'ann@example.com' })
    expect(result.current.state.phase).toBe('scanning')

    const seen = await sampleProgress(() => result.current.state.progress, 60_000)
    expect(neverBack(seen)).toBe(true)
    expect(seen[Math.round((SCAN_MS / 2) / 500) - 1]).toBeGreaterThan(45) // about half way at 12.5 s
    expect(Math.max(...seen)).toBeLessThan(99)
    expect(result.current.state.phase).toBe('scanning')
    // About one poll a second.
    expect(server.polls).toBeGreaterThanOrEqual(55)
    expect(server.polls).toBeLessThanOrEqual(60_000 / POLL_MS)

    server.finished = true
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 10))
    expect(result.current.state.phase).toBe('done')
    expect(result.current.state.progress).toBe(100)
    expect(result.current.state.test?.result?.score).toBe(93)
  })

  it('moves in whole-second steps with reduced motion', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }))
    serve({ finished: false, polls: 0 })
    const { result } = renderHook(() => useSpeedTest('coach-speed-test'))
    await submitJob(result, { url: 'example.com', email: 'ann@example.com' })
    await act(() => vi.advanceTimersByTimeAsync(900))
    expect(result.current.state.progress).toBe(0)
    await act(() => vi.advanceTimersByTimeAsync(200))
    expect(result.current.state.progress).toBeCloseTo(4.4, 0)
  })

  it('stops polling once the page is left', async () => {
    const server = { finished: false, polls: 0 }
    serve(server)
    const hook = renderHook(() => useSpeedTest('speed-test'))
    expect(await asksAfterLeaving(hook, { url: 'example.com', email: 'ann@example.com' }, () => server.polls)).toBe(0)
  })
})

describe('useSpeedTest: what is wrong, in the one form-problem shape', () => {
  async function submitted(answer: (url: string) => { status: number; body?: unknown } | null, url = 'example.com') {
    mockFetch((_method, path) => answer(path) ?? { status: 404 })
    const { result } = renderHook(() => useSpeedTest('speed-test'))
    await submitJob(result, { url, email: 'ann@example.com' })
    return result.current.state
  }

  it("the page's own check concerns its field", async () => {
    const state = await submitted(() => null, '')
    expect(state.phase).toBe('failed')
    expect(state.problem).toEqual({ message: 'Please enter a website URL', fields: { url: 'Please enter a website URL' } })
  })

  it("the server's words concern the first of url, email its answer names", async () => {
    const error = { code: 'validation_error', message: 'That e-mail address cannot receive mail.', fields: { email: 'Undeliverable.' } }
    const state = await submitted((path) => (path === '/api/newsletter' ? { status: 422, body: { error } } : null))
    expect(state.problem).toEqual({ message: error.message, fields: { email: error.message } })
  })

  it('a failure without the server\'s words is the generic message, concerning no field', async () => {
    const state = await submitted((path) => (path === '/api/newsletter' ? { status: 200, body: { message: 'ok' } } : { status: 502, body: 'Bad gateway' }))
    expect(state.problem).toEqual({ message: MSG_GENERIC, fields: {} })
  })
})
