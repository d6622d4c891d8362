import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { asksAfterLeaving, neverBack, sampleProgress, submitJob, withJobTimers } from '@test/jobs'
import { mockFetch } from '@test/utils'
import { MSG_GENERIC, SCAN_MS } from './speed-test'
import { POLL_MS, useSpeedTest } from './use-speed-test'

const ID = 'b'.repeat(32)
const NOTICE = 'Your speed report will arrive at ann@example.com in about 60 seconds.'
const ASKED = { url: 'example.com', email: 'ann@example.com', newsletter: false }
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
    if (url === '/api/speed-tests') return { status: 202, body: { ...running, status: 'queued', notice: NOTICE, newsletter: null } }
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
    await submitJob(result, ASKED)
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
    await submitJob(result, ASKED)
    await act(() => vi.advanceTimersByTimeAsync(900))
    expect(result.current.state.progress).toBe(0)
    await act(() => vi.advanceTimersByTimeAsync(200))
    expect(result.current.state.progress).toBeCloseTo(4.4, 0)
  })

  it('stops polling once the page is left', async () => {
    const server = { finished: false, polls: 0 }
    serve(server)
    const hook = renderHook(() => useSpeedTest('speed-test'))
    expect(await asksAfterLeaving(hook, ASKED, () => server.polls)).toBe(0)
  })
})

describe('useSpeedTest: what is wrong, in the one form-problem shape', () => {
  async function submitted(answer: (url: string) => { status: number; body?: unknown } | null, url = 'example.com') {
    mockFetch((_method, path) => answer(path) ?? { status: 404 })
    const { result } = renderHook(() => useSpeedTest('speed-test'))
    await submitJob(result, { ...ASKED, url })
    return result.current.state
  }

  it("the page's own check concerns its field", async () => {
    const state = await submitted(() => null, '')
    expect(state.phase).toBe('failed')
    expect(state.problem).toEqual({ message: 'Please enter a website URL', fields: { url: 'Please enter a website URL' } })
  })

  it("the server's words concern the first of url, email its answer names", async () => {
    const error = { code: 'validation_error', message: 'That e-mail address cannot receive mail.', fields: { email: 'Undeliverable.' } }
    const state = await submitted((path) => (path === '/api/speed-tests' ? { status: 422, body: { error } } : null))
    expect(state.problem).toEqual({ message: error.message, fields: { email: error.message } })
  })

  it('a failure without the server\'s words is the generic message, concerning no field', async () => {
    const state = await submitted(() => ({ status: 502, body: 'Bad gateway' }))
    expect(state.problem).toEqual({ message: MSG_GENERIC, fields: {} })
  })
})

describe('useSpeedTest: the newsletter only with the box, and only what happened', () => {
  /** The server: records what each start asked for; the test ends as `ends` says. */
  function serveWith(ends: 'done' | 'failed', newsletter: unknown) {
    const sent: unknown[] = []
    mockFetch((_method, url, init) => {
      if (url === '/api/speed-tests') {
        sent.push(JSON.parse(String(init.body)))
        return { status: 202, body: { ...running, status: 'queued', notice: NOTICE, newsletter } }
      }
      if (url === `/api/speed-tests/${ID}`) {
        return { status: 200, body: ends === 'done' ? done : { ...running, status: 'failed', error: 'Unable to access the website.' } }
      }
      return { status: 404 }
    })
    return sent
  }

  it('sends newsletter false without the box, true only with it, and never calls a sign-up of its own', async () => {
    const sent = serveWith('done', null)
    const { result } = renderHook(() => useSpeedTest('speed-test'))
    await submitJob(result, ASKED)
    await submitJob(result, { ...ASKED, newsletter: true })
    expect(sent).toEqual([
      { url: 'example.com', email: 'ann@example.com', source: 'speed-test', strategy: 'mobile', newsletter: false },
      { url: 'example.com', email: 'ann@example.com', source: 'speed-test', strategy: 'mobile', newsletter: true },
    ])
    const calls = vi.mocked(fetch).mock.calls.map(([url]) => String(url))
    expect(calls.some((url) => url.includes('newsletter'))).toBe(false)
  })

  it("confirms the report, and the subscription only as the server answered it", async () => {
    serveWith('done', { subscribed: true, message: "You're subscribed to the newsletter." })
    const { result } = renderHook(() => useSpeedTest('speed-test'))
    await submitJob(result, { ...ASKED, newsletter: true })
    expect(result.current.state.confirmation).toBe(NOTICE)
    expect(result.current.state.newsletter).toEqual({ subscribed: true, message: "You're subscribed to the newsletter." })
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 10))
    expect(result.current.state.phase).toBe('done')
    expect(result.current.state.newsletter?.subscribed).toBe(true)
  })

  it('a failed test shows its error alone: no confirmation, no subscription beside it', async () => {
    serveWith('failed', { subscribed: true, message: "You're subscribed to the newsletter." })
    const { result } = renderHook(() => useSpeedTest('speed-test'))
    await submitJob(result, { ...ASKED, newsletter: true })
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 10))
    const state = result.current.state
    expect(state.phase).toBe('failed')
    expect(state.problem?.message).toBe('Unable to access the website.')
    expect(state.confirmation).toBeNull()
    expect(state.newsletter).toBeNull()
  })
})
