import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { asksAfterLeaving, neverBack, sampleProgress, submitJob, withJobTimers } from '@test/jobs'
import { mockFetch } from '@test/utils'
import { ANALYSIS_MS, MESSAGES, MSG_GENERIC } from './analysis'
import { POLL_MS, settled, useAnalysis, type AnalysisOut } from './use-analysis'

const ID = 'e'.repeat(32)
const speed = (status: string) => ({ id: 'f'.repeat(32), status, domain: 'example.com', strategy: 'mobile', created_at: '2026-11-24T20:00:00Z', result: null, error: null })
const base = {
  id: ID, status: 'running', variant: 'general', domain: 'example.com', email: 'ann@example.com',
  notice: "You'll receive your detailed analysis report at ann@example.com", created_at: '2026-11-24T20:00:00Z',
  report: null, scores: null, facts: null, critical_issues: [], generated_by: null, generated_note: null, speed_test: speed('running'), error: null,
}

/** The server: the analysis runs until `analysis` is set to done, its speed test until `speed` is. */
function serve(state: { analysis: string; speed: string; polls: number }) {
  return mockFetch((_method, url) => {
    if (url === '/api/analyses') return { status: 202, body: { ...base, status: 'queued' } }
    if (url === `/api/analyses/${ID}`) {
      state.polls += 1
      return { status: 200, body: { ...base, status: state.analysis, speed_test: speed(state.speed) } }
    }
    return { status: 404 }
  })
}

withJobTimers()

describe('useAnalysis', () => {
  it('keeps the 45 s pace, never sits at 100 while the job runs, ends at 100 with it, and polls on until the speed test ends', async () => {
    const server = { analysis: 'running', speed: 'running', polls: 0 }
    serve(server)
    const { result } = renderHook(() => useAnalysis('ai-analysis'))
    await submitJob(result, { url: 'example.com', email: 'ann@example.com', newsletter: false })
    expect(result.current.state.phase).toBe('loading')
    expect(result.current.state.notice).toBe("You'll receive your detailed analysis report at ann@example.com")

    const seen = await sampleProgress(() => result.current.state.progress, 90_000)
    expect(neverBack(seen)).toBe(true)
    expect(seen[Math.round(ANALYSIS_MS / 2 / 500) - 1]).toBeGreaterThan(45)
    expect(seen[Math.round(ANALYSIS_MS / 2 / 500) - 1]).toBeLessThan(55)
    expect(Math.max(...seen)).toBeLessThan(99)
    expect(server.polls).toBeGreaterThanOrEqual(85)

    server.analysis = 'done'
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 10))
    expect(result.current.state.phase).toBe('done')
    expect(result.current.state.progress).toBe(100)
    const before = server.polls
    await act(() => vi.advanceTimersByTimeAsync(3 * POLL_MS))
    expect(server.polls).toBeGreaterThan(before) // the speed test still runs

    server.speed = 'done'
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 10))
    const last = server.polls
    await act(() => vi.advanceTimersByTimeAsync(5 * POLL_MS))
    expect(server.polls).toBe(last)
    expect(result.current.state.analysis?.speed_test?.status).toBe('done')
  })

  it('stops polling once the page is left', async () => {
    const server = { analysis: 'running', speed: 'running', polls: 0 }
    serve(server)
    const hook = renderHook(() => useAnalysis('agency-analysis'))
    expect(await asksAfterLeaving(hook, { url: 'example.com', email: 'ann@example.com', newsletter: false }, () => server.polls)).toBe(0)
  })

  it('settled: a failed analysis, or a done one whose speed test ended or never ran', () => {
    const a = (status: string, speedStatus: string | null) =>
      ({ ...base, status, speed_test: speedStatus === null ? null : speed(speedStatus) }) as unknown as AnalysisOut
    expect(settled(a('failed', 'running'))).toBe(true)
    expect(settled(a('running', 'done'))).toBe(false)
    expect(settled(a('done', 'running'))).toBe(false)
    expect(settled(a('done', 'queued'))).toBe(false)
    expect(settled(a('done', 'done'))).toBe(true)
    expect(settled(a('done', 'failed'))).toBe(true)
    expect(settled(a('done', null))).toBe(true)
  })
})

describe('useAnalysis: what is wrong, in the one form-problem shape', () => {
  async function submitted(answer: { status: number; body?: unknown } | null, url = 'example.com') {
    mockFetch(() => answer ?? { status: 404 })
    const { result } = renderHook(() => useAnalysis('ai-analysis'))
    await submitJob(result, { url, email: 'ann@example.com', newsletter: false })
    return result.current.state
  }

  it("the page's own check concerns its field", async () => {
    const state = await submitted(null, ' ')
    expect(state.phase).toBe('failed')
    expect(state.problem).toEqual({ message: MESSAGES.general.url, fields: { url: MESSAGES.general.url } })
  })

  it("the server's words concern the first of url, email its answer names", async () => {
    const error = { code: 'validation_error', message: 'Both are wrong.', fields: { email: 'No.', url: 'No.' } }
    const state = await submitted({ status: 422, body: { error } })
    expect(state.problem).toEqual({ message: error.message, fields: { url: error.message } })
  })

  it("a failure without the server's words is the generic message, concerning no field", async () => {
    const state = await submitted({ status: 503, body: 'Service unavailable' })
    expect(state.problem).toEqual({ message: MSG_GENERIC, fields: {} })
  })
})
